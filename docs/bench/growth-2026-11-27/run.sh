#!/bin/bash
# 35-minute runs of the template targets, one worker each, one after the other (issue 26 item 4:
# realistic targets whose coverage still grows after 30 minutes). CPU time from /usr/bin/time.
cd /work/eval/growth
for t in FuzzHTMLTemplate FuzzTemplate; do
  [ -f $t.done ] && continue
  rm -rf w-$t
  /usr/bin/time -o $t.time -f '%U %S %e' nice -n 5 ./tmpl.gfz -time 35m -workers 1 -seed 1 -workdir w-$t $t > $t.log 2>&1
  touch $t.done
done
