#!/usr/bin/env bash
# evals.sh: the long evaluations of issues 26 and 27, resumable across
# sessions. Every result is written into docs/bench/ of the checkout this
# script lives in (commit them as they come: a session's machine does not
# outlive it); scratch goes to $EV (default /work/eval). Each evaluation runs
# gfz at a fixed commit, checked out as a worktree under $WT (default
# /work/wt), so that its repetitions stay comparable while main moves on.
#
# Usage: docs/bench/evals.sh core0|core1|gen0|gen1|h30|h31|h32|h40|h41|h42|h43|first0|first1|first2|h50|h51|h52|h60|h61|h70|h71|seen6|seen6b|pause6a|pause6b|harna|harnb|seen7|capa|capb|capa1|capa2|long0|long1
#   gen0, gen1: the generation share's round (2026-11-29, below: auto at
#   GEN_COMMIT on every benchmark of the f559d08 round, the same budgets;
#   gen0 the 20 easy bugs, three hard bugs and both template targets, gen1
#   the four other hard bugs), results in *-gen-2026-11-29*.jsonl.
#   h42, h43: the fourth held-out set (2026-11-29, sixteenth session):
#   h42 the single engines at H4_COMMIT, h43 auto with generation first
#   at H4_AUTO_COMMIT, 5 reps of 3 minutes, heldout4-{c,d}.jsonl (the rule:
#   BENCHMARKS.md, "The fourth held-out set and the next default").
#   h50, h51: the fifth held-out set, one interleaved round (random, auto,
#   zest, zeugma at H5_COMMIT), heldout5-2026-11-29a.jsonl; h51 the bugs
#   added later, at H5B_COMMIT, heldout5-2026-11-29b.jsonl; h52 the last
#   one, at H5C_COMMIT, heldout5-2026-11-29c.jsonl.
#   h60, h61: the sixth held-out set, random against auto by cost, one
#   interleaved round (h60 the six bugs ready first at H6_COMMIT, h61 the
#   later ones at H6B_COMMIT), heldout6-2026-11-29{a,b}.jsonl.
#   first0, first1, first2: auto with generation first (FIRST_COMMIT) on
#   the 35 benchmarks of rank-all-2026-11-29.md, *-first-2026-11-29*.jsonl
#   (first2 the two template targets, first0 the bugs of that half).
#   h30, h31, h32: the third held-out set (six bugs added 2026-11-29), every
#   engine and auto at H3_COMMIT, 5 reps of 3 minutes (h30 the three fast
#   bugs, then h32 two of the slow ones on core 0; h31 the third slow one on
#   core 1), results in heldout3-2026-11-29{a,b,c}.jsonl.
#   The evaluation of issue 26 at EVAL_COMMIT (every engine and auto at one
#   commit, so that they compare under the same conditions; every engine:
#   zest, bytes, fairfuzz, random, ei, bediv, zeugma, not rl nor args, the
#   native targets' engine), split in two
#   halves, one a core:
#   (1) the hard bugs, all 8 contenders, 10 reps of 3 minutes:
#       hard-all-2026-11-28{a,b}.jsonl (core0: html-fragloop,
#       html-selectloop, yaml3-unknownevent, gomarkdown-deflist; core1:
#       tiff-palette, toml-escapes, toml-lexvalue);
#   (2) the 20 other bugs of the suite (the easy ones: found by zest within
#       a minute in the screen of 2026-11-27, or, five of them, tuning bugs
#       not in that screen), 5 reps of 1 minute,
#       easy-2026-11-28{a,b,c}.jsonl (c: half of core1's, run by core0);
#   (3) the template targets' coverage (core0 FuzzTemplate, core1
#       FuzzHTMLTemplate), 5 reps of 5 minutes, gfz-bench's target mode,
#       targets-2026-11-28{a,b,c,d}.jsonl (c: ei on FuzzHTMLTemplate, run
#       by core0; d: bediv and zeugma on it, after b on core1): the
#       coverage half of the ranking.
#   core0 first finishes the template targets' growth runs (35 minutes, at
#   5f1bc79, seeds 1 and 2, growth-2026-11-28/).
#   Earlier rounds, kept apart in the reports: the hard bugs' first round
#   (hard-2026-11-27.jsonl: auto before the fixes of 2026-11-28, zest,
#   bytes, fairfuzz at 5d0717f) and the second (auto at ccb0578,
#   hard-auto-2026-11-28{a,b}.jsonl, complete; the other engines at ccb0578,
#   hard-engines-2026-11-28b.jsonl, stopped after 3 reps when the supervisor's
#   hang signatures and worker restarts changed, which changes every
#   engine's runs on the hang bugs). Functions of the earlier evaluations
#   (cover, tuning, hardauto, engines) stay for reference.
# Run each pinned to its own core in its own session, e.g.
#   taskset -c 0 setsid nohup docs/bench/evals.sh core0 >>/work/eval/core0.log 2>&1 &
set -uo pipefail
EV=${EV:-/work/eval}
WT=${WT:-/work/wt}
mkdir -p "$EV" "$WT"
# bash reads a script as it runs it: run a private copy, so that editing or
# checking out this file does not change a running evaluation.
if [ -z "${EVALS_HERE:-}" ]; then
	EVALS_HERE=$(cd "$(dirname "$0")" && pwd)
	copy=$EV/evals.$$.sh
	cp "$0" "$copy" || exit 2
	EVALS_HERE=$EVALS_HERE exec bash "$copy" "$@"
