#!/usr/bin/env bash
# run.sh: builds and fuzzes gfz's real-module corpus (docs/REALMODULES.md).
#
# For every module of modules.txt (module, pinned version, package directories)
# it does what a new user does: copies the module from the module cache into a
# fresh directory as the main module, then for each listed package times
# `go test -c` and `gfz-build -o FILE ./pkg` (no flags, no gfz settings, no
# go get), fuzzes every native fuzz target of the package for -time seconds,
# and checks that go.mod, go.sum and the rest of the tree are byte-identical
# afterwards and that the fuzz build used the module's own build list.
#
# Usage:
#   cmd/internal/realmods/run.sh [-out DIR] [-time SECONDS] [-gfz CHECKOUT]
#                                [-list FILE] [-table] [MODULE...]
#
#   -out DIR      results, logs, sources and binaries (default /tmp/gfz-realmods);
#                 keep it outside the repository
#   -time N       seconds of fuzzing per target (default 30)
#   -gfz DIR      the gfz checkout to build gfz-build from (default: this one)
#   -list FILE    the module list (default: modules.txt beside this script)
#   -table        only (re)write DIR/table.md from the results already there
#   MODULE...     only these module paths (default: every module of the list)
#
# Resumable: a module whose DIR/results/<module>@<version>.tsv exists is
# skipped; delete that file (or the whole DIR) to run it again. The table is
# DIR/table.md. Not part of go test ./...: it needs the Go module proxy and
# takes about an hour.
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
OUT=/tmp/gfz-realmods
SECS=30
GFZ=$(cd "$here/../../.." && pwd)
LIST=$here/modules.txt
TABLE_ONLY=0
only=()
while [ $# -gt 0 ]; do
	case "$1" in
	-out) OUT=$2; shift 2 ;;
	-time) SECS=$2; shift 2 ;;
	-gfz) GFZ=$2; shift 2 ;;
	-list) LIST=$2; shift 2 ;;
	-table) TABLE_ONLY=1; shift ;;
	-h | -help | --help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "run.sh: unknown flag $1 (see -h)" >&2; exit 2 ;;
	*) only+=("$1"); shift ;;
	esac
done
case "$SECS" in '' | *[!0-9]*) echo "run.sh: -time takes a number of seconds, not '$SECS'" >&2; exit 2 ;; esac
mkdir -p "$OUT"/results "$OUT"/mods "$OUT"/bin || exit 2
OUT=$(cd "$OUT" && pwd)
LIST=$(cd "$(dirname "$LIST")" && pwd)/$(basename "$LIST")
GB=$OUT/bin/gfz-build
STDCACHE=$OUT/gocache-std

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" | tee -a "$OUT/run.log" >&2; }

# timed TIMEFILE LOG CMD...: runs CMD with stdout and stderr to LOG and
# writes "wall user sys" seconds to TIMEFILE; returns CMD's status.
timed() {
	local tf=$1 lg=$2
	shift 2
	/usr/bin/time -f '%e %U %S' -o "$tf.raw" "$@" >"$lg" 2>&1
	local rc=$?
	tail -n 1 "$tf.raw" >"$tf"
	rm -f "$tf.raw"
	return $rc
}
wall() { awk '{print $1}' "$1" 2>/dev/null; }
cpu() { awk '{printf "%.2f", $2 + $3}' "$1" 2>/dev/null; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "-"; else printf "%.1f", a / b }'; }

# hashfile FILE: its SHA-256, or "absent".
hashfile() { if [ -f "$1" ]; then sha256sum "$1" | awk '{print $1}'; else echo absent; fi; }

# treehash DIR: one line per file, SHA-256 and path, sorted.
treehash() { (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum); }

# firsterr LOG: the first few lines that look like an error, on one line.
firsterr() {
	grep -v '^\s*$' "$1" | grep -iE 'error|gfz-build:|cannot|missing|undefined|unknown|not |panic|fatal|invalid' | head -n 3 |
		cut -c1-400 | tr '\n\t|' '   ' | sed 's/ *$//'
}

# modlist FILE: "path version" for every non-main module of `go list -m all`
# output (the required version, left of any "=>").
modlist() { awk 'NF >= 2 && $2 != "=>" { print $1, $2 }' "$1" | LC_ALL=C sort -u; }

