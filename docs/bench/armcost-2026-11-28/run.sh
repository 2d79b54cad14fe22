#!/usr/bin/env bash
# CPU seconds (user + system of the supervisor and its worker) of fixed
# executions, zest against auto restricted to one operator arm (with Zest's
# round robin for parents: GFZ_AUTO_ARMS=ARM,turns) and against auto whole,
# on the trivial target (3,000,000 executions) and json (100,000), seeds 1-3,
# one worker. Binaries as in docs/bench/auto-cpu.sh:
#   gfz-build -o trivial.gfz ./testdata/bench/trivial
#   gfz-build -cover encoding/json -o json.gfz ./testdata/targets/jsonorder
# Usage: run.sh BIN_DIR > cpu.txt   (lines: target config seed user sys)
cd "$1" || exit 2
for i in 1 2 3; do for t in trivial json; do
	runs=3000000; [ $t = json ] && runs=100000
	for a in ENGINE_zest zest,turns bytes,turns ei,turns struct,turns value,turns zeugma,turns random,turns fairfuzz,turns zest,turns,fast zest,turns,rare ALL; do
		rm -rf wd
		case $a in ENGINE_zest) e=zest arms= ;; ALL) e=auto arms= ;; *) e=auto arms=$a ;; esac
		GFZ_AUTO_ARMS=$arms /usr/bin/time -f "$t $a $i %U %S" ./$t.gfz -engine $e -workers 1 -seed $i -runs $runs -shrinkruns 0 -workdir wd 2>&1 >/dev/null | tail -1
	done
done; done
