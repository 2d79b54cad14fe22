#!/bin/bash
# held.sh NAME SITE: execs to the bug (worker execution of the first failure whose report names SITE),
# seeds 1-10, old vs tok; a run stops once the bug is saved.
name=$1 site=$2
R=/work/eval/trim/held.tsv
mkdir -p /work/eval/trim/tmp
for s in $(seq 1 10); do for l in $LABELS; do
  grep -q "^$name	$l	$s	" $R 2>/dev/null && continue
  d=/work/eval/trim/tmp/$name-$l-$s; rm -rf $d
  /work/eval/trim/bin/$name-$l.gfz -workers 1 -seed $s -runs 300000 -workdir $d -shrinktime 0 FuzzNative > $d.log 2>&1 &
  pid=$!
  while kill -0 $pid 2>/dev/null; do
    grep -lq "$site" $d/failures/*.txt 2>/dev/null && { sleep 0.5; kill -INT $pid; sleep 2; kill -KILL $pid 2>/dev/null; break; }
    sleep 0.2
  done
  wait $pid 2>/dev/null
  r=miss
  for f in $d/failures/*.txt; do grep -q "$site" $f 2>/dev/null && { e=$(grep -m1 'found by' $f | grep -oE '[0-9]+$'); [ "$r" = miss ] || [ "$e" -lt "$r" ] && r=$e; }; done
  printf '%s\t%s\t%s\t%s\n' $name $l $s $r >> $R
  rm -rf $d
done; done
