#!/bin/sh
# measure.sh: valid % and unique valid inputs per engine at a fixed
# execution budget (docs/BENCHMARKS.md, "RLCheck"). Builds this package
# with gfz-build (the examples' and jsonorder's code instrumented, and
# encoding/json), runs `rl.gfz -engine E -seed S -workers 1 -runs BUDGET T`
# with GFZ_UNIQUE set (the target counts its distinct valid values) and
# prints one line per run: target engine seed execs valid_pct unique_valid
# execs_per_sec restarts (a restarted worker starts counting unique values
# again: such a run's count is low; re-run it).
#
# Usage (from the repository root):
#   testdata/rlbench/measure.sh [targets] [engines] [seeds] [budget]
# defaults: "FuzzBST FuzzConfig FuzzJSON", "rl random zest", 3, 100000.
set -eu
targets=${1:-FuzzBST FuzzConfig FuzzJSON}
engines=${2:-rl random zest}
seeds=${3:-3}
budget=${4:-100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./cmd/gfz-build -o "$tmp/rl.gfz" -instrument 'github.com/gfz-dev/gfz/testdata/...' -cover encoding/json ./testdata/rlbench >/dev/null
echo "target engine seed execs valid_pct unique_valid execs_per_sec restarts"
for t in $targets; do
	for e in $engines; do
		s=1
		while [ "$s" -le "$seeds" ]; do
			wd="$tmp/w-$t-$e-$s"
			GFZ_UNIQUE="$tmp/u" "$tmp/rl.gfz" -engine "$e" -seed "$s" -workers 1 -runs "$budget" -workdir "$wd" "$t" >"$tmp/out" 2>&1 || true
			st="$wd/stats"
			get() { sed -n "s/^$1: *//p" "$st"; }
			echo "$t $e $s $(get execs) $(get valid_pct) $(tr -d ' ' <"$tmp/u") $(get execs_per_sec) $(get restarts)"
			rm -rf "$wd"
			s=$((s + 1))
		done
	done
done