fi
here=$EVALS_HERE
repo=$(cd "$here/../.." && pwd)

log() { printf '%s %s\n' "$(date -u +%FT%TZ)" "$*"; }

# worktree COMMIT: a detached checkout of COMMIT under $WT; prints its path.
worktree() {
	local d=$WT/$1
	[ -d "$d" ] || git -C "$repo" worktree add --detach "$d" "$1" >/dev/null 2>&1 || { log "cannot check out $1" >&2; return 1; }
	echo "$d"
}

cover() {
	local g
	g=$(worktree eea2f49) || return
	mkdir -p "$EV/cover2"
	# Results straight into the repository (cover.sh writes each atomically).
	[ -L "$EV/cover2/results" ] || { rm -rf "$EV/cover2/results"; ln -s "$here/native-cover-2026-11-27b" "$EV/cover2/results"; }
	"$repo/cmd/internal/realmods/cover.sh" -out "$EV/cover2" -time 600 -reps 2 -gfz "$g"
	"$repo/cmd/internal/realmods/cover.sh" -out "$EV/cover2" -reps 2 -table
	cp "$EV/cover2/table.md" "$here/native-cover-2026-11-27b/table.md"
}

# bugs COMMIT CONTENDERS TIME RESULTS BUG...: gfz-bench's bug mode at gfz
# COMMIT, REPS (default 10) repetitions of TIME per bug and contender, resumable from
# RESULTS (under docs/bench), scratch under $EV.
bugs() {
	local g commit=$1 contenders=$2 time=$3 results=$4 b args=()
	shift 4
	g=$(worktree "$commit") || return
	for b in "$@"; do args+=(-bug "$b"); done
	(cd "$g" && go run ./cmd/gfz-bench -bugs testdata/bugs "${args[@]}" \
		-contenders "$contenders" -reps "${REPS:-10}" -time "$time" \
		-results "$here/$results" -work "$EV/${results%.jsonl}/work" -v)
}

# tuning PART BUG...: the tuning bugs' native targets, split in two parts
# (one a core), each with its own results file.
tuning() {
	local part=$1
	shift
	bugs 5f1bc79 gfz-native,native 2m "tuning-native-2026-11-28$part.jsonl" "$@"
}

