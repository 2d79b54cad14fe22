#!/bin/bash
cd /work/main/internal/native/testdata/shallow
for t in FuzzRecord FuzzLookup FuzzOptions FuzzMode FuzzVersion FuzzQuery FuzzConfig; do
  for s in 1 2 3 4 5 6 7 8 9 10; do
    for l in old new; do
      bash /work/main/docs/bench/nativeshallow.sh /tmp/tok/out gfz $l $t $s 300000 >/dev/null 2>&1
    done
  done
done
echo done > /tmp/tok/DONE
