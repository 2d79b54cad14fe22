#!/bin/bash
# Comparison feedback on native targets: found / not found within a fixed
# execution budget on held-out bugs of testdata/bugs (their FuzzNative),
# docs/BENCHMARKS.md, "Comparison feedback on native targets".
#
#   cmp-native-bugs.sh OUT build LABEL GFZBUILD BUG... [-- gfz-build flags...]
#        builds OUT/bin/BUG.LABEL.gfz with the gfz-build binary GFZBUILD
#        (inside the bug's nested module, GOWORK=off), and OUT/bin/BUG.oracle,
#        the module's test binary with one added test (go build -overlay, the
#        tree untouched) that applies the module's own IsBug to report files
#   cmp-native-bugs.sh OUT run LABEL BUG N CAP [fuzz binary flags...]
#        seeds 1..N of OUT/bin/BUG.LABEL.gfz on FuzzNative, one worker,
#        -runs CAP, run in the bug's directory (its seeds)
#
# Each run appends "LABEL BUG SEED EXECS" to OUT/results.tsv: EXECS is the
# execution at which the first failure IsBug accepts was found (the
# report's "found at execution: N", exact with one worker and counting the
# executions of a worker restarted after a crash), or "miss". The
# run is stopped as soon as such a failure is saved. Runs already in the
# file are skipped, so an interrupted loop resumes.
set -u
OUT=$1; shift
cmd=$1; shift
BUGS=$(cd "$(dirname "$0")/../../testdata/bugs" && pwd)
mkdir -p "$OUT/bin" "$OUT/tmp"
OUT=$(cd "$OUT" && pwd)
RES=$OUT/results.tsv
touch "$RES"

# verdict BUG WORKDIR: prints the execution of the earliest failure of
# WORKDIR that BUG's IsBug accepts, or nothing.
verdict() {
	local bug=$1 w=$2 list=$OUT/tmp/list.$$ best=
	: > "$list"
	for r in "$w"/failures/*.txt; do
		[ -f "$r" ] || continue
		# The stack section, unindented (what the oracle reads).
		awk '/^stack:/ { on = 1; next } on && /^[^\t ]/ { on = 0 } on { sub(/^\t/, ""); print }' "$r" > "$r.stack"
		echo "$r.stack" >> "$list"
	done
	[ -s "$list" ] || { rm -f "$list"; return; }
	for s in $(cd "$BUGS/$bug" && GFZBENCH_ORACLE=$list "$OUT/bin/$bug.oracle" -test.run '^TestGfzBenchOracle$' |
		awk -F'\t' '$1 == "gfzbench-verdict" && $2 == "bug" { print $3 }'); do
		e=$(sed -n 's/^found at execution: \([0-9]*\).*/\1/p' "${s%.stack}")
		if [ -n "$e" ] && { [ -z "$best" ] || [ "$e" -lt "$best" ]; }; then best=$e; fi
	done
	rm -f "$list"
	echo "$best"
}

case $cmd in
build)
	label=$1 gb=$2; shift 2
	bugs=()
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do bugs+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	for bug in "${bugs[@]}"; do
		(cd "$BUGS/$bug" && GOWORK=off "$gb" "$@" -o "$OUT/bin/$bug.$label.gfz" .) || exit 1
		[ -x "$OUT/bin/$bug.oracle" ] && continue
		pkg=$(sed -n 's/^package \([a-z0-9_]*\).*/\1/p' "$BUGS/$bug/bug.go" | head -1)
		d=$OUT/tmp/oracle-$bug
		mkdir -p "$d"
		cat > "$d/oracle_test.go" <<EOF
package $pkg

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestGfzBenchOracle(t *testing.T) {
	b, err := os.ReadFile(os.Getenv("GFZBENCH_ORACLE"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Split(string(b), "\n") {
		if p == "" {
			continue
		}
		s, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		v := "other"
		if IsBug(string(s)) {
			v = "bug"
		}
		fmt.Printf("gfzbench-verdict\t%s\t%s\n", v, p)
	}
}
EOF
		printf '{"Replace":{"%s":"%s"}}\n' "$BUGS/$bug/zz_cmpnative_oracle_test.go" "$d/oracle_test.go" > "$d/overlay.json"
		(cd "$BUGS/$bug" && GOWORK=off go test -c -overlay "$d/overlay.json" -o "$OUT/bin/$bug.oracle" .) || exit 1
	done
	;;
run)
	label=$1 bug=$2 n=$3 cap=$4; shift 4
	bin=$OUT/bin/$bug.$label.gfz
	[ -x "$bin" ] || { echo "no $bin: build it first" >&2; exit 2; }
	for s in $(seq 1 "$n"); do
		grep -q "^$label	$bug	$s	" "$RES" && continue
		d=$OUT/tmp/$label-$bug-$s
		rm -rf "$d"; mkdir -p "$d"
		(cd "$BUGS/$bug" && exec "$bin" -workers 1 -seed "$s" -runs "$cap" -shrinktime 0 \
			-workdir "$d/w" "$@" FuzzNative > "$d/log" 2>&1) &
		pid=$!
		seen=0 e=
		while kill -0 "$pid" 2>/dev/null; do
			sleep 0.5
			k=$(ls "$d/w/failures" 2>/dev/null | grep -c '\.txt$')
			if [ "$k" -gt "$seen" ]; then
				seen=$k
				e=$(verdict "$bug" "$d/w")
				if [ -n "$e" ]; then
					kill -INT "$pid" 2>/dev/null; sleep 1; kill -KILL "$pid" 2>/dev/null
					break
				fi
			fi
		done
		wait "$pid" 2>/dev/null
		[ -z "$e" ] && e=$(verdict "$bug" "$d/w")
		printf '%s\t%s\t%s\t%s\n' "$label" "$bug" "$s" "${e:-miss}" >> "$RES"
		grep -h '^gfz: \(done\|cmp:\)' "$d/log" | sed "s/^/$label $bug $s: /" >> "$OUT/summaries.txt"
		rm -rf "$d"
	done
	;;
*)
	echo "usage: see the head of $0" >&2; exit 2
esac
