#!/usr/bin/env bash
# auto-bugs-combine.sh: the combined tables of docs/BENCHMARKS.md, "Charging by cost, and the tuning
# bugs again (2026-11-27b)", from the runs of docs/bench/auto-2026-11-27b/bugs.tsv and rows copied
# from docs/bench/auto-2026-11-27/bugs.tsv (see there). From the repository root.
set -euo pipefail
D=docs/bench/auto-2026-11-27b
O=docs/bench/auto-2026-11-27/bugs.tsv
bugs=" gjson-squash goldmark-list gotoml2-inline toml-hang gotoml2-datetime "
keep() { awk -F'\t' -v b="$bugs" 'index(b, " " $1 " ") && ($4 == 100000 || ($1 == "gotoml2-datetime" && $4 == 400000))' "$@"; }
# 1. this session's auto (e916f9d) and the four single engines; random's toml-hang seeds 2-5 from the earlier session
{ keep $D/bugs.tsv | awk -F'\t' '$2 != "auto-v1"'; keep $O | awk -F'\t' '$1 == "toml-hang" && $2 == "random" && $3 >= 2 && $3 <= 5'; } > $D/bugs-combined.tsv
# 2. before and after: auto against main's auto (auto-main, the earlier session's runs) and auto-v1
{ keep $D/bugs.tsv | awk -F'\t' '$2 == "auto"'; keep $O | awk -F'\t' -v OFS='\t' '$2 == "auto" { $2 = "auto-main"; print }'; } > $D/bugs-before-after.tsv
{ keep $D/bugs.tsv | awk -F'\t' '$2 == "auto" || $2 == "auto-v1"'; } > $D/bugs-v1.tsv