# binmods BINARY: "path version" for every module-cache directory named in
# the binary's file table (module@version/...), with the cache's !x
# escapes undone.
binmods() {
	strings -a -n 8 "$1" | grep -oE 'pkg/mod/[^ @]+@v[^/ ]+/' | sed -E 's#^pkg/mod/##; s#/$##' |
		grep -v '^cache/' | LC_ALL=C sort -u |
		awk -F@ '{ p = $1; out = ""; for (i = 1; i <= length(p); i++) { c = substr(p, i, 1); if (c == "!") { i++; out = out toupper(substr(p, i, 1)) } else out = out c } print out, $2 }'
}

build_gfz() {
	log "building gfz-build from $GFZ"
	if ! (cd "$GFZ" && go build -o "$GB" ./cmd/gfz-build) >"$OUT/bin/build.log" 2>&1; then
		log "cannot build gfz-build: $(cat "$OUT/bin/build.log")"
		exit 2
	fi
	local rev
	rev=$(git -C "$GFZ" rev-parse --short HEAD 2>/dev/null || echo unknown)
	if [ -n "$(git -C "$GFZ" status --porcelain --untracked-files=no 2>/dev/null)" ]; then rev="$rev+dirty"; fi
	echo "$rev" >"$OUT/bin/gfz-rev"
	log "gfz-build at $rev"
}

# The cold caches: a build cache holding only the standard library, made once
# and hard-linked for every cold build (the go command never rewrites a cache
# entry in place).
std_cache() {
	[ -f "$STDCACHE/.done" ] && return
	log "compiling the standard library into $STDCACHE (once)"
	rm -rf "$STDCACHE"
	if ! GOCACHE=$STDCACHE go build std >"$OUT/bin/std.log" 2>&1; then
		log "go build std failed: $(cat "$OUT/bin/std.log")"
		exit 2
	fi
	touch "$STDCACHE/.done"
}
fresh_cache() { rm -rf "$1" && cp -al "$STDCACHE" "$1"; }

# The result row, one per package, tab-separated:
cols="module version package importpath targets target_names gotest_cold_wall gotest_cold_cpu gotest_warm_wall gfz_cold_wall gfz_cold_cpu gfz_warm_wall gfz_warm_cpu probes execs failures gomod_gosum_unchanged tree_unchanged buildlist gfz_rev status"