growth() {
	local g out=$here/growth-2026-11-28 W=$EV/growth2
	g=$(worktree 5f1bc79) || return
	mkdir -p "$out" "$W"
	if [ ! -x "$W/tmpl.gfz" ]; then
		(cd "$g" && go build -o "$W/gfz-build" ./cmd/gfz-build) || return
		(cd "$g" && "$W/gfz-build" -cover html/template,text/template,text/template/parse -o "$W/tmpl.gfz" ./testdata/targets/tmpl) || return
	fi
	local t s
	for s in 1 2; do
		for t in FuzzHTMLTemplate FuzzTemplate; do
			[ -f "$out/$t.$s.plot_data" ] && continue
			rm -rf "$W/w-$t-$s"
			(cd "$W" && /usr/bin/time -o "$W/$t.$s.time" -f '%U %S %e' ./tmpl.gfz -time 35m -workers 1 -seed $s -workdir "w-$t-$s" $t >"$t.$s.log" 2>&1)
			cp "$W/$t.$s.time" "$out/$t.$s.time"
			cp "$W/w-$t-$s/plot_data" "$out/$t.$s.plot_data.tmp" && mv "$out/$t.$s.plot_data.tmp" "$out/$t.$s.plot_data"
		done
	done
}

# hardauto PART BUG...: auto as fixed on 2026-11-28 (AUTO_COMMIT), the hard
# bugs, 10 reps of 3 minutes, split in two parts (one a core). The first
# 5-6 repetitions of hard-2026-11-27.jsonl ran auto before those fixes;
# render.sh reports them apart.
AUTO_COMMIT=${AUTO_COMMIT:-ccb0578}
hardauto() {
	local part=$1
	shift
	bugs "$AUTO_COMMIT" gfz-auto 3m "hard-auto-2026-11-28$part.jsonl" "$@"
}

# engines PART BUG...: the hard bugs with every engine but auto (issue 26
# item 4 asks for every engine) at AUTO_COMMIT, the settings of hardauto,
# split in two parts (one a core), each with its own results file.
engines() {
	local part=$1
	shift
	bugs "$AUTO_COMMIT" gfz-zest,gfz-bytes,gfz-fairfuzz,gfz-random,gfz-ei,gfz-bediv,gfz-zeugma 3m \
		"hard-engines-2026-11-28$part.jsonl" "$@"
}

# easy PART BUG...: the bugs outside the hard set, every engine and auto at
# EVAL_COMMIT, 5 reps of 1 minute (zest found each within 36 s in the
# screen; most runs end within seconds, at the bug): 800 runs in all.
easy() {
	local part=$1
	shift
	REPS=5 bugs "$EVAL_COMMIT" "$ALL" 1m "easy-2026-11-28$part.jsonl" "$@"
}

# targets PART SPEC: a target's coverage with every engine and auto at
# EVAL_COMMIT, 5 reps of 5 minutes, by gfz-bench's target mode.
EVAL_COMMIT=${EVAL_COMMIT:-f559d08}
ALL=gfz-auto,gfz-zest,gfz-bytes,gfz-fairfuzz,gfz-random,gfz-ei,gfz-bediv,gfz-zeugma
# FuzzHTMLTemplate's contenders, split between the cores.
ALL_B=gfz-auto,gfz-zest,gfz-bytes,gfz-fairfuzz,gfz-random
ALL_C=gfz-ei
ALL_D=gfz-bediv,gfz-zeugma
targets() {
	local part=$1 spec=$2 contenders=${3:-$ALL} g
	g=$(worktree "$EVAL_COMMIT") || return
	(cd "$g" && go run ./cmd/gfz-bench -target "$spec" -contenders "$contenders" \
		-reps 5 -time 5m -results "$here/targets-2026-11-28$part.jsonl" -work "$EV/targets$part/work" -v)
}

# hardall PART BUG...: the hard bugs, every contender at EVAL_COMMIT, 10
# reps of 3 minutes.
hardall() {
	local part=$1
	shift
	bugs "$EVAL_COMMIT" "$ALL" 3m "hard-all-2026-11-28$part.jsonl" "$@"
}

