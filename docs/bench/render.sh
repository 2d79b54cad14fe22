#!/usr/bin/env bash
# render.sh: the rendered reports of the evaluations evals.sh runs, from the
# results committed beside this script (run from anywhere; it uses the
# checkout it lives in):
#   hard-2026-11-27.md           the hard bugs as first run: auto (before the
#                                fixes of 2026-11-28), zest, bytes, fairfuzz
#   hard-2026-11-28.md           the second round: auto at ccb0578 (complete)
#                                and the other engines at ccb0578 (stopped)
#   hard-all-2026-11-28.md       every engine and auto at EVAL_COMMIT
#   easy-2026-11-28.md           the other 20 bugs, every engine and auto
#   targets-2026-11-28.md        the template targets' coverage, every engine
#   rank-hard-2026-11-28.md      the ranking over the hard bugs alone
#   rank-bugs-2026-11-28.md      the ranking over every bug (hard and easy)
#   rank-2026-11-28.md           one ranking over the hard and easy bugs and
#                                the targets (every engine and auto at
#                                EVAL_COMMIT)
#   growth-2026-11-28/table.md   the template targets' growth over 35 minutes
#   tuning-native-2026-11-28.md  the tuning bugs' native targets, gfz-native
#                                against go test -fuzz
#   native-cover-2026-11-27b/table.md  the native coverage table
#   bugs-gen-2026-11-29.md, targets-gen-2026-11-29.md  auto with the
#                                generation share (evals.sh gen0, gen1)
#   rank-gen-2026-11-29.md       it ranked with the f559d08 round's other
#                                engines, and checked as the default
#   rank-gen-both-2026-11-29.md  the same with f559d08's auto beside it
#   heldout3-2026-11-29.md, rank-heldout3-2026-11-29.md  the third
#                                held-out set, every engine and auto
#   rank-all-2026-11-29.md       the 35 benchmarks together, the best
#                                checked against zest (the default's rule)
#   heldout4-2026-11-29.md, rank-heldout4-2026-11-29.md  the fourth
#                                held-out set, every engine and auto with
#                                generation first, auto checked against random
#   rank-all40-2026-11-29.md     the 40 benchmarks with auto as changed,
#                                the best checked against random
#   heldout5-2026-11-29.md, rank-heldout5-{auto,zest,zeugma}-2026-11-29.md
#                                the fifth held-out set's round, each
#                                candidate checked against random
#   heldout6-2026-11-29.md, rank-heldout6-2026-11-29.md
#                                the sixth held-out set's round, auto by
#                                cost checked against random
#   heldout7-2026-11-29.md, rank-heldout7-2026-11-29.md
#                                the seventh held-out set's round, auto
#                                with the counting paused against random
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"
bench=$(mktemp -d)
trap 'rm -rf "$bench"' EXIT
(cd cmd && go build -o "$bench/gfz-bench" ./gfz-bench)

# join FILE...: the existing files among FILE..., comma-separated.
join() {
	local f out=
	for f in "$@"; do [ -s "$f" ] && out=${out:+$out,}$f; done
	echo "$out"
}

