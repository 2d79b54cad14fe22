#!/bin/bash
# FIFO pass (2026-11-27 session 3): fifo and both (tokens + fifo), shallow reproductions, seeds 1-20.
S=/work/main/docs/bench/nativeshallow.sh
for t in FuzzRecord FuzzOptions FuzzLookup FuzzMode FuzzQuery FuzzVersion FuzzConfig; do
  for l in fifo both; do bash $S /work/eval/trim gfz $l $t 20 300000; done
done