# The generation share's round (2026-11-29): auto with half of its children
# fresh random generation (GEN_COMMIT), the only contender; the other
# engines' runs are those of the f559d08 round, at the same budgets
# (render.sh ranks them together, without f559d08's auto).
GEN_COMMIT=${GEN_COMMIT:-1985832}
EASY_BUGS="goldmark-list gotoml2-datetime toml-hang gotoml2-inline gjson-squash html-isindex html-templatens
	html-nodestack yaml3-stemcomment blackfriday-listitem goyaml-mapvalue hcl2-nullexpand expr-nilcall dnsmsg-svcb
	hcl1-decodemap blackfriday-linkref gomarkdown-citation xtext-resizerange yaml2-simplekey goyaml-flowmap"
TMPL=testdata/targets/tmpl

# autohalf COMMIT TAG: auto at COMMIT alone on the first half of a round of
# it (the 20 easy bugs, 5 reps of 1 minute; three hard bugs, 10 reps of 3
# minutes; the two template targets, 5 reps of 5 minutes), results in
# {easy,hard,targets}-TAG-2026-11-29a.jsonl.
autohalf() {
	autobugs "$1" "$2"
	autotargets "$1" "$2"
}

# autobugs COMMIT TAG, autotargets COMMIT TAG: autohalf's bugs and its
# template targets, apart, so that two cores can share a half.
autobugs() {
	local commit=$1 tag=$2
	# shellcheck disable=SC2086 # the list splits into bugs
	REPS=5 bugs "$commit" gfz-auto 1m "easy-$tag-2026-11-29a.jsonl" $EASY_BUGS
	bugs "$commit" gfz-auto 3m "hard-$tag-2026-11-29a.jsonl" html-fragloop html-selectloop yaml3-unknownevent
}

autotargets() {
	local commit=$1 tag=$2 g spec
	g=$(worktree "$commit") || return
	for spec in "$TMPL:FuzzTemplate:text/template,text/template/parse" \
		"$TMPL:FuzzHTMLTemplate:html/template,text/template,text/template/parse"; do
		(cd "$g" && go run ./cmd/gfz-bench -target "$spec" -contenders gfz-auto \
			-reps 5 -time 5m -results "$here/targets-$tag-2026-11-29a.jsonl" -work "$EV/targets-$tag/work" -v)
	done
}

gen() {
	local part=$1
	case $part in
	a) autohalf "$GEN_COMMIT" gen ;;
	b) bugs "$GEN_COMMIT" gfz-auto 3m hard-gen-2026-11-29b.jsonl gomarkdown-deflist tiff-palette toml-escapes toml-lexvalue ;;
	esac
}

# The third held-out set (added 2026-11-29, testdata/bugs/README.md "held-out
# (3)"): every engine and auto (with the generation share) at H3_COMMIT, the
# first commit that has those bugs, 5 reps of 3 minutes; reported apart
# from the other bugs (render.sh: heldout3-2026-11-29.md and its ranking).
H3_COMMIT=${H3_COMMIT:-91ac9c3}
h3() {
	case $1 in
	a) bugs "$H3_COMMIT" "$ALL" 3m heldout3-2026-11-29a.jsonl cbor-timefield gojq-ifelse sh-bquote ;;
	b) bugs "$H3_COMMIT" "$ALL" 3m heldout3-2026-11-29b.jsonl xz-indexcount ;;
	# Two of b's three bugs, moved to core 0 (2026-11-29, with the runs
	# they had, when a's fast bugs were done and b had hours left).
	c) bugs "$H3_COMMIT" "$ALL" 3m heldout3-2026-11-29c.jsonl gqlparser-scalarspread goja-falsyloop ;;
	esac
}

