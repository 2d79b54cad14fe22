#!/usr/bin/env bash
# auto-bugs.sh: the held-out evaluation of the adaptive engine (docs/BENCHMARKS.md,
# "The adaptive engine"): executions and CPU seconds to each real bug of
# testdata/bugs (the FuzzGfz generator targets, which auto was not tuned
# on), per engine and seed, at a fixed execution budget, one worker.
#
# Usage, from the repository root:
#   docs/bench/auto-bugs.sh build BIN_DIR           build the fuzz binaries and oracles
#   docs/bench/auto-bugs.sh run BIN_DIR RESULTS     run (resumable: recorded runs are skipped)
# SEEDS (default 1..10), ENGINES (auto zest bytes ei zeugma random fairfuzz),
# BUGS (all below) select the runs; BUDGET replaces the budgets below (runs
# are recorded with their budget: other budgets' runs are not skipped).
#
# A run is the fuzz binary with -engine E -seed S -runs BUDGET -workers 1
# -shrinkruns 0 under /usr/bin/time. Every new failure report is classified
# by the bug module's own oracle, IsBug(stack) (testdata/bugs/README.md),
# through a test binary of the module built with one file added by a go
# build -overlay (the module is not touched), as gfz-bench's bug mode does.
# The first failure the oracle accepts stops the run (SIGINT; its "found at
# execution" is exact whatever the moment of the stop); failures it rejects
# are counted as other crashes and the run goes on. The CPU seconds are
# user + system of the fuzz binary and its workers for the whole run, the
# stop included; the CPU seconds to the bug are those of the fuzz binary and
# its live workers (/proc: their own time and that of their finished
# children, such as a worker restarted after a hang) at the moment the
# script saw the bug's report (failures are polled every 0.05 s, and the
# CPU is read before the oracle runs), or the whole run's when the report
# appeared only at the end.
#
# Line: bug engine seed budget found execs_to_bug execs cpu_s wall_s others cpu_to_bug_s
set -uo pipefail
mode=$1; bin=$2
# bug budget (executions)
bugs_all='
gjson-squash 100000
goldmark-list 100000
gotoml2-inline 100000
toml-hang 100000
gotoml2-datetime 400000
toml-escapes 400000
'
want=${BUGS:-}
selected() { [ -z "$want" ] || echo " $want " | grep -q " $1 "; }

if [ "$mode" = build ]; then
	set -e
	mkdir -p "$bin"
	bin=$(cd "$bin" && pwd)
	go build -o "$bin/gfz-build" ./cmd/gfz-build
	echo "$bugs_all" | while read -r b budget; do
		[ -z "$b" ] && continue
		selected "$b" || continue
		dir=$(cd "testdata/bugs/$b" && pwd)
		# -cmp=false: as the binaries of 2026-11-27 were built (gfz-build now
		# adds comparison probes to builds of packages with native targets).
		(cd "$dir" && GOWORK=off "$bin/gfz-build" -cmp=false -o "$bin/$b.gfz" .)
		pkg=$(cd "$dir" && GOWORK=off go list -f '{{.Name}}' .)
		cat >"$bin/$b.oracle_test.go" <<EOF
package $pkg

import (
	"fmt"
	"os"
	"testing"
)

