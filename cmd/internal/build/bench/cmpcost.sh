#!/bin/sh
# cmpcost.sh: cost of gfz-build -cmp's comparison probes on the overhead
# workload (testdata/instrument/bench, see overhead.sh): go/parser and
# go/types over ~190 GOROOT files, with the std packages doing the work
# instrumented through the linkname scheme.
#
# Four test binaries built side by side in one run:
#   plain    go test -c
#   gfz      coverage probes only (the default build)
#   cmpoff   coverage and comparison probes, probes off (runtime.CmpOn false,
#            as in a fuzz binary run without -feedback cmp)
#   cmpon    the same, probes on from the start
#            (-ldflags -X github.com/gfz-dev/gfz/runtime.cmpInit=on)
# Runs are interleaved so machine noise hits all alike. Each run is one
# process with GOMAXPROCS=1 doing 3 benchmark ops; the script prints the
# median wall ns/op and the median CPU seconds (user+sys, /usr/bin/time)
# of each build, with their ratios to plain. On a shared, loaded machine
# the CPU time is the figure to read: wall time also counts the time
# other processes hold the cores.
#
# Usage: cmd/internal/build/bench/cmpcost.sh [rounds]   (default 3; run from the repo root)
set -eu
rounds=${1:-3}
root=$(pwd)
mod=$root/testdata/instrument/bench
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cover=go/types,go/parser,go/scanner,go/ast,go/token,go/constant,go/importer,go/build
go run ./cmd/internal/build/bench/prepare -C "$mod" -cover "$cover" . > "$out/flags"
go run ./cmd/internal/build/bench/prepare -C "$mod" -cmp -cover "$cover" . > "$out/cflags"
work=$(head -1 "$out/flags")
cwork=$(head -1 "$out/cflags")
flags=$(tail -n +2 "$out/flags" | tr '\n' ' ')
cflags=$(tail -n +2 "$out/cflags" | tr '\n' ' ')
cd "$mod"
go test -c -o "$out/plain.test" .
# shellcheck disable=SC2086
go test -c $flags -o "$out/gfz.test" .
# shellcheck disable=SC2086
go test -c $cflags -o "$out/cmpoff.test" .
# shellcheck disable=SC2086
go test -c $cflags -ldflags=-X=github.com/gfz-dev/gfz/runtime.cmpInit=on -o "$out/cmpon.test" .
rm -rf "$work" "$cwork"

for i in $(seq "$rounds"); do
	for v in plain gfz cmpoff cmpon; do
		GOMAXPROCS=1 /usr/bin/time -f "CPU %U %S" "$out/$v.test" -test.run '^$' -test.bench Typecheck -test.benchtime 3x 2>&1 |
			awk -v v="$v" '/^BenchmarkTypecheck/ { ns = $3 } /^CPU / { print v, ns, $2 + $3 }'
	done
done | awk '
	{ n[$1]++; w[$1, n[$1]] = $2; c[$1, n[$1]] = $3 }
	function median(arr, k, m,   i, j, t, a) {
		for (i = 1; i <= m; i++) a[i] = arr[k, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
	END {
		for (k in n) { mw[k] = median(w, k, n[k]); mc[k] = median(c, k, n[k]) }
		printf "%-7s %14s %8s %10s %8s\n", "build", "wall ns/op", "ratio", "CPU s/run", "ratio"
		for (k in n) printf "%-7s %14.0f %8.3f %10.2f %8.3f\n", k, mw[k], mw[k] / mw["plain"], mc[k], mc[k] / mc["plain"]
	}' | sort