# Long runs (2026-11-29, fifteenth session): do the short budgets' ranks
# hold over half an hour? zest, random and auto at LONG_COMMIT on the two
# template targets, 1 rep of 30 minutes each (a: FuzzTemplate, b:
# FuzzHTMLTemplate), gfz-bench's target mode, long-2026-11-29{a,b}.jsonl.
# LONG_CONTENDERS overrides the contenders (long1 ran zest and random only,
# to end within the session).
LONG_COMMIT=${LONG_COMMIT:-c2dfa88}
long() {
	local part=$1 spec g
	case $part in
	a) spec="$TMPL:FuzzTemplate:text/template,text/template/parse" ;;
	b) spec="$TMPL:FuzzHTMLTemplate:html/template,text/template,text/template/parse" ;;
	esac
	g=$(worktree "$LONG_COMMIT") || return
	(cd "$g" && go run ./cmd/gfz-bench -target "$spec" -contenders "${LONG_CONTENDERS:-gfz-zest,gfz-random,gfz-auto}" \
		-reps 1 -time 30m -results "$here/long-2026-11-29$part.jsonl" -work "$EV/long$part/work" -v)
}

# The fourth held-out set (added 2026-11-29, testdata/bugs/README.md
# "held-out (4)"): every engine and auto at H4_COMMIT (the default random,
# the oracles as reviewed), 5 reps of 3 minutes, in two halves (h40 on
# core 0, h41 on core 1), heldout4-*{a,b}.jsonl. Not run yet: it judges
# the next change of the default, by a rule to be written before it runs.
H4_COMMIT=${H4_COMMIT:-11dfbea}
h4() {
	case $1 in
	a) bugs "$H4_COMMIT" "$ALL" 3m heldout4-a.jsonl bson-lenoverflow msgpack-mapkey regexp2-emptyloop ;;
	b) bugs "$H4_COMMIT" "$ALL" 3m heldout4-b.jsonl cascadia-attrflag miekgdns-txtsplit ;;
	# The single engines, all five bugs in one chain (2026-11-29,
	# sixteenth session: the rule in BENCHMARKS.md, "The fourth held-out
	# set and the next default"); auto as changed runs at its own commit.
	# shellcheck disable=SC2086 # the lists split into bugs
	c) bugs "$H4_COMMIT" "$ENGINES" 3m heldout4-c.jsonl $H4_BUGS ;;
	# shellcheck disable=SC2086
	d) bugs "$H4_AUTO_COMMIT" gfz-auto 3m heldout4-d.jsonl $H4_BUGS ;;
	esac
}
ENGINES=gfz-random,gfz-zeugma,gfz-zest,gfz-fairfuzz,gfz-bytes,gfz-ei,gfz-bediv

# Auto with generation first (FIRST_COMMIT, 2026-11-29, sixteenth session)
# on the 35 benchmarks of rank-all-2026-11-29.md, their budgets (the rule's
# condition 3: BENCHMARKS.md, "The fourth held-out set and the next
# default"), the only contender: the other engines' runs are those of the
# rounds before (their code has not changed). first0: the 20 easy bugs,
# three hard ones (first2: the template targets); first1: the four other hard
# bugs and the third held-out set. Results *-first-2026-11-29*.jsonl.
FIRST_COMMIT=${FIRST_COMMIT:-9f1f290}
first() {
	case $1 in
	a) autobugs "$FIRST_COMMIT" first ;;
	# The template targets, apart from a (2026-11-29, seventeenth
	# session), to run on the other core once h42 has ended.
	c) autotargets "$FIRST_COMMIT" first ;;
	b)
		bugs "$FIRST_COMMIT" gfz-auto 3m hard-first-2026-11-29b.jsonl gomarkdown-deflist tiff-palette toml-escapes toml-lexvalue
		REPS=5 bugs "$FIRST_COMMIT" gfz-auto 3m heldout3-first-2026-11-29b.jsonl cbor-timefield gojq-ifelse sh-bquote \
			xz-indexcount gqlparser-scalarspread goja-falsyloop ;;
	esac
}
H4_BUGS="bson-lenoverflow msgpack-mapkey regexp2-emptyloop cascadia-attrflag miekgdns-txtsplit"