// TestAutoBugsOracle prints, for the stack text in \$AUTO_BUGS_STACK,
// whether the module's IsBug accepts it.
func TestAutoBugsOracle(t *testing.T) {
	p := os.Getenv("AUTO_BUGS_STACK")
	if p == "" {
		t.Skip("run by docs/bench/auto-bugs.sh only")
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if IsBug(string(b)) {
		fmt.Println("verdict: bug")
	} else {
		fmt.Println("verdict: other")
	}
}
EOF
		printf '{"Replace":{"%s/zz_auto_bugs_oracle_test.go":"%s"}}\n' "$dir" "$bin/$b.oracle_test.go" >"$bin/$b.overlay.json"
		(cd "$dir" && GOWORK=off go test -c -overlay="$bin/$b.overlay.json" -o "$bin/$b.oracle" .)
	done
	exit 0
fi

results=$3
touch "$results"
seeds=${SEEDS:-$(seq 1 10)}
engines=${ENGINES:-auto zest bytes ei zeugma random fairfuzz}
tmp=$(mktemp -d /tmp/auto-bugs.XXXX)
trap 'rm -rf "$tmp"' EXIT

# verdict REPORT: bug or other, by the oracle, on the report's stack: section unindented.
verdict() {
	awk 'on && /^[^\t]/ { exit } on { sub(/^\t/, ""); print } /^stack:[ \r]*$/ { on = 1 }' "$2" >"$tmp/stack.txt"
	AUTO_BUGS_STACK=$tmp/stack.txt "$bin/$1.oracle" -test.run '^TestAutoBugsOracle$' 2>/dev/null | grep -o 'verdict: [a-z]*' | cut -d' ' -f2
}

# cpu_now PID: CPU seconds of PID and its children so far (their own and
# their waited-for children's), from /proc.
cpu_now() {
	local tck p t=0
	tck=$(getconf CLK_TCK)
	for p in "$1" $(pgrep -P "$1"); do
		t=$((t + $(awk '{print $14 + $15 + $16 + $17}' "/proc/$p/stat" 2>/dev/null || echo 0)))
	done
	awk -v t="$t" -v k="$tck" 'BEGIN { printf "%.2f", t / k }'
}

# execs_at REPORT: the execution that found the failure, the worker's own
# count (one worker: the run's); the supervisor's count in the same line is
# its last sample of the worker's, not exact.
execs_at() {
	local l
	l=$(grep -m1 '^found at execution' "$1")
	case $l in
	*"at its execution "* | *"in its execution "*) echo "$l" | sed -E 's/.*(at|in) its execution ([0-9]+).*/\2/' ;;
	*) echo "$l" | grep -o '[0-9]*' | head -1 ;;
	esac
}

echo "$bugs_all" | while read -r b budget; do
	[ -z "$b" ] && continue
	selected "$b" || continue
	def=$budget
	budget=${BUDGET:-$budget}
	tag=
	[ "$budget" != "$def" ] && tag=@$budget
	for s in $seeds; do
		for e in $engines; do
			if awk -v c="$b" -v e="$e" -v s="$s" -v n="$budget" -F'\t' \
				'$1 == c && $2 == e && $3 == s && $4 == n { f = 1 } END { exit !f }' "$results"; then
				continue
			fi
			wd=$tmp/wd
			rm -rf "$wd" "$tmp/time"
			start=$(date +%s.%N)
			/usr/bin/time -o "$tmp/time" -f '%U %S' "$bin/$b.gfz" -engine "$e" -seed "$s" -runs "$budget" -workers 1 \
				-shrinkruns 0 -workdir "$wd" FuzzGfz >"$tmp/out.txt" 2>&1 &
			tpid=$!
			found=0; at=-1; others=0; cpubug=-
			declare -A seen=()
			gpid=
			while kill -0 "$tpid" 2>/dev/null; do
				[ -z "$gpid" ] && gpid=$(pgrep -P "$tpid" | head -1)
				for rep in "$wd"/failures/*.txt; do
					[ -f "$rep" ] || continue
					[ -n "${seen[$rep]:-}" ] && continue
					seen[$rep]=1
					c=$(cpu_now "${gpid:-$tpid}")
					if [ "$(verdict "$b" "$rep")" = bug ]; then
						found=1; cpubug=$c
						at=$(execs_at "$rep")
						[ -n "$gpid" ] && kill -INT "$gpid" 2>/dev/null
						break 2
					fi
					others=$((others + 1))
				done
				sleep 0.05
			done
			wait "$tpid"
			wall=$(echo "$(date +%s.%N) - $start" | bc)
			# failures written at the very end (the run stopped at its budget)
			if [ "$found" = 0 ]; then
				for rep in "$wd"/failures/*.txt; do
					[ -f "$rep" ] || continue
					[ -n "${seen[$rep]:-}" ] && continue
					if [ "$(verdict "$b" "$rep")" = bug ]; then
						found=1
						at=$(execs_at "$rep")
					else
						others=$((others + 1))
					fi
				done
			fi
			unset seen
			cpu=$(awk 'NF == 2 && $1 ~ /^[0-9.]+$/ { c = $1 + $2 } END { printf "%.2f", c }' "$tmp/time")
			[ "$found" = 1 ] && [ "$cpubug" = - ] && cpubug=$cpu
			execs=$(grep -m1 '^execs:' "$wd/stats" 2>/dev/null | awk '{print $2}')
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t%s\t%s\n' "$b" "$e" "$s" "$budget" "$found" "${at:--1}" \
				"${execs:--}" "$cpu" "$wall" "$others" "$cpubug" >>"$results"
			mkdir -p "${results%.*}-stats"
			cp "$wd/stats" "${results%.*}-stats/$b.$e.$s$tag" 2>/dev/null || true
		done
	done
done
