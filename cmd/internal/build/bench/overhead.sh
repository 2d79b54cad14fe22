#!/bin/sh
# overhead.sh: instrumentation overhead of gfz probes vs no instrumentation
# vs Go's native libFuzzer instrumentation (-gcflags=all=-d=libfuzzer), on
# the same workload: go/parser + go/types over ~190 files of 34 GOROOT/src
# packages plus their dependencies, type-checked from source
# (testdata/instrument/bench).
#
# gfz instruments the workload module and the std packages doing the work
# (go/types, go/parser, go/scanner, go/ast, go/token, go/constant,
# go/importer, go/internal/srcimporter, go/build); native instruments
# everything (all=). Runs are interleaved (plain, native, gfz, plain, ...)
# so that machine noise hits all three alike.
#
# Usage: cmd/internal/build/bench/overhead.sh [rounds]   (default 5; run from the repo root)
# MAPBITS=n overrides the map size chosen from the probe count.
set -eu
rounds=${1:-5}
root=$(pwd)
mod=$root/testdata/instrument/bench
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cover=go/types,go/parser,go/scanner,go/ast,go/token,go/constant,go/importer,go/build
go run ./cmd/internal/build/bench/prepare -C "$mod" -mapbits "${MAPBITS:-0}" -cover "$cover" . > "$out/flags"
work=$(head -1 "$out/flags")
flags=$(tail -n +2 "$out/flags" | tr '\n' ' ')
cd "$mod"
go test -c -o "$out/plain.test" .
go test -c -gcflags=all=-d=libfuzzer -o "$out/native.test" .
# shellcheck disable=SC2086
go test -c $flags -o "$out/gfz.test" .
rm -rf "$work"

for i in $(seq "$rounds"); do
	for v in plain native gfz; do
		"$out/$v.test" -test.run '^$' -test.bench Typecheck -test.benchtime 3x |
			awk -v v="$v" '/^BenchmarkTypecheck/ { print v, $3 }'
	done
done | awk '
	{ n[$1]++; s[$1] += $2; v[$1, n[$1]] = $2 }
	END {
		for (k in n) {
			# median
			m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
			for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			med[k] = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		}
		printf "%-7s %14s %8s\n", "build", "median ns/op", "ratio"
		for (k in med) printf "%-7s %14.0f %8.3f\n", k, med[k], med[k] / med["plain"]
	}' | sort
