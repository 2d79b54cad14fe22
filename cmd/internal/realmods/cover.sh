#!/usr/bin/env bash
# cover.sh: coverage of real modules' own native fuzz targets, gfz against
# go test -fuzz (issue 27, item 5; docs/BENCHMARKS.md, "Native targets:
# coverage on real modules").
#
# For every target of covertargets.txt (module, pinned version, package,
# target, packages whose statements count) and every repetition it runs, one
# after the other on a copy of the module taken from the module cache:
#   gfz     the fuzz binary of `gfz-build ./pkg` (no flags: the native
#           default, args with cmp feedback and the format mix), -workers 1,
#           -seed REP, for -time seconds;
#   native  go test -fuzz: the package's test binary built with
#           `go test -c -fuzz=^Target$`, run with -test.fuzz, -test.parallel=1
#           and a private -test.fuzzcachedir, for the same time;
# then replays each corpus (gfz's corpus/ files are go test corpus files;
# go test's cache holds its own) with plain `go test -run=^Target$ -cover
# -coverpkg=PKGS`, the seeds of the package's testdata/fuzz included for
# both, and counts the statements covered. An input that fails under plain
# go test (it would end the test binary without a profile) is left out of
# the replay and counted.
#
# Usage:
#   cmd/internal/realmods/cover.sh [-out DIR] [-time SECONDS] [-reps N]
#                                  [-gfz CHECKOUT] [-list FILE] [-table] [TARGET...]
#
#   -out DIR      results, logs, sources and binaries (default /tmp/gfz-cover)
#   -time N       seconds of fuzzing per run (default 600)
#   -reps N       repetitions per target and contender (default 3)
#   -gfz DIR      the gfz checkout to build gfz-build from (default: this one)
#   -list FILE    the target list (default: covertargets.txt beside this script)
#   -table        only (re)write DIR/table.md from the results already there
#   TARGET...     only these targets (by name, e.g. FuzzExpr)
#
# Resumable: a run whose DIR/results/<module>@<version>.<Target>.<contender>.<rep>.tsv
# exists is skipped. Runs are interleaved (rep 1 of every target and both
# contenders, then rep 2, ...), so a stopped evaluation has comparable halves.
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
OUT=/tmp/gfz-cover
SECS=600
REPS=3
GFZ=$(cd "$here/../../.." && pwd)
LIST=$here/covertargets.txt
TABLE_ONLY=0
only=()
while [ $# -gt 0 ]; do
	case "$1" in
	-out) OUT=$2; shift 2 ;;
	-time) SECS=$2; shift 2 ;;
	-reps) REPS=$2; shift 2 ;;
	-gfz) GFZ=$2; shift 2 ;;
	-list) LIST=$2; shift 2 ;;
	-table) TABLE_ONLY=1; shift ;;
	-h | -help | --help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "cover.sh: unknown flag $1 (see -h)" >&2; exit 2 ;;
	*) only+=("$1"); shift ;;
	esac
done
for v in "$SECS" "$REPS"; do
	case "$v" in '' | *[!0-9]*) echo "cover.sh: -time and -reps take numbers, not '$v'" >&2; exit 2 ;; esac
done
mkdir -p "$OUT"/results "$OUT"/mods "$OUT"/bin || exit 2
OUT=$(cd "$OUT" && pwd)
LIST=$(cd "$(dirname "$LIST")" && pwd)/$(basename "$LIST")
GB=$OUT/bin/gfz-build

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" | tee -a "$OUT/run.log" >&2; }

# covered PROFILE: "covered total" statements of a go test -coverprofile
# file (a block listed twice counts once, hit if either listing is).
covered() {
	awk 'NR > 1 { split($0, f, " "); k = f[1]; n[k] = f[2]; if (f[3] > 0) hit[k] = 1 }
		END { c = 0; t = 0; for (k in n) { t += n[k]; if (k in hit) c += n[k] } print c, t }' "$1"
}

