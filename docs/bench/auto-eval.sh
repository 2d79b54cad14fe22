#!/usr/bin/env bash
# auto-eval.sh: executions to each example's planted bug, and coverage of
# the realistic targets at a fixed execution budget, per engine and seed
# (docs/BENCHMARKS.md, "The adaptive engine"). One worker, fixed -runs:
# the results do not depend on the machine's load.
#
# Usage: docs/bench/auto-eval.sh BIN_DIR RESULTS_FILE
#   BIN_DIR holds the fuzz binaries (see build below: EX.gfz for the
#   examples, json.gfz, xml.gfz, toml.gfz, gotypes.gfz for the targets).
#   RESULTS_FILE gets one tab-separated line per finished run; runs already
#   in it are skipped, so a stopped evaluation resumes where it stopped.
#   Each run's stats file is kept in RESULTS_FILE's name without its
#   extension, plus -stats/ (CASE.ENGINE.SEED).
# SEEDS (default 1..10), ENGINES (auto zest bytes random fairfuzz ei
# bediv zeugma), CASES (all below) select the runs; GFZ_AUTO_ARMS is
# passed through (a run's engine is then recorded as auto[ARMS]).
#
# A bug case stops its run at the first failure (SIGINT once failures/
# holds a report; the report's "found at execution" is exact whatever the
# moment of the stop); a coverage case runs its whole budget and writes a
# go tool cover profile, from which the statements covered in the target
# library's packages are counted.
#
# Line: case engine seed budget found execs_to_bug execs covered_stmts
#       total_stmts corpus wall_s
#
# build (from the repository root):
#   B=/tmp/adapt/bin; go build -o /tmp/adapt/gfz-build ./cmd/gfz-build
#   for ex in bst config lru havoc waypoint; do /tmp/adapt/gfz-build -o $B/$ex.gfz ./testdata/examples/$ex; done
#   /tmp/adapt/gfz-build -cmp -o $B/magic.gfz ./testdata/examples/magic
#   /tmp/adapt/gfz-build -cover encoding/json -o $B/json.gfz ./testdata/targets/jsonorder
#   /tmp/adapt/gfz-build -cover encoding/xml -o $B/xml.gfz ./testdata/targets/xmlcatalog
#   /tmp/adapt/gfz-build -cover go/scanner,go/parser,go/types -o $B/gotypes.gfz ./testdata/targets/gotypes
#   (cd testdata/targets/tomlcfg && GOWORK=off /tmp/adapt/gfz-build -cover github.com/BurntSushi/toml -o $B/toml.gfz .)
set -uo pipefail
bin=$1; results=$2
touch "$results"
seeds=${SEEDS:-$(seq 1 10)}
engines=${ENGINES:-auto zest bytes random fairfuzz ei bediv zeugma}
# case: name binary target budget kind(bug|cov) extra-flags cover-prefix
cases_all='
bst bst FuzzDelete 300000 bug - -
config config FuzzShares 300000 bug - -
lru lru FuzzCache 300000 bug - -
havoc-ltr havoc FuzzCheckLTR 300000 bug - -
havoc-rtl havoc FuzzCheckRTL 300000 bug - -
magic-cmp magic FuzzHandle 200000 bug -feedback=cmp -
waypoint waypoint FuzzLock 300000 bug - -
json json FuzzOrder 200000 cov - encoding/json/
xml xml FuzzCatalog 200000 cov - encoding/xml/
toml toml FuzzConfig 50000 cov - github.com/BurntSushi/toml/
gotypes gotypes FuzzGoTypes 30000 cov - go/types/
'
want=${CASES:-}
tmp=$(mktemp -d /tmp/auto-eval.XXXX)
trap 'rm -rf "$tmp"' EXIT
echo "$cases_all" | while read -r name b target budget kind extra prefix; do
	[ -z "$name" ] && continue
	if [ -n "$want" ] && ! echo " $want " | grep -q " $name "; then continue; fi
	[ -x "$bin/$b.gfz" ] || { echo "skip $name: no $bin/$b.gfz" >&2; continue; }
	for e in $engines; do
		label=$e
		[ -n "${GFZ_AUTO_ARMS:-}" ] && [ "$e" = auto ] && label="auto[$GFZ_AUTO_ARMS]"
		for s in $seeds; do
			if awk -v c="$name" -v e="$label" -v s="$s" -v b="$budget" -F'\t' \
				'$1 == c && $2 == e && $3 == s && $4 == b { f = 1 } END { exit !f }' "$results"; then
				continue
			fi
			wd=$tmp/wd
			rm -rf "$wd"
			flags=(-engine "$e" -seed "$s" -runs "$budget" -workers 1 -shrinkruns 0 -workdir "$wd")
			[ "$extra" != - ] && flags+=("$extra")
			[ "$kind" = cov ] && flags+=(-coverprofile "$tmp/prof.out")
			rm -f "$tmp/prof.out"
			start=$(date +%s.%N)
			"$bin/$b.gfz" "${flags[@]}" "$target" >"$tmp/out.txt" 2>&1 &
			pid=$!
			if [ "$kind" = bug ]; then
				while kill -0 "$pid" 2>/dev/null; do
					if ls "$wd/failures/"*.txt >/dev/null 2>&1; then
						sleep 0.2
						kill -INT "$pid" 2>/dev/null
						break
					fi
					sleep 0.3
				done
			fi
			wait "$pid"
			wall=$(echo "$(date +%s.%N) - $start" | bc)
			found=0; at=-1
			rep=$(ls "$wd/failures/"*.txt 2>/dev/null | head -1)
			if [ -n "$rep" ]; then
				found=1
				at=$(grep -m1 '^found at execution' "$rep" | grep -o '[0-9]*' | head -1)
			fi
			execs=$(grep -m1 '^execs:' "$wd/stats" 2>/dev/null | awk '{print $2}')
			corpus=$(grep -m1 '^corpus:' "$wd/stats" 2>/dev/null | awk '{print $2}')
			cov=-; tot=-
			if [ "$kind" = cov ] && [ -f "$tmp/prof.out" ]; then
				read -r cov tot < <(awk -v p="$prefix" 'NR > 1 && index($1, p) == 1 {
					split($1, a, ":"); k = $1; n[k] = $2; if ($3 > 0) h[k] = 1 }
					END { for (k in n) { t += n[k]; if (h[k]) c += n[k] }; print c + 0, t + 0 }' "$tmp/prof.out")
			fi
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.1f\n' "$name" "$label" "$s" "$budget" "$found" "${at:--1}" \
				"${execs:--}" "$cov" "$tot" "${corpus:--}" "$wall" >>"$results"
			mkdir -p "${results%.*}-stats"
			cp "$wd/stats" "${results%.*}-stats/$name.$label.$s" 2>/dev/null || true
		done
	done
done
