#!/bin/bash
# Issue 26 item 4 screen, stage 1 (2026-11-27): zest on every held-out FuzzGfz bug and the two hard tuning
# bugs, one run of 1 minute each (gfz at 4fa747c). Stage 2 runs the other engines on the bugs zest missed.
# Resumable: rerun this script.
cd /work/eval/screen/src && exec taskset -c 0 /work/eval/screen/gfz-bench -bugs testdata/bugs \
  -bug html-isindex -bug html-templatens -bug html-nodestack -bug html-fragloop -bug html-selectloop \
  -bug yaml3-unknownevent -bug yaml3-stemcomment -bug blackfriday-listitem -bug blackfriday-linkref \
  -bug gomarkdown-citation -bug gomarkdown-deflist -bug xtext-resizerange -bug yaml2-simplekey \
  -bug goyaml-flowmap -bug goyaml-mapvalue -bug hcl2-nullexpand -bug expr-nilcall -bug dnsmsg-svcb \
  -bug hcl1-decodemap -bug tiff-palette -bug toml-escapes -bug toml-lexvalue \
  -contenders gfz-zest -reps 1 -time 1m -results /work/eval/screen/stage1.jsonl -work /work/eval/screen/work -v
