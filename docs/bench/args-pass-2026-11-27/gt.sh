#!/bin/bash
# The tuning set's real bug, gotoml2-datetime (counting copy), seeds 1-10, old vs fifo vs share.
S=/work/main/docs/bench/nativeshallow.sh
for l in old fifo share; do MOD=/work/main/internal/native/testdata/gotoml2count bash $S /work/eval/trim/gt gfz $l FuzzNative 10 200000 -rss_limit_mb 512; done