# The fifth held-out set (added 2026-11-29, seventeenth session;
# testdata/bugs/README.md "held-out (5)"): one interleaved round, every
# contender at H5_COMMIT, so that they run under the same conditions
# (BENCHMARKS.md, "The fifth held-out set: one round, paired"): random
# (the default), auto (generation first), zest and zeugma, 5 reps of 3
# minutes, heldout5-2026-11-29a.jsonl; bugs added later go in part b at
# their own commit, the same contenders.
H5_COMMIT=${H5_COMMIT:-6e3711d}
H5_CONTENDERS=gfz-random,gfz-auto,gfz-zest,gfz-zeugma
H5_BUGS="jsonparser-deleteneg protojson-anyloop cron-tzprefix plist-gnustepvalue sdp-timeunits"
h5() {
	case $1 in
	# shellcheck disable=SC2086 # the list splits into bugs
	a) REPS=5 bugs "$H5_COMMIT" "$H5_CONTENDERS" 3m heldout5-2026-11-29a.jsonl $H5_BUGS ;;
	# Part b: the two bugs added after a started (otto-capture,
	# tengo-deadcode), at H5B_COMMIT, the same contenders and budgets.
	b) REPS=5 bugs "$H5B_COMMIT" "$H5_CONTENDERS" 3m heldout5-2026-11-29b.jsonl otto-capture tengo-deadcode ;;
	# Part c: gopherlua-loadnil, added after b started, at H5C_COMMIT.
	c) REPS=5 bugs "$H5C_COMMIT" "$H5_CONTENDERS" 3m heldout5-2026-11-29c.jsonl gopherlua-loadnil ;;
	esac
}
# h6 PART: the sixth held-out set (2026-11-29, eighteenth session), random
# against auto by cost, interleaved, 5 runs of 3 minutes (the rule:
# BENCHMARKS.md, "The sixth held-out set"); part a the six bugs ready first
# at H6_COMMIT, part b those added later at H6B_COMMIT.
h6() {
	case $1 in
	# shellcheck disable=SC2086 # the list splits into bugs
	a) REPS=5 bugs "$H6_COMMIT" gfz-random,gfz-auto 3m heldout6-2026-11-29a.jsonl $H6_BUGS ;;
	# shellcheck disable=SC2086
	b) REPS=5 bugs "$H6B_COMMIT" gfz-random,gfz-auto 3m heldout6-2026-11-29b.jsonl $H6B_BUGS ;;
	esac
}
# h7 PART: the seventh held-out set (BENCHMARKS.md, "The seventh held-out
# set"): random and auto at H7_COMMIT, 5 reps of 3 minutes, the bugs of
# H7A_BUGS (part a) and H7B_BUGS (part b), one part a core.
h7() {
	case $1 in
	# shellcheck disable=SC2086 # the list splits into bugs
	a) REPS=5 bugs "$H7_COMMIT" gfz-random,gfz-auto 3m heldout7-2026-11-29a.jsonl $H7A_BUGS ;;
	# shellcheck disable=SC2086
	b) REPS=5 bugs "$H7_COMMIT" gfz-random,gfz-auto 3m heldout7-2026-11-29b.jsonl $H7B_BUGS ;;
	esac
}
H7_COMMIT=${H7_COMMIT:-}
H7A_BUGS=${H7A_BUGS:-}
H7B_BUGS=${H7B_BUGS:-}
# seen6: the same two contenders on two hard bugs already seen (not a
# held-out judgment: a look at where the cost share should matter), 3 reps.
seen6() {
	case $1 in
	a) REPS=3 bugs "$H6_COMMIT" gfz-random,gfz-auto 3m seen6-2026-11-29.jsonl gopherlua-loadnil html-fragloop ;;
	b) REPS=3 bugs "$H6_COMMIT" gfz-random,gfz-auto 3m seen6-2026-11-29b.jsonl yaml3-unknownevent toml-escapes ;;
	esac
}
# seen7: random against auto with its records deferred during generation
# first (S7_COMMIT, twentieth session) on the seventh set's five bugs found,
# 5 reps of 3 minutes: a look at auto's speed there, not a held-out
# judgment (the set judged auto at c7cf74b).
seen7() {
	REPS=5 bugs "$S7_COMMIT" gfz-random,gfz-auto 3m seen7-2026-11-29.jsonl raymond-niloptions glob-emptyalt etree-filterkey xpath-substring yaegi-localtype
}
S7_COMMIT=${S7_COMMIT:-}
# cap PART: auto with generation first capped at CAP children
# (GFZ_AUTO_FIRST_MAX, default 4,194,304) against random, 10-minute budgets,
# 3 reps, on four seen hard bugs, at CAP_COMMIT: an exploration, not a
# held-out judgment (does the cap let auto find html-selectloop, which
# needs mutation, and what does it cost on the bugs random finds?); a and b
# one core each, resumable across sessions.
cap() {
	export GFZ_AUTO_FIRST_MAX=${CAP:-4194304}
	case $1 in
	a) REPS=3 bugs "$CAP_COMMIT" gfz-random,gfz-auto 10m cap-2026-11-29a.jsonl html-selectloop toml-escapes ;;
	# a's two bugs apart, one a core, into a's file (b ended early).
	a1) REPS=3 bugs "$CAP_COMMIT" gfz-random,gfz-auto 10m cap-2026-11-29a.jsonl html-selectloop ;;
	a2) REPS=3 bugs "$CAP_COMMIT" gfz-random,gfz-auto 10m cap-2026-11-29a.jsonl toml-escapes ;;
	b) REPS=3 bugs "$CAP_COMMIT" gfz-random,gfz-auto 10m cap-2026-11-29b.jsonl tiff-palette gomarkdown-deflist ;;
	esac
}
CAP_COMMIT=${CAP_COMMIT:-}
# pause6 PART: auto with the counting of hits paused during generation
# first (PAUSE_COMMIT) against random on two seen bugs, 3 reps: its rate.
pause6() {
	case $1 in
	a) REPS=3 bugs "$PAUSE_COMMIT" gfz-random,gfz-auto 3m pause6-2026-11-29a.jsonl html-fragloop ;;
	b) REPS=3 bugs "$PAUSE_COMMIT" gfz-random,gfz-auto 3m pause6-2026-11-29b.jsonl toml-escapes ;;
	esac
}
PAUSE_COMMIT=${PAUSE_COMMIT:-c066a82}
# harn PART: gfz-build's harness default (HARN_NEW, 30e712a: bugkit/gens,
# the suite's shared generators, left uninstrumented) against the build
# before it (HARN_OLD, 1ae4042: instrumented), zest and zeugma (the
# coverage-guided engines it can change) on three seen hard bugs, 3 reps of
# 3 minutes; a the old build, b the new, one chain a core at the same time,
# paired by seed (the engines' code is the same in both commits).
HARN_BUGS="html-selectloop gomarkdown-deflist toml-lexvalue"
harn() {
	case $1 in
	a) REPS=3 bugs "${HARN_OLD:-1ae4042}" gfz-zest,gfz-zeugma 3m harness-2026-11-29a.jsonl $HARN_BUGS ;;
	b) REPS=3 bugs "${HARN_NEW:-30e712a}" gfz-zest,gfz-zeugma 3m harness-2026-11-29b.jsonl $HARN_BUGS ;;
	esac
}
H6_BUGS="jmespath-identtrail asn1ber-binaryreal dateparse-retrynil tdparse-tmpleof ajson-evalindex ini-missingref"
H6_COMMIT=${H6_COMMIT:-}
H6B_BUGS=${H6B_BUGS:-}
H6B_COMMIT=${H6B_COMMIT:-}
H5C_COMMIT=${H5C_COMMIT:-80f1369}
H5B_COMMIT=${H5B_COMMIT:-4e7a53b}
H4_AUTO_COMMIT=${H4_AUTO_COMMIT:-9f1f290}

