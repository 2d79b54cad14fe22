#!/bin/bash
# Issue 26 item 4 screen, stage 2 (2026-11-27): every other engine on the bugs zest missed in stage 1
# (one run of 1 minute each; gfz at 4fa747c). Resumable: rerun this script.
cd /work/eval/screen/src && exec taskset -c 0 /work/eval/screen/gfz-bench -bugs testdata/bugs \
  -bug html-fragloop -bug html-selectloop -bug yaml3-unknownevent -bug gomarkdown-deflist -bug tiff-palette \
  -bug toml-escapes -bug toml-lexvalue \
  -contenders gfz-bytes,gfz-ei,gfz-zeugma,gfz-bediv,gfz-random,gfz-auto,gfz-fairfuzz -reps 1 -time 1m \
  -results /work/eval/screen/stage2.jsonl -work /work/eval/screen/work -v