# prepare MODULE VERSION: the module's source copied from the module cache
# (once), its dependencies downloaded; prints the directory.
prepare() {
	local mod=$1 ver=$2 slug=${1//\//_}@$2
	local M=$OUT/mods/$slug
	if [ ! -f "$M/.ready" ]; then
		rm -rf "$M" && mkdir -p "$M"
		local dir
		go mod download -json "$mod@$ver" >"$M/download.json" 2>&1 || return 1
		dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' "$M/download.json")
		cp -r "$dir" "$M/src" && chmod -R u+w "$M/src" || return 1
		(cd "$M/src" && go mod download) >"$M/setup.log" 2>&1
		touch "$M/.ready"
	fi
	echo "$M"
}

# replay M PKG TARGET COVERPKG CORPUSDIR PROFILE: plain go test on the
# package's own seeds plus the files of CORPUSDIR; prints "covered total
# left_out" (left_out: inputs that failed and were left out).
replay() {
	local M=$1 pkg=$2 target=$3 coverpkg=$4 corpus=$5 prof=$6
	local seeds=$M/src/$pkg/testdata/fuzz/$target
	local backup=$M/seeds.backup
	rm -rf "$backup"
	[ -d "$seeds" ] && cp -r "$seeds" "$backup"
	mkdir -p "$seeds"
	local f n=0
	for f in "$corpus"/*; do
		[ -f "$f" ] || continue
		head -c 15 "$f" | grep -q '^go test fuzz v1' || continue
		cp "$f" "$seeds/zz-$(basename "$f")"
		n=$((n + 1))
	done
	local out=$M/replay.out left=0 try
	for try in 1 2 3 4 5 6 7 8; do
		rm -f "$prof"
		(cd "$M/src" && go test -count=1 -run="^$target\$" -cover -coverpkg="$coverpkg" -coverprofile="$prof" "./$pkg") >"$out" 2>&1
		[ -s "$prof" ] && grep -q '^ok' "$out" && break
		# Leave out the inputs that failed (named by their subtests) and try again.
		local bad
		bad=$(grep -oE -- "--- FAIL: $target/zz-[^ ]+" "$out" | sed "s#--- FAIL: $target/##" | sort -u)
		[ -n "$bad" ] || break
		for f in $bad; do rm -f "$seeds/$f" && left=$((left + 1)); done
	done
	rm -rf "$seeds"
	[ -d "$backup" ] && mv "$backup" "$seeds"
	if [ -s "$prof" ]; then
		echo "$(covered "$prof") $left"
	else
		echo "- - $left"
	fi
}

cols="module version package target contender rep seconds corpus covered total left_out execs gfz_rev start load"

run_one() {
	local mod=$1 ver=$2 pkg=$3 target=$4 coverpkg=$5 cont=$6 rep=$7
	local slug=${mod//\//_}@$ver
	local res=$OUT/results/$slug.$target.$cont.$rep.tsv
	[ -f "$res" ] && return
	local M
	M=$(prepare "$mod" "$ver") || { log "$mod@$ver: cannot prepare the module"; return; }
	local W=$OUT/runs/$slug.$target.$cont.$rep
	rm -rf "$W" && mkdir -p "$W"
	local start load execs=-
	start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	load=$(cut -d' ' -f1 /proc/loadavg)
	log "$target $cont rep $rep: $SECS s"
	case $cont in
	gfz)
		local bin=$M/${pkg//\//_}.gfz
		if [ ! -x "$bin" ]; then
			(cd "$M/src" && "$GB" -o "$bin" "./$pkg") >"$M/gfz-build.log" 2>&1 || { log "$target: gfz-build failed: $(tail -n 3 "$M/gfz-build.log")"; return; }
		fi
		(cd "$M/src/$pkg" && "$bin" -workers 1 -seed "$rep" -time "${SECS}s" -workdir "$W/wd" "$target") >"$W/log" 2>&1
		execs=$(grep -oE 'done: .*execs [0-9]+' "$W/log" | grep -oE '[0-9]+$' | tail -n 1)
		cp -r "$W/wd/corpus" "$W/corpus" 2>/dev/null || mkdir -p "$W/corpus"
		;;
	native)
		# The test binary built for fuzzing, run directly with a private
		# fuzz cache, as gfz-bench runs it.
		local tbin=$M/${pkg//\//_}.$target.fuzz
		if [ ! -x "$tbin" ]; then
			(cd "$M/src" && go test -c -fuzz="^$target\$" -o "$tbin" "./$pkg") >"$M/gotest-c.log" 2>&1 || { log "$target: go test -c failed: $(tail -n 3 "$M/gotest-c.log")"; return; }
		fi
		(cd "$M/src/$pkg" && "$tbin" -test.run='^$' -test.fuzz="^$target\$" -test.parallel=1 -test.fuzzcachedir="$W/cache" -test.fuzztime="${SECS}s") >"$W/log" 2>&1
		execs=$(grep -oE 'execs: [0-9]+' "$W/log" | tail -n 1 | grep -oE '[0-9]+')
		mkdir -p "$W/corpus"
		cp "$W/cache/$target"/* "$W/corpus/" 2>/dev/null
		rm -rf "$W/cache"
		;;
	esac
	local n r
	n=$(find "$W/corpus" -type f | wc -l)
	r=$(replay "$M" "$pkg" "$target" "$coverpkg" "$W/corpus" "$W/cover.out")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mod" "$ver" "$pkg" "$target" "$cont" "$rep" "$SECS" "$n" \
		$(echo "$r" | awk '{print $1}') $(echo "$r" | awk '{print $2}') $(echo "$r" | awk '{print $3}') "${execs:--}" "$(cat "$OUT/bin/gfz-rev")" "$start" "$load" >"$res.tmp"
	mv "$res.tmp" "$res"
	log "$target $cont rep $rep: corpus $n, covered $(echo "$r" | awk '{print $1 "/" $2}'), left out $(echo "$r" | awk '{print $3}')"
	rm -rf "$W/wd" # the corpus copy and the profile stay
}

table() {
	{
		echo "| module | target | statements | gfz: covered (median of reps) | go test -fuzz | gfz / go test | reps |"
		echo "|---|---|---|---|---|---|---|"
		cat "$OUT"/results/*.tsv 2>/dev/null | awk -F'\t' '
			{ k = $1 "\t" $4; tot[k] = $10; v[k, $5, ++n[k, $5]] = $9; keys[k] = 1 }
			function med(k, c,   m, i, j, a, t) { m = n[k, c]; if (m == 0) return "-"; for (i = 1; i <= m; i++) a[i] = v[k, c, i]
				for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
				return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
			END { for (k in keys) { split(k, p, "\t"); g = med(k, "gfz"); nt = med(k, "native")
				r = (g != "-" && nt != "-" && nt > 0) ? sprintf("%.2f", g / nt) : "-"
				printf "| %s | %s | %s | %s | %s | %s | %d, %d |\n", p[1], p[2], tot[k], g, nt, r, n[k, "gfz"], n[k, "native"] } }' | LC_ALL=C sort
	} >"$OUT/table.md.tmp" && mv "$OUT/table.md.tmp" "$OUT/table.md"
}

if [ $TABLE_ONLY = 1 ]; then
	table
	cat "$OUT/table.md"
	exit 0
fi

log "building gfz-build from $GFZ"
(cd "$GFZ/cmd" && go build -o "$GB" ./gfz-build) >"$OUT/bin/build.log" 2>&1 || { log "cannot build gfz-build: $(cat "$OUT/bin/build.log")"; exit 2; }
rev=$(git -C "$GFZ" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git -C "$GFZ" status --porcelain --untracked-files=no 2>/dev/null)" ] && rev="$rev+dirty"
echo "$rev" >"$OUT/bin/gfz-rev"
log "gfz-build at $rev; $SECS s per run, $REPS reps; columns: $cols"

for rep in $(seq 1 "$REPS"); do
	while read -r mod ver pkg target coverpkg; do
		case "$mod" in '' | '#'*) continue ;; esac
		if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$target"; then continue; fi
		for cont in gfz native; do
			run_one "$mod" "$ver" "$pkg" "$target" "$coverpkg" "$cont" "$rep"
		done
	done <"$LIST"
	table
done
log "done; $OUT/table.md"
