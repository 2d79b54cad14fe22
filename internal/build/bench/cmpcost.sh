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
# Runs are interleaved so machine noise hits all alike; prints the median
# ns/op of each and the ratio to plain.
#
# Usage: internal/build/bench/cmpcost.sh [rounds]   (default 3; run from the repo root)
set -eu
rounds=${1:-3}
root=$(pwd)
mod=$root/testdata/instrument/bench
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cover=go/types,go/parser,go/scanner,go/ast,go/token,go/constant,go/importer,go/build
go run ./internal/build/bench/prepare -C "$mod" -cover "$cover" . > "$out/flags"
go run ./internal/build/bench/prepare -C "$mod" -cmp -cover "$cover" . > "$out/cflags"
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
		"$out/$v.test" -test.run '^$' -test.bench Typecheck -test.benchtime 3x |
			awk -v v="$v" '/^BenchmarkTypecheck/ { print v, $3 }'
	done
done | awk '
	{ n[$1]++; v[$1, n[$1]] = $2 }
	END {
		for (k in n) {
			m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
			for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			med[k] = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		}
		printf "%-7s %14s %8s\n", "build", "median ns/op", "ratio"
		for (k in med) printf "%-7s %14.0f %8.3f\n", k, med[k], med[k] / med["plain"]
	}' | sort
