#!/usr/bin/env bash
# auto-cpu.sh: CPU time per execution of two engines of one tree on the
# trivial and json targets (docs/BENCHMARKS.md, "The adaptive engine"):
# builds testdata/bench/trivial and testdata/targets/jsonorder (encoding/json
# instrumented), then runs each binary for a fixed number of executions with
# one worker, alternating the engines, seeds 1..PAIRS, and reports the CPU
# time (user + system of the supervisor and its worker) per run, the
# medians and the ratio B/A. CPU time for fixed work depends much less on
# the machine's load than executions per second do.
#
# Usage: docs/bench/auto-cpu.sh [A [B [PAIRS]]]   (default zest auto 5), from the repository root.
# TRIVIAL_RUNS (3000000) and JSON_RUNS (100000) set the work; GFZ_AUTO_ARMS is passed through.
set -euo pipefail
a=${1:-zest}; b=${2:-auto}; pairs=${3:-5}
tmp=$(mktemp -d /tmp/auto-cpu.XXXX)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gfz-build" ./cmd/gfz-build
"$tmp/gfz-build" -o "$tmp/trivial.gfz" ./testdata/bench/trivial >/dev/null
"$tmp/gfz-build" -cover encoding/json -o "$tmp/json.gfz" ./testdata/targets/jsonorder >/dev/null
for target in trivial json; do
	runs=${TRIVIAL_RUNS:-3000000}
	[ $target = json ] && runs=${JSON_RUNS:-100000}
	for i in $(seq "$pairs"); do
		for e in "$a" "$b"; do
			rm -rf "$tmp/wd"
			/usr/bin/time -f "$target $e %U %S" "$tmp/$target.gfz" -engine "$e" -workers 1 -seed "$i" -runs "$runs" \
				-shrinkruns 0 -workdir "$tmp/wd" 2>&1 >/dev/null | tail -1
		done
	done
done | tee "$tmp/cpu.txt"
awk -v a="$a" -v b="$b" '
{ cpu = $3 + $4; k = $1 " " $2; n[k]++; v[k, n[k]] = cpu }
function median(k,   m, i, j, t, x) {
	m = n[k]; for (i = 1; i <= m; i++) x[i] = v[k, i]
	for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
	return m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
}
END {
	for (t = 0; t < 2; t++) {
		tg = t ? "json" : "trivial"
		printf "%s: CPU median %s %.3f s, %s %.3f s, %s/%s %.3f; per pair:", tg, a, median(tg " " a), b, median(tg " " b), b, a, median(tg " " b) / median(tg " " a)
		for (i = 1; i <= n[tg " " a]; i++) printf " %.2f", v[tg " " b, i] / v[tg " " a, i]
		printf "\n"
	}
}' "$tmp/cpu.txt"
