#!/usr/bin/env bash
# cpupairs.sh: CPU time of two gfz trees on the same fixed work, measured
# side by side. Builds testdata/bench/trivial and testdata/targets/jsonorder
# (with encoding/json instrumented) with each tree's gfz-build, then runs
# each binary for a fixed number of executions with one worker and the same
# seed, alternating A, B, A, B..., and reports the CPU time (user + system of
# the supervisor and its worker) per run, the medians and the paired ratios
# B/A. Same seed and executions mean the same inputs (samecorpus.sh), so the
# CPU time compares the code, and alternating spreads the machine's noise.
#
# Usage: cmd/internal/build/bench/cpupairs.sh TREE_A TREE_B [pairs]   (default 8)
# TRIVIAL_RUNS (3000000) and JSON_RUNS (100000) set the work.
set -euo pipefail
a=$1; b=$2; pairs=${3:-8}
tmp=$(mktemp -d /tmp/cpupairs.XXXX)
for v in a b; do
	tree=$a
	[ $v = b ] && tree=$b
	(cd "$tree" && go build -o "$tmp/$v-build" ./cmd/gfz-build)
	(cd "$tree" && "$tmp/$v-build" -o "$tmp/$v-trivial.gfz" ./testdata/bench/trivial >/dev/null)
	(cd "$tree" && "$tmp/$v-build" -cover encoding/json -o "$tmp/$v-json.gfz" ./testdata/targets/jsonorder >/dev/null)
done
for target in trivial json; do
	runs=${TRIVIAL_RUNS:-3000000}
	[ $target = json ] && runs=${JSON_RUNS:-100000}
	for i in $(seq "$pairs"); do
		for v in a b; do
			rm -rf "$tmp/wd"
			/usr/bin/time -f "$target $v %U %S" "$tmp/$v-$target.gfz" -workers 1 -seed "$i" -runs "$runs" -shrinkruns 0 -workdir "$tmp/wd" 2>&1 >/dev/null | tail -1
		done
	done
done | tee "$tmp/cpu.txt"
awk '
{ cpu = $3 + $4; k = $1 " " $2; n[k]++; v[k, n[k]] = cpu }
function median(k,   m, i, j, t, a) {
	m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
	for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
END {
	for (t = 0; t < 2; t++) {
		tg = t ? "json" : "trivial"
		printf "%s: CPU median A %.3f s, B %.3f s, B/A %.3f; paired B/A:", tg, median(tg " a"), median(tg " b"), median(tg " b") / median(tg " a")
		for (i = 1; i <= n[tg " a"]; i++) printf " %.2f", v[tg " b", i] / v[tg " a", i]
		printf "\n"
	}
}' "$tmp/cpu.txt"
rm -rf "$tmp"
