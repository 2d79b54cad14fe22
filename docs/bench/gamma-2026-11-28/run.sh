#!/bin/bash
# The bandit's discount per find, 0.95 (today) against 0.99, on the tuning set (examples and realistic
# targets, fixed -runs: load-independent), auto only, seeds 1-10. Resumable.
cd /work/main
for v in 95 99; do
  ENGINES=auto SEEDS="$(seq 1 10)" bash docs/bench/auto-eval.sh /work/eval/gamma/b$v /work/eval/gamma/r$v.tsv
done
