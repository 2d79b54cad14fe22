#!/bin/sh
# seedgen.sh: coverage over executions of the campaign engine with and
# without a seed-generation phase (docs/BENCHMARKS.md, "Seed generation").
# Builds PKG with gfz-build (-cover COVER), runs
# `T.gfz -engine zest -seed S -workers 1 -runs BUDGET [-seedgen-runs N
# -seedgen-engine E -seedgen-filter F] TARGET` per condition and seed, and
# prints, per run, gfz's coverage keys (total and valid; the campaign
# engine's, from plot_data) at the last status row at or before each
# checkpoint, and at the end.
#
# Usage (from the repository root):
#   testdata/rlbench/seedgen.sh PKG TARGET COVER [seeds] [budget] [phase] [conditions]
# conditions: space-separated none | ENGINE:FILTER (default "none rl:rnd rl:cov random:rnd");
# e.g. testdata/rlbench/seedgen.sh ./testdata/targets/xmlcatalog FuzzCatalog encoding/xml 3 100000 5000
set -eu
pkg=$1
target=$2
cover=$3
seeds=${4:-3}
budget=${5:-100000}
phase=${6:-5000}
conds=${7:-none rl:rnd rl:cov random:rnd}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./cmd/gfz-build -o "$tmp/t.gfz" -cover "$cover" "$pkg" >/dev/null
cps="10000 20000 50000 $budget"
echo "condition seed | total_cov (valid_cov) at execs: $cps | seeds line"
for c in $conds; do
	s=1
	while [ "$s" -le "$seeds" ]; do
		wd="$tmp/w"
		rm -rf "$wd"
		set -- -engine zest -seed "$s" -workers 1 -runs "$budget" -workdir "$wd"
		if [ "$c" != none ]; then
			set -- "$@" -seedgen-runs "$phase" -seedgen-engine "${c%%:*}" -seedgen-filter "${c##*:}"
		fi
		"$tmp/t.gfz" "$@" "$target" >"$tmp/out" 2>&1 || true
		row=""
		for cp in $cps; do
			row="$row $(awk -F', ' -v cp="$cp" 'NR > 1 && $3 + 0 <= cp { v = $7 " (" $8 ")" } END { print v }' "$wd/plot_data")"
		done
		echo "$c $s |$row | $(grep -o 'seed generation:.*' "$tmp/out" | head -1)"
		s=$((s + 1))
	done
done
