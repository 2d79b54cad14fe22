#!/bin/bash
# Cost of comparison feedback per execution on native targets
# (docs/BENCHMARKS.md, "Comparison feedback on native targets").
#
#   cmp-native-cost.sh OUT ROUNDS SPEC
#
# SPEC has one line per target: "NAME DIR PLAIN CMP TARGET RUNS", where
# PLAIN is a fuzz binary built with gfz-build -cmp=false and CMP the same
# package built with comparison probes (gfz-build -cmp); the runs happen in
# DIR (the target's seeds). Every round runs, one after the other, four
# configurations of each target, one worker, -seed 1, -runs RUNS,
# -shrinktime 0 -timeout 0:
#   none   PLAIN                  no probes, no domain (the baseline)
#   dom    PLAIN -feedback cmp    the domain's per-execution work without
#                                 probes (reset and scan of the 4 KiB map);
#                                 the run is the baseline's, execution for
#                                 execution, since nothing ever scores
#   off    CMP                    probes compiled in but off (a load and a
#                                 branch per comparison); again the
#                                 baseline's run
#   on     CMP -feedback cmp      probes on, the domain, its inputs and
#                                 token children: a different run (what
#                                 it saves changes what it executes)
# and appends "NAME CONFIG ROUND CPU_S" to OUT/cost.tsv (CPU: user+sys of
# the process tree, /usr/bin/time). On a loaded machine CPU time is the
# figure to read. Rounds already in the file are skipped.
# cmp-native-cost-summary.py OUT/cost.tsv prints the medians and ratios.
set -u
OUT=$1 rounds=$2 spec=$3
mkdir -p "$OUT/tmp"
RES=$OUT/cost.tsv
touch "$RES"
for r in $(seq 1 "$rounds"); do
	while read -r name dir plain cmp target runs; do
		[ -z "$name" ] && continue
		case $name in "#"*) continue ;; esac
		for c in none dom off on; do
			grep -q "^$name	$c	$r	" "$RES" && continue
			case $c in
			none) bin=$plain fl=() ;;
			dom) bin=$plain fl=(-feedback cmp) ;;
			off) bin=$cmp fl=() ;;
			on) bin=$cmp fl=(-feedback cmp) ;;
			esac
			w=$OUT/tmp/w
			rm -rf "$w"
			cpu=$(cd "$dir" && SHALLOW_COUNT=/dev/null /usr/bin/time -f "CPU %U %S" "$bin" -workers 1 -seed 1 \
				-runs "$runs" -shrinktime 0 -timeout 0 -workdir "$w" "${fl[@]}" "$target" 2>&1 >/dev/null |
				awk '/^CPU / { print $2 + $3 }')
			printf '%s\t%s\t%s\t%s\n' "$name" "$c" "$r" "${cpu:-error}" >> "$RES"
		done
	done < "$spec"
done
rm -rf "$OUT/tmp/w"
