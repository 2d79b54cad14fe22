#!/bin/bash
# share (fresh first, the pass a turn every argsNewShare executions), shallow reproductions, seeds 1-20.
S=/work/main/docs/bench/nativeshallow.sh
for t in FuzzRecord FuzzOptions FuzzLookup FuzzMode FuzzQuery FuzzVersion FuzzConfig; do
  bash $S /work/eval/trim gfz share $t 20 300000
done
