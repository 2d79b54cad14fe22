#!/bin/sh
# execs.sh: executions to the lru example's bug, per engine, over seeds
# 1..SEEDS with a fixed budget: builds the example with gfz-build, runs
# `lru.gfz -engine E -seed S -workers 1 -runs BUDGET FuzzCache` in a fresh
# work directory per run and reads "found at execution" from the failure
# report. Prints, per engine, the sorted counts ("-" = not found within the
# budget), k/n and the median (a run that did not find it counts as above
# the budget). With -workers 1 the figures are exactly reproducible for the
# same binary.
#
# Usage (from the repository root):
#   testdata/examples/lru/execs.sh [engines] [seeds] [budget]
# defaults: "zest random", 10, 300000.
set -eu
engines=${1:-zest random}
seeds=${2:-10}
budget=${3:-300000}
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./cmd/gfz-build -o "$tmp/lru.gfz" ./testdata/examples/lru >/dev/null
cd "$root/testdata/examples/lru"
for e in $engines; do
	counts=""
	s=1
	while [ "$s" -le "$seeds" ]; do
		wd="$tmp/w-$e-$s"
		n=-
		if ! "$tmp/lru.gfz" -engine "$e" -seed "$s" -workers 1 -runs "$budget" -workdir "$wd" FuzzCache >"$tmp/out" 2>&1; then
			n=$(sed -n 's/^found at execution: \([0-9]*\).*/\1/p' "$wd"/failures/*.txt 2>/dev/null | head -1)
			[ -n "$n" ] || { echo "execs.sh: $e seed $s failed without a report:" >&2; cat "$tmp/out" >&2; exit 2; }
		fi
		counts="$counts $n"
		s=$((s + 1))
	done
	echo "$counts" | tr ' ' '\n' | grep -v '^$' | sed "s/^-$/$((budget + 1))/" | sort -n | awk -v e="$e" -v b="$budget" '
		{ v[NR] = $1; if ($1 <= b) { k++; line = line " " $1 } else line = line " -" }
		END {
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%s: %d/%d found within %d; sorted:%s; median %s\n", e, k, NR, b, line, (m > b) ? "> budget" : m
		}'
done
