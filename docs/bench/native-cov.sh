#!/bin/bash
# Native targets: gfz vs go test -fuzz side by side (both at once, 1 worker each), then coverage by replay.
set -u
E=/work/eval/native; T=${T:-60}
stmts() { awk 'NR>1{split($0,a," "); k=a[1]; n=a[2]; c=a[3]; if(!(k in N)){N[k]=n}; if(c>0)C[k]=1} END{s=0;for(k in C)s+=N[k]; t=0; for(k in N)t+=N[k]; print s"/"t}' "$1"; }
replay() { # dir target corpusdir out
  local d=$1 t=$2 c=$3 out=$4 cp=$(mktemp -d)
  cp -r $E/$d/. $cp/; rm -rf $cp/testdata/fuzz/$t; mkdir -p $cp/testdata/fuzz/$t; cp $c/* $cp/testdata/fuzz/$t/ 2>/dev/null
  (cd $cp && timeout 600 $E/bin/$d.cov.test -test.run="^$t\$" -test.coverprofile=$out >/dev/null 2>&1)
  echo "$(ls $c | wc -l) files, stmts $(stmts $out)"; rm -rf $cp
}
for rep in 1 2; do
for dt in "uuid FuzzParse" "btoml FuzzDecode" "gotoml2 FuzzUnmarshal"; do
  set -- $dt; d=$1; t=$2; W=$E/runs/$d-$rep; rm -rf $W; mkdir -p $W
  (cd $E/$d && $E/bin/$d.gfz -time ${T}s -workers 1 -seed $rep -workdir $W/gfz -shrinktime 0 $t > $W/gfz.log 2>&1) &
  (cd $E/$d && $E/bin/$d.test -test.run='^$' -test.fuzz="^$t\$" -test.fuzztime=${T}s -test.parallel=1 -test.fuzzcachedir=$W/ncache > $W/native.log 2>&1) &
  wait
  g=$(grep -o 'execs [0-9]*' $W/gfz.log | tail -1); n=$(grep -o 'execs: [0-9]*' $W/native.log | tail -1)
  echo "$d $t rep $rep: gfz $g | native $n"
  echo "  gfz replay:    $(replay $d $t $W/gfz/corpus $W/gfz.prof)"
  echo "  native replay: $(replay $d $t $W/ncache/$t $W/native.prof)"
done; done