run_module() {
	local mod=$1 ver=$2
	shift 2
	local pkgs=("$@")
	local slug=${mod//\//_}@$ver
	local res=$OUT/results/$slug.tsv notes=$OUT/results/$slug.notes
	if [ -f "$res" ]; then
		log "$mod@$ver: done earlier ($res), skipped"
		return
	fi
	local M=$OUT/mods/$slug
	rm -rf "$M" && mkdir -p "$M/logs" "$M/pkgs"
	: >"$notes"
	log "$mod@$ver: download"
	local dir
	if ! go mod download -json "$mod@$ver" >"$M/logs/download.json" 2>&1; then
		log "$mod@$ver: go mod download failed"
		emit_failed_module "$mod" "$ver" "go mod download: $(firsterr "$M/logs/download.json")" >"$res.tmp" && mv "$res.tmp" "$res"
		return
	fi
	dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' "$M/logs/download.json")
	local src=$M/src
	cp -r "$dir" "$src" && chmod -R u+w "$src"
	# A module zip may ship without go.sum; record what the copy has.
	echo "go.mod $(hashfile "$src/go.mod") go.sum $(hashfile "$src/go.sum")" >"$M/hash.pristine"
	(cd "$src" && go mod download) >"$M/logs/setup.log" 2>&1
	echo "go.mod $(hashfile "$src/go.mod") go.sum $(hashfile "$src/go.sum")" >"$M/hash.before"
	if ! cmp -s "$M/hash.pristine" "$M/hash.before"; then
		echo "setup: go mod download changed go.mod/go.sum (before the gfz steps; not counted against gfz)" >>"$notes"
	fi
	(cd "$src" && go list -m all) >"$M/golist.txt" 2>"$M/logs/golist.err"
	modlist "$M/golist.txt" >"$M/golist.mods"
	treehash "$src" >"$M/tree.before"

	local rows=()
	local p
	for p in "${pkgs[@]}"; do
		rows+=("$(run_package "$mod" "$ver" "$M" "$p" "$notes")")
	done

	echo "go.mod $(hashfile "$src/go.mod") go.sum $(hashfile "$src/go.sum")" >"$M/hash.after"
	treehash "$src" >"$M/tree.after"
	local modsame=yes treesame=yes
	cmp -s "$M/hash.before" "$M/hash.after" || modsame=no
	if ! diff "$M/tree.before" "$M/tree.after" >"$M/tree.diff"; then
		treesame=no
		echo "source tree changed by the gfz steps: $(grep -c '^[<>]' "$M/tree.diff") file line(s) differ, see $M/tree.diff" >>"$notes"
	fi
	[ "$modsame" = yes ] || echo "go.mod/go.sum changed: $(cat "$M/hash.before") -> $(cat "$M/hash.after")" >>"$notes"
	local rev r
	rev=$(cat "$OUT/bin/gfz-rev")
	for r in "${rows[@]}"; do
		# run_package's row: columns 1-16, then the build-list verdict and the status
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(echo "$r" | cut -f1-16)" "$modsame" "$treesame" "$(echo "$r" | cut -f17)" "$rev" "$(echo "$r" | cut -f18)"
	done >"$res.tmp"
	mv "$res.tmp" "$res"
	log "$mod@$ver: done"
}

emit_failed_module() {
	# columns 3-19 empty, then gfz_rev and status
	printf '%s\t%s' "$1" "$2"
	local i
	for i in $(seq 3 19); do printf '\t-'; done
	printf '\t%s\t%s\n' "$(cat "$OUT/bin/gfz-rev")" "$3"
}

# run_package prints one row: columns 1-16 of $cols, then the build-list
# verdict and the status (run_module adds the module-level columns).
run_package() {
	local mod=$1 ver=$2 M=$3 pkg=$4 notes=$5
	local src=$M/src ps
	ps=$(echo "$pkg" | tr '/.' '__')
	local P=$M/pkgs/$ps
	mkdir -p "$P"
	local ip
	ip=$(cd "$src" && go list "$pkg" 2>"$P/golist.err") || ip="$mod/${pkg#./}"
	local status=ok

	# go test -c, cold (build cache with the standard library only) and warm
	# (the same command again).
	fresh_cache "$M/cache-test"
	(cd "$src" && timed "$P/gotest-cold.time" "$P/gotest-cold.log" env GOCACHE="$M/cache-test" go test -c -o "$P/go.test" "$pkg")
	local trc=$?
	(cd "$src" && timed "$P/gotest-warm.time" "$P/gotest-warm.log" env GOCACHE="$M/cache-test" go test -c -o "$P/go.test" "$pkg")
	rm -rf "$M/cache-test"
	local targets=()
	if [ $trc -eq 0 ] && [ -x "$P/go.test" ]; then
		# from the package directory, as go test runs it: a test's init may
		# read testdata/
		mapfile -t targets < <(cd "$src/$pkg" && "$P/go.test" -test.list '^Fuzz' 2>"$P/test-list.err" | grep -E '^Fuzz')
	else
		status="go test -c failed: $(firsterr "$P/gotest-cold.log")"
		echo "$pkg: $status" >>"$notes"
	fi
	log "  $pkg: go test -c $(wall "$P/gotest-cold.time")s cold, $(wall "$P/gotest-warm.time")s warm; ${#targets[@]} fuzz targets ${targets[*]:-}"

	# gfz-build as a user runs it, cold then warm; a fresh user cache
	# directory too, where gfz-build keeps its own build cache (GFZCACHE
	# unset, so that a GFZCACHE of the caller's cannot make the cold build
	# warm).
	fresh_cache "$M/cache-gfz"
	rm -rf "$M/xdg" && mkdir -p "$M/xdg"
	local genv=(env -u GFZCACHE GOCACHE="$M/cache-gfz" XDG_CACHE_HOME="$M/xdg")
	(cd "$src" && timed "$P/gfz-cold.time" "$P/gfz-cold.log" "${genv[@]}" "$GB" -o "$P/fuzz.gfz" "$pkg")
	local grc=$?
	# The warm build also serves the build-list check: -v prints the go
	# command gfz-build runs, -work keeps its temporary go.mod and overlay
	# (both only print or keep; the build is the same).
	(cd "$src" && timed "$P/gfz-warm.time" "$P/gfz-warm.log" "${genv[@]}" "$GB" -v -work -o "$P/fuzz.gfz" "$pkg")
	local probes=-
	# "...; N probes)" or, with probes in _test.go files (packages with
	# native targets), "...; N probes, and M in _test.go files)": N, or N+M.
	probes=$(grep -E "^$ip: .*; [0-9]+ probes(, and [0-9]+ in _test.go files)?\)$" "$P/gfz-cold.log" |
		sed -E 's/.*; ([0-9]+) probes\)$/\1/; s/.*; ([0-9]+) probes, and ([0-9]+) in _test.go files\)$/\1+\2/' | head -n 1)
	[ -n "$probes" ] || probes=-
	local built=0
	if [ $grc -eq 0 ] && [ -x "$P/fuzz.gfz" ]; then
		built=1
	elif [ ${#targets[@]} -eq 0 ] && grep -q '^gfz-build: no fuzz targets' "$P/gfz-cold.log"; then
		# no fuzz target, and gfz-build says so (exit 1): its message
		status="no native fuzz target; gfz-build exit $grc: $(grep -E '^gfz-build: no fuzz targets' "$P/gfz-cold.log" | head -n 1 | sed 's/^gfz-build: //' | cut -c1-200)"
	elif [ ${#targets[@]} -gt 0 ] || [ $grc -ne 0 ]; then
		local msg
		msg=$(grep -E '^gfz-build: ' "$P/gfz-cold.log" | grep -v 'instrumented' | head -n 2 | cut -c1-500 | tr '\n\t|' '   ')
		[ -n "$msg" ] || msg=$(firsterr "$P/gfz-cold.log")
		status="gfz-build exit $grc: $msg"
		echo "$pkg: $status" >>"$notes"
	else
		# no fuzz target and gfz-build said so: its message
		status="no native fuzz target; gfz-build: $(grep -E '^gfz-build: ' "$P/gfz-cold.log" | tail -n 1 | sed 's/^gfz-build: //' | cut -c1-200)"
	fi
	log "  $pkg: gfz-build $(wall "$P/gfz-cold.time")s cold, $(wall "$P/gfz-warm.time")s warm, exit $grc, $probes probes"

	local verdict=-
	if [ $built -eq 1 ]; then
		verdict=$(buildlist_check "$M" "$P" "$pkg" "$notes")
		rm -rf "$M/cache-gfz" "$M/xdg"
		# targets seen by gfz vs by go test
		(cd "$src/$pkg" && "$P/fuzz.gfz" -list) >"$P/gfz-targets.txt" 2>"$P/gfz-list.err"
		if [ "$(LC_ALL=C sort "$P/gfz-targets.txt" | tr '\n' ' ')" != "$(printf '%s\n' "${targets[@]}" | LC_ALL=C sort | tr '\n' ' ')" ]; then
			echo "$pkg: the fuzz binary lists targets $(tr '\n' ' ' <"$P/gfz-targets.txt")where go test lists ${targets[*]}" >>"$notes"
		fi
	else
		rm -rf "$M/cache-gfz" "$M/xdg"
	fi

	# fuzz every target for SECS seconds, from the package directory (so
	# testdata/fuzz seeds are found), the work directory outside the tree.
	local execs=() fails=0 t
	if [ $built -eq 1 ]; then
		for t in "${targets[@]}"; do
			local W=$P/work/$t
			rm -rf "$W"
			(cd "$src/$pkg" && timeout -k 30 $((SECS * 3 + 120)) "$P/fuzz.gfz" -time "${SECS}s" -workdir "$W" "$t") >"$P/fuzz-$t.log" 2>&1
			local frc=$?
			local ex uf
			ex=$(awk '$1 == "execs:" {print $2}' "$W/stats" 2>/dev/null)
			uf=$(awk '$1 == "unique_failures:" {print $2}' "$W/stats" 2>/dev/null)
			[ -n "$ex" ] || ex="err"
			[ -n "$uf" ] || uf=0
			execs+=("$t=$ex")
			fails=$((fails + uf))
			if [ $frc -ne 0 ] && [ $frc -ne 1 ]; then
				echo "$pkg $t: fuzz binary exit $frc: $(firsterr "$P/fuzz-$t.log")" >>"$notes"
			fi
			local f
			for f in "$W"/failures/*.txt; do
				[ -f "$f" ] || continue
				echo "$pkg $t: failure $(basename "$f" .txt): $(failure_line "$f")" >>"$notes"
			done
			log "    $t: exit $frc, execs $ex, failures $uf"
		done
	fi
	local ex_s=-
	[ ${#execs[@]} -gt 0 ] && ex_s=$(
		IFS=' '
		echo "${execs[*]}"
	)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$mod" "$ver" "$pkg" "$ip" "${#targets[@]}" "$(
			IFS=,
			echo "${targets[*]:--}"
		)" \
		"$(wall "$P/gotest-cold.time")" "$(cpu "$P/gotest-cold.time")" "$(wall "$P/gotest-warm.time")" \
		"$(wall "$P/gfz-cold.time")" "$(cpu "$P/gfz-cold.time")" "$(wall "$P/gfz-warm.time")" "$(cpu "$P/gfz-warm.time")" \
		"$probes" "$ex_s" "$fails" "$verdict" "$status"
}

# failure_line REPORT: its kind and the first line of its message.
failure_line() {
	local kind msg
	kind=$(awk -F': ' '$1 == "kind" {print $2; exit}' "$1")
	msg=$(awk 'f && NF {sub(/^[ \t]+/, ""); print; exit} /^message:/ {f = 1}' "$1")
	echo "${kind:-?}: ${msg:-?}" | cut -c1-300
}

# buildlist_check M P PKG NOTES: reads the go command gfz-build ran from the
# warm build's log (-v -work), then compares
#  1. the build list of that command (go list -m all with its -modfile) with
#     the module's own `go list -m all`: same version of every module, and
#     nothing added but github.com/gfz-dev/gfz;
#  2. the modules that the fuzz binary's packages come from (go list -deps
#     -test with its -modfile and -overlay) with those of go test's binary:
#     the same, plus gfz;
#  3. the go version of the main module in both builds;
#  4. the DefaultGODEBUG that `go version -m` shows for the two binaries;
#  5. every module-cache path module@version in the fuzz binary's file table
#     against go list -m all.
# `go version -m` of a test binary lists no dep lines (go test -c records the
# main module only), so the module lists are taken from the go command.
# Prints "yes", or "no: reasons".
buildlist_check() {
	local M=$1 P=$2 pkg=$3 notes=$4
	local src=$M/src
	local A=$P/audit
	rm -rf "$A" && mkdir -p "$A"
	local work line modfile="" overlay=""
	work=$(sed -n 's/^WORK=//p' "$P/gfz-warm.log" | head -n 1)
	line=$(grep -E '^go test -c ' "$P/gfz-warm.log" | head -n 1)
	modfile=$(echo "$line" | grep -oE -- '-modfile[= ][^ ]+' | head -n 1 | sed -E 's/^-modfile[= ]//')
	overlay=$(echo "$line" | grep -oE -- '-overlay [^ ]+' | head -n 1 | sed 's/^-overlay //')
	local why=()
	# the module flags of gfz-build's go command: -modfile, and -mod=mod where
	# it lets the go command complete a pre-1.17 go.mod's copy
	local mf=()
	[ -n "$modfile" ] && mf=(-modfile="$modfile")
	local m
	for m in $(echo "$line" | grep -oE -- ' -mod=[a-z]+' | sort -u); do mf+=("$m"); done
	echo "audit go command module flags: ${mf[*]:-none}" >"$A/flags"
	local ov=()
	[ -n "$overlay" ] && ov=(-overlay="$overlay")
	if [ -z "$line" ]; then
		why+=("gfz-build -v printed no go test -c command")
	else
		# 1. build lists
		(cd "$src" && go list -m "${mf[@]}" all) >"$A/golist.gfz.txt" 2>"$A/golist.gfz.err" || why+=("go list -m all with gfz's modfile failed: $(head -c 200 "$A/golist.gfz.err")")
		modlist "$A/golist.gfz.txt" >"$A/golist.gfz.mods"
		local changed added removed
		changed=$(join <(LC_ALL=C sort "$M/golist.mods") <(LC_ALL=C sort "$A/golist.gfz.mods") | awk '$2 != $3 {printf "%s %s->%s; ", $1, $2, $3}')
		added=$(join -v 2 <(LC_ALL=C sort "$M/golist.mods") <(LC_ALL=C sort "$A/golist.gfz.mods") | awk '$1 != "github.com/gfz-dev/gfz" {printf "%s %s; ", $1, $2}')
		removed=$(join -v 1 <(LC_ALL=C sort "$M/golist.mods") <(LC_ALL=C sort "$A/golist.gfz.mods") | awk '{printf "%s %s; ", $1, $2}')
		[ -z "$changed" ] || why+=("versions moved: $changed")
		[ -z "$added" ] || why+=("modules added: $added")
		[ -z "$removed" ] || why+=("modules dropped: $removed")
		# 2. linked modules
		local fmt='{{with .Module}}{{.Path}} {{.Version}}{{end}}'
		(cd "$src" && go list -deps -test -f "$fmt" "$pkg") 2>"$A/deps.test.err" | awk 'NF == 2' | LC_ALL=C sort -u >"$A/deps.test"
		(cd "$src" && go list -deps -test "${mf[@]}" "${ov[@]}" -f "$fmt" "$pkg") 2>"$A/deps.gfz.err" | awk 'NF == 2' | LC_ALL=C sort -u >"$A/deps.gfz"
		local dd
		dd=$(diff "$A/deps.test" <(grep -v '^github.com/gfz-dev/gfz ' "$A/deps.gfz") | grep '^[<>]' | tr '\n' ' ')
		[ -z "$dd" ] || why+=("linked modules differ (< go test, > gfz): $dd")
		grep -q '^github.com/gfz-dev/gfz ' "$A/deps.gfz" || why+=("the fuzz build links no github.com/gfz-dev/gfz module (?)")
		# 3. go version of the main module
		local g1 g2
		g1=$(cd "$src" && go list -m -f '{{.GoVersion}}' 2>/dev/null)
		g2=$(cd "$src" && go list -m "${mf[@]}" -f '{{.GoVersion}}' 2>/dev/null)
		if [ "$g1" != "$g2" ]; then
			# gfz-build raises an older go line in its copy and pins the
			# language version back with -gcflags=<module>/...=-lang=go1.N;
			# GODEBUG is compared below.
			local lang
			lang=go$(echo "${g1:-1.16}" | cut -d. -f1-2)
			if echo "$line" | grep -qE -- "-gcflags=[^ ]*=-lang=$lang( |$)"; then
				echo "$pkg: build list check: the build's go line is $g2 (module's $g1), the module's packages compiled with -lang=$lang (not counted as a difference)" >>"$notes"
			else
				why+=("go directive $g1 -> $g2 without -lang=$lang")
			fi
		fi
	fi
	# 4. DefaultGODEBUG
	local d1 d2
	d1=$(go version -m "$P/go.test" 2>/dev/null | grep -E 'build[[:space:]]+DefaultGODEBUG=')
	d2=$(go version -m "$P/fuzz.gfz" 2>/dev/null | grep -E 'build[[:space:]]+DefaultGODEBUG=')
	[ "$d1" = "$d2" ] || why+=("DefaultGODEBUG differs: go test [${d1#*=}] gfz [${d2#*=}]")
	go version -m "$P/fuzz.gfz" >"$A/version-m.gfz" 2>&1
	go version -m "$P/go.test" >"$A/version-m.test" 2>&1
	local depl
	depl=$(grep -cE '^[[:space:]]+dep[[:space:]]' "$A/version-m.gfz")
	echo "dep lines in go version -m: fuzz binary $depl, go test binary $(grep -cE '^[[:space:]]+dep[[:space:]]' "$A/version-m.test")" >"$A/deplines"
	if [ "$depl" -gt 0 ]; then
		local vm
		vm=$(awk '$1 == "dep" {print $2, $3}' "$A/version-m.gfz" | LC_ALL=C sort -u |
			join - <(LC_ALL=C sort "$M/golist.mods") | awk '$2 != $3 {printf "%s %s->%s; ", $1, $3, $2}')
		[ -z "$vm" ] || why+=("go version -m: $vm")
	fi
	# 5. module-cache paths in the binary
	binmods "$P/fuzz.gfz" >"$A/binmods.gfz"
	binmods "$P/go.test" >"$A/binmods.test"
	local bm
	bm=$(join "$A/binmods.gfz" <(LC_ALL=C sort "$M/golist.mods") -a 1 | awk 'NF == 2 || $2 != $3 {printf "%s@%s (go list: %s); ", $1, $2, ($3 == "" ? "absent" : $3)}')
	[ -z "$bm" ] || why+=("module-cache paths in the fuzz binary: $bm")
	[ -n "$work" ] && [ -d "$work" ] && case "$work" in /tmp/* | "${TMPDIR:-/tmp}"/*) rm -rf "$work" ;; esac
	if [ ${#why[@]} -eq 0 ]; then
		echo yes
	else
		local IFS='|'
		echo "no: ${why[*]}" | sed 's/|/ | /g' | cut -c1-1500
	fi
}

write_table() {
	local tbl=$OUT/table.md
	{
		echo "Results of cmd/internal/realmods/run.sh, fuzzing ${SECS} s per target; written $(date -u +%Y-%m-%dT%H:%MZ)."
		echo
		echo "| module | version | package | targets | go test -c cold s: wall (CPU) | warm | gfz-build cold s: wall (CPU) | warm: wall (CPU) | gfz / go test cold: wall (CPU) | warm | probes | execs in ${SECS} s per target | failures | go.mod/go.sum unchanged | build list equal |"
		echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---|"
		local line
		while read -r line; do
			set -- $line
			local mod=$1 ver=$2 slug=${1//\//_}@$2
			[ -f "$OUT/results/$slug.tsv" ] || continue
			awk -F'\t' -v OFS=' | ' '
			function r(a, b) { return (a == "-" || b == "-" || a == "" || b == "") ? "-" : sprintf("%.1f", a / (b + 0.0001)) }
			{
				if ($5 == 0 && $21 ~ /^gfz-build exit 1: gfz-build: no fuzz targets/) { sub(/^gfz-build exit 1: gfz-build: /, "", $21); $21 = "no native fuzz target; gfz-build exit 1: " $21 }
				none = ($21 ~ /^no native/)
				gfzok = ($21 !~ /^gfz-build exit/ && !none && $10 != "-" && $10 != "")
				tc = ($7 == "-") ? "-" : $7 " (" $8 ")"
				gc = gfzok ? $10 " (" $11 ")" : (none ? $10 " (" $11 "), no target: exit 1" : "failed")
				gw = gfzok ? $12 " (" $13 ")" : "-"
				rc = gfzok ? r($10, $7) " (" r($11, $8) ")" : "-"
				rw = gfzok ? r($12, $9) : "-"
				bl = $19; if (bl ~ /^no:/) bl = "no (see notes)"
				fz = $16; if ($21 != "ok" && $21 !~ /^no native/) fz = fz " (" $21 ")"
				tg = $5; if ($5 == 0 && none) tg = "0 (none in this build)"
				print "| " $1, $2, $3, tg, tc, $9, gc, gw, rc, rw, $14, $15, fz, ($17 == $18 ? $17 : $17 " (tree: " $18 ")"), bl " |"
			}' "$OUT/results/$slug.tsv"
		done < <(grep -vE '^\s*(#|$)' "$LIST")
		echo
		echo "Notes (failures found, build errors, check details), per module:"
		echo
		while read -r line; do
			set -- $line
			local slug=${1//\//_}@$2
			[ -f "$OUT/results/$slug.tsv" ] || continue
			local n=$OUT/results/$slug.notes
			awk -F'\t' -v m="$1@$2" '$19 ~ /^no:/ {print "- " m " " $3 ": build list: " substr($19, 5)}' "$OUT/results/$slug.tsv"
			if [ -s "$n" ]; then sed "s#^#- $1@$2 #" "$n"; fi
		done < <(grep -vE '^\s*(#|$)' "$LIST")
	} >"$tbl.tmp"
	mv "$tbl.tmp" "$tbl"
	log "table: $tbl"
}

if [ $TABLE_ONLY -eq 1 ]; then
	write_table
	exit 0
fi

log "run.sh: out $OUT, ${SECS}s per target, gfz $GFZ, list $LIST"
build_gfz
std_cache
while read -r line; do
	# shellcheck disable=SC2086
	set -- $line
	mod=$1 ver=$2
	shift 2
	if [ ${#only[@]} -gt 0 ]; then
		want=0
		for o in "${only[@]}"; do [ "$o" = "$mod" ] && want=1; done
		[ $want -eq 1 ] || continue
	fi
	run_module "$mod" "$ver" "$@"
done < <(grep -vE '^\s*(#|$)' "$LIST")
write_table
