#!/usr/bin/env bash
# cpu.sh: CPU time per execution of the recording engines before and after
# the call tree from the stack (docs/BENCHMARKS.md, "Call tree from the
# call stack"): runs two fuzz binaries of one target (BEFORE and AFTER)
# for a fixed number of executions with one worker, alternating them,
# engines ENGINES, REPS repetitions each with seeds 1..REPS, and prints the
# CPU time (user + system of the fuzz binary and its worker) of each run,
# then per engine the medians and the ratio after/before. CPU time for
# fixed work depends much less on the machine's load than executions per
# second do.
#
# Usage: cpu.sh NAME BEFORE AFTER TARGET RUNS [FLAGS...]
# ENGINES (default "zest ei zeugma bediv") and REPS (5) select the runs.
set -euo pipefail
name=$1 before=$2 after=$3 target=$4 runs=$5
shift 5
engines=${ENGINES:-zest ei zeugma bediv}
reps=${REPS:-5}
tmp=$(mktemp -d /tmp/calltree-cpu.XXXX)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$reps"); do
	for e in $engines; do
		for b in before after; do
			bin=$before
			[ $b = after ] && bin=$after
			rm -rf "$tmp/wd"
			/usr/bin/time -f "$name $e $b $i %U %S" "$bin" -engine "$e" -workers 1 -seed "$i" -runs "$runs" \
				-shrinkruns 0 -workdir "$tmp/wd" "$@" "$target" 2>&1 >/dev/null | tail -1 || true
		done
	done
done | tee "$tmp/cpu.txt"
awk '
{ k = $1 " " $2; cpu = $5 + $6; n[k, $3]++; v[k, $3, n[k, $3]] = cpu; keys[k] = 1 }
function median(k, b,   m, i, j, t, x) {
	m = n[k, b]; for (i = 1; i <= m; i++) x[i] = v[k, b, i]
	for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
	return m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
}
END {
	for (k in keys) {
		a = median(k, "before"); b = median(k, "after")
		printf "%s: CPU median before %.3f s, after %.3f s, after/before %.3f; per pair:", k, a, b, b / a
		for (i = 1; i <= n[k, "before"]; i++) printf " %.2f", v[k, "after", i] / v[k, "before", i]
		printf "\n"
	}
}' "$tmp/cpu.txt"
