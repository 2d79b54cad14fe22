#!/bin/bash
# Held-out native evaluation (issue 27 item 5), resumable: rerun this script.
# gfz at commit 69fb8ec (args + cmp + format mix); native rows of rep 1
# copied from /work/eval/heldout/native.jsonl (go test -fuzz does not depend on gfz's version).
cd "$(dirname "$0")/../.." && exec go run ./cmd/gfz-bench -bugs testdata/bugs -bug blackfriday-linkref -bug blackfriday-listitem -bug dnsmsg-svcb -bug expr-nilcall -bug gomarkdown-citation -bug gomarkdown-deflist -bug goyaml-flowmap -bug goyaml-mapvalue -bug hcl1-decodemap -bug hcl2-nullexpand -bug html-fragloop -bug html-isindex -bug html-nodestack -bug html-selectloop -bug html-templatens -bug tiff-palette -bug xtext-resizerange -bug yaml2-simplekey -bug yaml3-stemcomment -bug yaml3-unknownevent -contenders gfz-native,native -reps 10 -time 2m -results /work/eval/heldout2/results.jsonl -work /work/eval/heldout2/work -v
