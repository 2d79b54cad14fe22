#!/bin/bash
# Token trimming (2026-11-27 session 3): old (main 99fc236) vs tok, shallow reproductions, seeds 1-20.
S=/work/main/docs/bench/nativeshallow.sh
for t in FuzzRecord FuzzOptions FuzzLookup FuzzMode FuzzQuery FuzzVersion FuzzConfig; do
  for l in old tok; do bash $S /work/eval/trim gfz $l $t 20 300000; done
done
