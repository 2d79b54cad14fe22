#!/bin/bash
# Executions to a shallow bug near a seed: gfz against go test -fuzz on the
# reproductions of internal/native/testdata/shallow (docs/BENCHMARKS.md,
# "Native targets: executions to a shallow bug").
#
#   nativeshallow.sh OUT build LABEL TREE        build TREE's gfz-build, then OUT/bin/LABEL.gfz
#                                                (and OUT/bin/go.test, go test -c -fuzz)
#   nativeshallow.sh OUT gfz LABEL TARGET N CAP [flags...]
#                                                seeds 1..N of OUT/bin/LABEL.gfz, one worker, -runs CAP
#   nativeshallow.sh OUT go TARGET N CAP         N runs of go test -fuzz, -parallel=1, -fuzztime=CAPx
#
# Each run appends "tool target run calls" to OUT/results.tsv, where calls is
# the number of calls of the fuzz function in the process when the bug was
# reached (the target counts them: $SHALLOW_COUNT), "miss", or for go test
# -fuzz "stop" when it stopped at another failure first. A run is
# stopped (SIGINT) once the bug is reached: what follows (the rest of gfz's
# -runs, go test's minimization of the crash) does not change the count.
# Runs already in the file are skipped, so an interrupted loop resumes.
set -u
OUT=$1; shift
cmd=$1; shift
mkdir -p "$OUT/bin" "$OUT/tmp"
RES=$OUT/results.tsv
touch "$RES"
# The module built: the reproductions, or $MOD (the counting copy of the
# bug suite's gotoml2-datetime, internal/native/testdata/gotoml2count).
MOD=${MOD:-$(cd "$(dirname "$0")/../../internal/native/testdata/shallow" && pwd)}
done_already() { grep -q "^$1	$2	$3	" "$RES"; }
# stop_at_bug PID COUNTFILE: wait for PID, interrupting it once COUNTFILE
# is written.
stop_at_bug() {
	while kill -0 "$1" 2>/dev/null; do
		if [ -s "$2" ]; then
			kill -INT "$1" 2>/dev/null
			sleep 1
			kill -KILL "$1" 2>/dev/null
			break
		fi
		sleep 0.05
	done
	wait "$1" 2>/dev/null
}
case $cmd in
build)
	label=$1 tree=$2
	(cd "$tree" && go build -o "$OUT/bin/$label-gfz-build" ./cmd/gfz-build) || exit 1
	(cd "$MOD" && GOWORK=off "$OUT/bin/$label-gfz-build" -o "$OUT/bin/$label.gfz" .) || exit 1
	[ -x "$OUT/bin/go.test" ] || (cd "$MOD" && GOWORK=off go test -c -fuzz=. -o "$OUT/bin/go.test" .) || exit 1
	;;
gfz)
	label=$1 target=$2 n=$3 cap=$4; shift 4
	[ -x "$OUT/bin/$label.gfz" ] || { echo "no $OUT/bin/$label.gfz: build it first" >&2; exit 2; }
	for s in $(seq 1 "$n"); do
		done_already "gfz-$label" "$target" "$s" && continue
		d=$OUT/tmp/gfz-$label-$target-$s
		rm -rf "$d"; mkdir -p "$d"
		SHALLOW_COUNT=$d/count "$OUT/bin/$label.gfz" -workers 1 -seed "$s" -runs "$cap" -shrinktime 0 \
			-timeout 0 -workdir "$d/w" "$@" "$target" > "$d/log" 2>&1 &
		stop_at_bug $! "$d/count"
		c=$(head -1 "$d/count" 2>/dev/null | awk '{print $2}')
		printf 'gfz-%s\t%s\t%s\t%s\n' "$label" "$target" "$s" "${c:-miss}" >> "$RES"
		rm -rf "$d"
	done
	;;
go)
	target=$1 n=$2 cap=$3
	[ -x "$OUT/bin/go.test" ] || { echo "no $OUT/bin/go.test: build it first" >&2; exit 2; }
	for s in $(seq 1 "$n"); do
		done_already go "$target" "$s" && continue
		d=$OUT/tmp/go-$target-$s
		rm -rf "$d"; mkdir -p "$d"
		# go test -fuzz has no memory limit of its own: 4 GiB of address space
		# stands for gfz's -rss_limit_mb, so that an input that allocates
		# without bound ends the run instead of the machine's memory.
		(cd "$d" && ulimit -v 4194304 && exec env SHALLOW_COUNT="$d/count" "$OUT/bin/go.test" -test.run='^$' -test.fuzz="^$target\$" \
			-test.fuzztime="${cap}x" -test.parallel=1 -test.fuzzcachedir="$d/cache" > "$d/log" 2>&1) &
		stop_at_bug $! "$d/count"
		c=$(head -1 "$d/count" 2>/dev/null | awk '{print $2}')
		if [ -z "$c" ] && grep -q -e 'Failing input written' -e 'terminated unexpectedly' "$d/log"; then
			c=stop # go test -fuzz stopped at another failure
		fi
		printf 'go\t%s\t%s\t%s\n' "$target" "$s" "${c:-miss}" >> "$RES"
		rm -rf "$d"
	done
	;;
*)
	echo "usage: see the head of $0" >&2; exit 2
esac
