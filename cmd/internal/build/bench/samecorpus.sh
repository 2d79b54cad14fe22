#!/usr/bin/env bash
# samecorpus.sh: do two gfz trees fuzz the same way? Builds the examples of
# each tree (testdata/examples, gfz-build -cmp -counts) with that tree's
# gfz-build, runs every target under every engine with one worker, a fixed
# seed and a fixed number of executions, and lists, per run, the number of
# corpus entries and a hash of the names in corpus/ and failures/ (content
# hashes: same names, same inputs). Then it compares the two lists.
#
# Usage: cmd/internal/build/bench/samecorpus.sh TREE_A TREE_B [OUTDIR]
# RUNS (default 20000), SEED (7), ENGINES (zest bytes random ei bediv
# zeugma rl) and EXAMPLES (all) override the defaults. The examples that
# need a feedback domain get it (perf, mem, diff); -feedback mem measures
# allocation and is not deterministic from one run to the next, so its
# runs are listed but expected to differ.
set -euo pipefail
a=$1; b=$2; out=${3:-$(mktemp -d /tmp/samecorpus.XXXX)}
runs=${RUNS:-20000}; seed=${SEED:-7}
list() { # list TREE FILE
	local tree=$1 file=$2 tmp
	tmp=$(mktemp -d /tmp/samecorpus-run.XXXX)
	(cd "$tree" && go build -o "$tmp/gfz-build" ./cmd/gfz-build)
	: >"$file"
	for ex in ${EXAMPLES:-bst config diff havoc lru magic mem perf waypoint}; do
		if ! (cd "$tree" && "$tmp/gfz-build" -cmp -counts -o "$tmp/$ex.gfz" ./testdata/examples/$ex) >/dev/null 2>&1; then
			echo "$ex build-failed" >>"$file"
			continue
		fi
		fb=""
		case $ex in perf | mem | diff) fb="-feedback $ex" ;; esac
		for t in $("$tmp/$ex.gfz" -list); do
			for e in ${ENGINES:-zest bytes random ei bediv zeugma rl}; do
				wd=$tmp/wd-$ex-$t-$e
				(cd "$tmp" && ./$ex.gfz -engine "$e" -seed "$seed" -runs "$runs" -workers 1 -workdir "$wd" $fb -shrinkruns 0 "$t" >/dev/null 2>&1) || true
				h=$( (cd "$wd" 2>/dev/null && ls corpus failures 2>/dev/null | sort) | sha256sum | cut -c1-16)
				echo "$ex $t $e $(ls "$wd/corpus" 2>/dev/null | wc -l) $h" >>"$file"
			done
		done
	done
	rm -rf "$tmp"
}
list "$a" "$out/a.txt"
list "$b" "$out/b.txt"
total=$(wc -l <"$out/a.txt")
same=$(paste -d'|' "$out/a.txt" "$out/b.txt" | awk -F'|' '$1 == $2' | wc -l)
echo "$same of $total runs identical (lists in $out)"
paste -d'|' "$out/a.txt" "$out/b.txt" | awk -F'|' '$1 != $2 { print "differs: " $1 " | " $2 }'