case ${1:-} in
h40) log "h40 start"; REPS=5 h4 a; log "h40 done" ;;
h41) log "h41 start"; REPS=5 h4 b; log "h41 done" ;;
h42) log "h42 start"; REPS=5 h4 c; log "h42 done" ;;
first0) log "first0 start"; first a; log "first0 done" ;;
first1) log "first1 start"; first b; log "first1 done" ;;
first2) log "first2 start"; first c; log "first2 done" ;;
h60) log "h60 start"; h6 a; log "h60 done" ;;
h70) log "h70 start"; h7 a; log "h70 done" ;;
h71) log "h71 start"; h7 b; log "h71 done" ;;
h61) log "h61 start"; h6 b; log "h61 done" ;;
seen6) log "seen6 start"; seen6 a; log "seen6 done" ;;
seen6b) log "seen6b start"; seen6 b; log "seen6b done" ;;
pause6a) log "pause6a start"; pause6 a; log "pause6a done" ;;
harna) log "harna start"; harn a; log "harna done" ;;
seen7) log "seen7 start"; seen7; log "seen7 done" ;;
capa) log "capa start"; cap a; log "capa done" ;;
capb) log "capb start"; cap b; log "capb done" ;;
capa1) log "capa1 start"; cap a1; log "capa1 done" ;;
capa2) log "capa2 start"; cap a2; log "capa2 done" ;;
harnb) log "harnb start"; harn b; log "harnb done" ;;
pause6b) log "pause6b start"; pause6 b; log "pause6b done" ;;
h50) log "h50 start"; h5 a; log "h50 done" ;;
h51) log "h51 start"; h5 b; log "h51 done" ;;
h52) log "h52 start"; h5 c; log "h52 done" ;;
h43) log "h43 start"; REPS=5 h4 d; log "h43 done" ;;
long0) log "long0 start"; long a; log "long0 done" ;;
long1) log "long1 start"; long b; log "long1 done" ;;
h30) log "h30 start"; REPS=5 h3 a; log "h30 done" ;;
h31) log "h31 start"; REPS=5 h3 b; log "h31 done" ;;
h32) log "h32 start"; REPS=5 h3 c; log "h32 done" ;;
gen0) log "gen0 start"; gen a; log "gen0 done" ;;
gen1) log "gen1 start"; gen b; log "gen1 done" ;;
core0) log "core0 start"; growth
	hardall a html-fragloop html-selectloop yaml3-unknownevent gomarkdown-deflist
	easy a goldmark-list gotoml2-datetime toml-hang gotoml2-inline gjson-squash html-isindex html-templatens \
		html-nodestack yaml3-stemcomment blackfriday-listitem
	# Half of core1's easy bugs (moved 2026-11-28, when core0's hard half was
	# done and core1's had hours left), in their own results file.
	easy c goyaml-mapvalue hcl2-nullexpand expr-nilcall dnsmsg-svcb hcl1-decodemap
	targets a testdata/targets/tmpl:FuzzTemplate:text/template,text/template/parse
	# One contender of core1's target (moved 2026-11-28, as the easy
	# bugs were), in its own results file; two more run on core1 (d).
	targets c testdata/targets/tmpl:FuzzHTMLTemplate:html/template,text/template,text/template/parse "$ALL_C"; log "core0 done" ;;
core1) log "core1 start"
	hardall b tiff-palette toml-escapes toml-lexvalue
	easy b blackfriday-linkref gomarkdown-citation xtext-resizerange yaml2-simplekey goyaml-flowmap
	targets b testdata/targets/tmpl:FuzzHTMLTemplate:html/template,text/template,text/template/parse "$ALL_B"
	# Two of the three contenders first moved to core0 (c), moved back
	# 2026-11-28 (thirteenth session) to even the cores' last hours.
	targets d testdata/targets/tmpl:FuzzHTMLTemplate:html/template,text/template,text/template/parse "$ALL_D"; log "core1 done" ;;
*) sed -n '2,53p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
