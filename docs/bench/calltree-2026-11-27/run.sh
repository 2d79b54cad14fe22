#!/usr/bin/env bash
# run.sh: executions to testdata/examples/bstsucc's planted bug per build,
# engine and seed (docs/BENCHMARKS.md, "Call tree from the call stack").
# One worker, a fixed budget of executions (-runs), so the results do not
# depend on the machine's load.
#
# Usage: run.sh RESULTS_FILE BUILD=BINARY...
#   each BUILD=BINARY names a fuzz binary of testdata/examples/bstsucc
#   (e.g. before=/tmp/ct/bin/before.gfz after=/tmp/ct/bin/after.gfz).
#   RESULTS_FILE gets one tab-separated line per finished run; runs already
#   in it are skipped, so a stopped evaluation resumes where it stopped.
# SEEDS (default 1..10), ENGINES (zest ei zeugma bediv bytes random) and
# BUDGET (1000000) select the runs; TARGET (FuzzDelete) the fuzz target (a
# line's build is then BUILD:TARGET unless TARGET is FuzzDelete).
#
# A run stops at its first failure (SIGINT once failures/ holds a report;
# the report's "worker 0 at its execution N" is exact whatever the moment
# of the stop).
#
# Line: build engine seed budget found execs_to_bug execs corpus valid_pct execs_per_sec
set -uo pipefail
results=$1; shift
touch "$results"
seeds=${SEEDS:-$(seq 1 10)}
engines=${ENGINES:-zest ei zeugma bediv bytes random}
budget=${BUDGET:-1000000}
target=${TARGET:-FuzzDelete}
tmp=$(mktemp -d /tmp/calltree-run.XXXX)
trap 'rm -rf "$tmp"' EXIT
for spec in "$@"; do
	build=${spec%%=*}; bin=${spec#*=}
	[ "$target" != FuzzDelete ] && build=$build:$target
	for e in $engines; do
		for s in $seeds; do
			if awk -v b="$build" -v e="$e" -v s="$s" -v n="$budget" -F'\t' \
				'$1 == b && $2 == e && $3 == s && $4 == n { f = 1 } END { exit !f }' "$results"; then
				continue
			fi
			wd=$tmp/wd
			rm -rf "$wd"
			"$bin" -engine "$e" -seed "$s" -runs "$budget" -workers 1 -shrinkruns 0 -workdir "$wd" "$target" >"$tmp/out.txt" 2>&1 &
			pid=$!
			while kill -0 "$pid" 2>/dev/null; do
				if ls "$wd/failures/"*.txt >/dev/null 2>&1; then
					sleep 0.2
					kill -INT "$pid" 2>/dev/null
					break
				fi
				sleep 0.3
			done
			wait "$pid"
			found=0; at=-1
			rep=$(ls "$wd/failures/"*.txt 2>/dev/null | head -1)
			if [ -n "$rep" ]; then
				found=1
				at=$(grep -m1 -o 'worker 0 at its execution [0-9]*' "$rep" | grep -o '[0-9]*$')
			fi
			execs=$(grep -m1 '^execs:' "$wd/stats" 2>/dev/null | awk '{print $2}')
			corpus=$(grep -m1 '^corpus:' "$wd/stats" 2>/dev/null | awk '{print $2}')
			vpct=$(grep -m1 '^valid_pct:' "$wd/stats" 2>/dev/null | awk '{print $2}')
			eps=$(grep -m1 '^execs_per_sec:' "$wd/stats" 2>/dev/null | awk '{print $2}')
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$build" "$e" "$s" "$budget" "$found" "${at:--1}" \
				"${execs:--}" "${corpus:--}" "${vpct:--}" "${eps:--}" >>"$results"
		done
	done
done