# The hard bugs as first run (auto before the fixes of 2026-11-28 among
# them, zest, bytes, fairfuzz at 5d0717f), then every engine with auto as
# fixed, all at auto's commit: hard-auto-* and hard-engines-*.
"$bench/gfz-bench" -bug-report "$here/hard-2026-11-27.jsonl" -o "$here/hard-2026-11-27.md"
hard=$(join "$here"/hard-auto-2026-11-28*.jsonl "$here"/hard-engines-2026-11-28*.jsonl)
"$bench/gfz-bench" -bug-report "$hard" -o "$here/hard-2026-11-28.md"
all=$(join "$here"/hard-all-2026-11-28*.jsonl)
[ -n "$all" ] && "$bench/gfz-bench" -bug-report "$all" -o "$here/hard-all-2026-11-28.md"
easy=$(join "$here"/easy-2026-11-28*.jsonl)
[ -n "$easy" ] && "$bench/gfz-bench" -bug-report "$easy" -o "$here/easy-2026-11-28.md"
targets=$(join "$here"/targets-2026-11-28*.jsonl)
[ -n "$targets" ] && "$bench/gfz-bench" -target-report "$targets" -o "$here/targets-2026-11-28.md"
# The hard bugs alone (every contender, 10 runs each: goal 2 of issue 26
# is decided on them).
[ -n "$all" ] && "$bench/gfz-bench" -rank "$all" -check gfz-auto,gfz-zest -o "$here/rank-hard-2026-11-28.md"
# Every bug, hard and easy (complete before the targets).
bugsall=$(join "$here"/hard-all-2026-11-28*.jsonl "$here"/easy-2026-11-28*.jsonl)
[ -n "$bugsall" ] && "$bench/gfz-bench" -rank "$bugsall" -check gfz-auto,gfz-zest -o "$here/rank-bugs-2026-11-28.md"
rank=$(join "$here"/hard-all-2026-11-28*.jsonl "$here"/easy-2026-11-28*.jsonl "$here"/targets-2026-11-28*.jsonl)
[ -n "$rank" ] && "$bench/gfz-bench" -rank "$rank" -check gfz-auto,gfz-zest -o "$here/rank-2026-11-28.md"
if ls "$here"/growth-2026-11-28/*.plot_data >/dev/null 2>&1; then
	python3 "$here/growth-table.py" "$here/growth-2026-11-28" >"$here/growth-2026-11-28/table.md"
fi
tuning=$(join "$here"/tuning-native-2026-11-28*.jsonl)
[ -n "$tuning" ] && "$bench/gfz-bench" -bug-report "$tuning" -o "$here/tuning-native-2026-11-28.md"

# The generation share's round (2026-11-29): auto at GEN_COMMIT alone
# (*-gen-2026-11-29*.jsonl), its own reports, then ranked with the other
# engines' runs of the f559d08 round: without f559d08's auto (the decision
# rule's ranking, rank-gen-2026-11-29.md) and with it, as gfz-auto-f559d08
# (rank-gen-both-2026-11-29.md).
genbugs=$(join "$here"/hard-gen-2026-11-29*.jsonl "$here"/easy-gen-2026-11-29*.jsonl)
[ -n "$genbugs" ] && "$bench/gfz-bench" -bug-report "$genbugs" -o "$here/bugs-gen-2026-11-29.md"
gentargets=$(join "$here"/targets-gen-2026-11-29*.jsonl)
[ -n "$gentargets" ] && "$bench/gfz-bench" -target-report "$gentargets" -o "$here/targets-gen-2026-11-29.md"
if [ -n "$genbugs" ]; then
	others=() both=()
	for f in "$here"/hard-all-2026-11-28*.jsonl "$here"/easy-2026-11-28*.jsonl "$here"/targets-2026-11-28*.jsonl; do
		[ -s "$f" ] || continue
		grep -v '"Contender":"gfz-auto"' "$f" >"$bench/others-$(basename "$f")" || true
		sed 's/"Contender":"gfz-auto"/"Contender":"gfz-auto-f559d08"/' "$f" >"$bench/both-$(basename "$f")"
		others+=("$bench/others-$(basename "$f")") both+=("$bench/both-$(basename "$f")")
	done
	gen=$(join "$here"/*-gen-2026-11-29*.jsonl)
	"$bench/gfz-bench" -rank "$(join "${others[@]}"),$gen" -check gfz-auto,gfz-zest -o "$here/rank-gen-2026-11-29.md"
	"$bench/gfz-bench" -rank "$(join "${both[@]}"),$gen" -o "$here/rank-gen-both-2026-11-29.md"
fi

# The third held-out set (evals.sh h30, h31): every engine and auto, apart.
h3=$(join "$here"/heldout3-2026-11-29*.jsonl)
if [ -n "$h3" ]; then
	"$bench/gfz-bench" -bug-report "$h3" -o "$here/heldout3-2026-11-29.md"
	"$bench/gfz-bench" -rank "$h3" -check gfz-auto,gfz-zest -o "$here/rank-heldout3-2026-11-29.md"
	# The rule for the default after it (BENCHMARKS.md, "The default after
	# the third held-out set"): the 35 benchmarks ranked together, and the
	# best-ranked contender checked against zest.
	if [ -n "$genbugs" ]; then
		all35="$(join "${others[@]}"),$(join "$here"/*-gen-2026-11-29*.jsonl),$h3"
		"$bench/gfz-bench" -rank "$all35" -o "$here/rank-all-2026-11-29.md"
		best=$(awk -F'|' '/^\| gfz-/ {gsub(/ /, "", $2); print $2; exit}' "$here/rank-all-2026-11-29.md")
		if [ -n "$best" ] && [ "$best" != gfz-zest ]; then
			"$bench/gfz-bench" -rank "$all35" -check "$best,gfz-zest" -o "$here/rank-all-2026-11-29.md"
		fi
	fi
fi

# The fourth held-out set (evals.sh h42: the single engines at H4_COMMIT;
# h43: auto with generation first at its commit), apart, auto checked as
# the default against random (the rule: BENCHMARKS.md, "The fourth
# held-out set and the next default"); then, once auto with generation
# first has run the 35 other benchmarks (evals.sh first0, first1), the 40
# ranked together with it as the only auto, the best checked against random.
h4=$(join "$here"/heldout4-c.jsonl "$here"/heldout4-d.jsonl)
if [ -n "$h4" ]; then
	"$bench/gfz-bench" -bug-report "$h4" -o "$here/heldout4-2026-11-29.md"
	"$bench/gfz-bench" -rank "$h4" -check gfz-auto,gfz-random -o "$here/rank-heldout4-2026-11-29.md"
	first=$(join "$here"/*-first-2026-11-29*.jsonl)
	if [ -n "$first" ] && [ -n "$genbugs" ]; then
		grep -hv '"Contender":"gfz-auto"' "$here"/heldout3-2026-11-29a.jsonl "$here"/heldout3-2026-11-29b.jsonl \
			"$here"/heldout3-2026-11-29c.jsonl >"$bench/h3-others.jsonl" || true
		all40="$(join "${others[@]}"),$bench/h3-others.jsonl,$first,$h4"
		"$bench/gfz-bench" -rank "$all40" -o "$here/rank-all40-2026-11-29.md"
		best=$(awk -F'|' '/^\| gfz-/ {gsub(/ /, "", $2); print $2; exit}' "$here/rank-all40-2026-11-29.md")
		if [ -n "$best" ] && [ "$best" != gfz-random ]; then
			"$bench/gfz-bench" -rank "$all40" -check "$best,gfz-random" -o "$here/rank-all40-2026-11-29.md"
		fi
	fi
fi

# The fifth held-out set, one interleaved round (BENCHMARKS.md, "The fifth
# held-out set: one round, paired"): the ranking with each candidate checked
# against random, the default (its rule's conditions, and the comparison by
# executions paired by seed).
h5=$(join "$here"/heldout5-2026-11-29*.jsonl)
if [ -n "$h5" ]; then
	"$bench/gfz-bench" -bug-report "$h5" -o "$here/heldout5-2026-11-29.md"
	for c in auto zest zeugma; do
		"$bench/gfz-bench" -rank "$h5" -check "gfz-$c,gfz-random" -o "$here/rank-heldout5-$c-2026-11-29.md"
	done
fi

# The sixth held-out set's round: auto by cost against random.
h6=$(join "$here"/heldout6-2026-11-29*.jsonl)
if [ -n "$h6" ]; then
	"$bench/gfz-bench" -bug-report "$h6" -o "$here/heldout6-2026-11-29.md"
	"$bench/gfz-bench" -rank "$h6" -check "gfz-auto,gfz-random" -o "$here/rank-heldout6-2026-11-29.md"
fi

# The seventh held-out set's round: auto with the counting paused against
# random.
h7=$(join "$here"/heldout7-2026-11-29*.jsonl)
if [ -n "$h7" ]; then
	"$bench/gfz-bench" -bug-report "$h7" -o "$here/heldout7-2026-11-29.md"
	"$bench/gfz-bench" -rank "$h7" -check "gfz-auto,gfz-random" -o "$here/rank-heldout7-2026-11-29.md"
fi

# Auto by cost on four seen hard bugs, then with the counting paused; then
# with its records deferred on the seventh set's found bugs (seen7).
for f in seen6 pause6 seen7; do
	r=$(join "$here"/$f-2026-11-29*.jsonl)
	if [ -n "$r" ]; then
		"$bench/gfz-bench" -rank "$r" -check "gfz-auto,gfz-random" -o "$here/rank-$f-2026-11-29.md"
	fi
done

# cover.sh -table reads OUT/results/*.tsv.
out=$(mktemp -d)
ln -s "$here/native-cover-2026-11-27b" "$out/results"
cmd/internal/realmods/cover.sh -out "$out" -table >/dev/null
cp "$out/table.md" "$here/native-cover-2026-11-27b/table.md"
rm -rf "$out"
echo "rendered: $(ls -1 "$here"/hard-2026-11-2[78].md "$here"/hard-all-2026-11-28.md "$here"/easy-2026-11-28.md "$here"/targets-2026-11-28.md "$here"/rank-2026-11-28.md "$here"/tuning-native-2026-11-28.md "$here"/native-cover-2026-11-27b/table.md 2>/dev/null | tr '\n' ' ')"
