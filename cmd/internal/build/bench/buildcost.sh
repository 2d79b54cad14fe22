#!/usr/bin/env bash
# buildcost.sh: the build cost of gfz-build against the go command, side by
# side, on real modules fetched through the module proxy (go mod download),
# each copied into a temporary directory as a main module.
#
# For every module, every round, interleaved (the side that goes first
# alternates between rounds):
#   cold  gfz-build -o X PKG in a fresh copy of the module with an empty
#         build cache (a fresh GFZCACHE), against go test -c -cover -o Y PKG
#         in another fresh copy. Go's build cache is warm for what does not
#         change between rounds, as it is for a developer: the standard
#         library, gfz's library (this checkout, at a fixed path), the
#         module's dependencies as the go command builds them. The module's
#         own packages are compiled cold by both sides (a fresh copy is a
#         new directory, which Go's build cache keys on), and so is every
#         package gfz instruments.
#   warm  in the same two copies, after an edit of FILE of the target
#         package that changes its code (a small unexported function
#         appended, different for each side and round): gfz-build again,
#         with the cache the cold build filled, against go test -c (the
#         copy's plain build is warmed first, unmeasured).
#   touch the same after a comment line is appended to FILE: the go command
#         recompiles the package but, when the compiled package comes out
#         the same, links nothing, so this is the go command's best case and
#         shows gfz-build's own fixed cost most.
# Each measurement is one command under /usr/bin/time: wall seconds and CPU
# seconds (user + system, the go command's compiler and linker children
# included). The machine is shared: read the CPU figures, which count only
# the work done, and the spread. The script prints every measurement, then
# per module the medians, min-max and ratios (gfz / go), and the median
# phase times gfz-build -v reported (go test -c: its own compile and link).
#
# Usage: cmd/internal/build/bench/buildcost.sh [rounds]   (default 5; run from the repo root)
# MODULES overrides the modules: "path@version|package|file ..." (file
# relative to the package directory). BASE=/path/to/gfz-build adds a third
# side measured like gfz-build (another gfz-build, e.g. one without the
# cache, built from an older checkout).
set -euo pipefail
rounds=${1:-5}
root=$(pwd)
[ -f "$root/cmd/go.mod" ] || { echo "run from the root of a gfz checkout" >&2; exit 2; }
MODULES=${MODULES:-"github.com/BurntSushi/toml@v1.6.0|.|decode.go
github.com/pelletier/go-toml/v2@v2.4.3|.|unmarshaler.go
github.com/gomarkdown/markdown@v0.0.0-20261107153045-a51d70be185e|.|markdown.go
github.com/goccy/go-yaml@v1.19.2|.|decode.go
github.com/expr-lang/expr@v1.17.8|./test/fuzz|fuzz_env.go"}
tmp=$(mktemp -d /tmp/buildcost.XXXX)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
log=$tmp/log

go build -o "$tmp/gfz-build" ./cmd/gfz-build
sides="gfz go"
if [ -n "${BASE:-}" ]; then
	sides="gfz go base"
fi

# measure NAME MODULE KIND ROUND DIR CMD...: one timed run, appended to the log.
measure() {
	local side=$1 mod=$2 kind=$3 round=$4 dir=$5
	shift 5
	local out=$tmp/out.$$
	if ! (cd "$dir" && /usr/bin/time -f "TIME %e %U %S" "$@") >"$out" 2>&1; then
		echo "FAILED: $side $kind $mod round $round: $*" >&2
		tail -20 "$out" >&2
		exit 1
	fi
	local t phase
	t=$(awk '/^TIME / { printf "%s %.2f", $2, $3 + $4 }' "$out")
	# gfz-build -v: "gfz-build: time: ..., go test -c PKG Ws (cpu Cs), total ..."
	phase=$(sed -n 's/.*go test -c [^ ]* \([0-9.]*\)s (cpu \([0-9.]*\)s).*/\1 \2/p' "$out" | head -1)
	echo "$side $mod $kind $round $t ${phase:--- --}" >>"$log"
	echo "$side $mod $kind $round $t ${phase:--- --}"
}

# The modules, pristine, and the warm-up of Go's build cache for each.
i=0
for spec in $MODULES; do
	IFS='|' read -r modver pkg file <<<"$spec"
	i=$((i + 1))
	name=m$i
	dir=$(go mod download -json "$modver" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -d "$dir" ] || { echo "go mod download $modver: no directory" >&2; exit 1; }
	cp -r "$dir" "$tmp/$name.src"
	chmod -R u+w "$tmp/$name.src"
	echo "$name $modver $pkg $file" >>"$tmp/modules"
	w=$tmp/warmup/$name
	mkdir -p "$tmp/warmup"
	cp -r "$tmp/$name.src" "$w"
	(cd "$w" && go test -c -o /dev/null "$pkg" && go test -c -cover -o /dev/null "$pkg" &&
		GFZCACHE=$tmp/warmup/cache "$tmp/gfz-build" -o "$tmp/warmup/$name.gfz" "$pkg") >/dev/null 2>&1 ||
		{ echo "warm-up of $modver failed" >&2; exit 1; }
	if [ -n "${BASE:-}" ]; then
		(cd "$w" && "$BASE" -o "$tmp/warmup/$name.base" "$pkg") >/dev/null 2>&1 || { echo "warm-up of $modver with $BASE failed" >&2; exit 1; }
	fi
done
echo "side module kind round wall cpu gotest_wall gotest_cpu" >"$log"

for r in $(seq "$rounds"); do
	order=$sides
	if [ $((r % 2)) = 0 ]; then
		order=$(echo "$sides" | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')
	fi
	while read -r name modver pkg file; do
		base=$tmp/r$r/$name
		mkdir -p "$base"
		for side in $order; do
			cp -r "$tmp/$name.src" "$base/$side"
			case $side in
			gfz) measure gfz "$name" cold "$r" "$base/$side" env GFZCACHE="$base/cache" "$tmp/gfz-build" -v -o "$base/$side.bin" "$pkg" ;;
			base) measure base "$name" cold "$r" "$base/$side" "$BASE" -v -o "$base/$side.bin" "$pkg" ;;
			go) measure go "$name" cold "$r" "$base/$side" go test -c -cover -o "$base/$side.bin" "$pkg" ;;
			esac
		done
		(cd "$base/go" && go test -c -o "$base/go.bin" "$pkg") >/dev/null 2>&1
		for kind in warm touch; do
			for side in $order; do
				if [ $kind = warm ]; then
					printf '\nfunc gfzBenchEdit_%s_%d() int { return %d }\n' "$side" "$r" "$r" >>"$base/$side/$pkg/$file"
				else
					echo "// touched: $side round $r" >>"$base/$side/$pkg/$file"
				fi
				case $side in
				gfz) measure gfz "$name" $kind "$r" "$base/$side" env GFZCACHE="$base/cache" "$tmp/gfz-build" -v -o "$base/$side.bin" "$pkg" ;;
				base) measure base "$name" $kind "$r" "$base/$side" "$BASE" -v -o "$base/$side.bin" "$pkg" ;;
				go) measure go "$name" $kind "$r" "$base/$side" go test -c -o "$base/$side.bin" "$pkg" ;;
				esac
			done
		done
		rm -rf "$base"
	done <"$tmp/modules"
done

echo
echo "modules:"
cat "$tmp/modules"
echo
awk -v sides="$sides" '
	NR == 1 { next }
	{ k = $1 SUBSEP $2 SUBSEP $3; n[k]++; w[k, n[k]] = $5; c[k, n[k]] = $6; gw[k, n[k]] = $7; gc[k, n[k]] = $8; mods[$2] = 1 }
	function median(arr, k, m,   i, j, t, a) {
		for (i = 1; i <= m; i++) a[i] = arr[k, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
	function lo(arr, k, m,   i, v) { v = arr[k, 1]; for (i = 2; i <= m; i++) if (arr[k, i] + 0 < v + 0) v = arr[k, i]; return v }
	function hi(arr, k, m,   i, v) { v = arr[k, 1]; for (i = 2; i <= m; i++) if (arr[k, i] + 0 > v + 0) v = arr[k, i]; return v }
	END {
		ns = split(sides, S, " ")
		printf "%-4s %-5s %-5s %5s %8s %15s %8s %15s %10s\n", "mod", "kind", "side", "runs", "cpu s", "cpu min-max", "wall s", "wall min-max", "go test -c"
		split("cold warm touch", K, " ")
		for (m in mods) for (kk = 1; kk <= 3; kk++) {
			kind = K[kk]
			for (si = 1; si <= ns; si++) {
				k = S[si] SUBSEP m SUBSEP kind
				if (!n[k]) continue
				mc[S[si]] = median(c, k, n[k]); mw[S[si]] = median(w, k, n[k])
				g = (S[si] == "go") ? "" : sprintf("%.2f cpu", median(gc, k, n[k]))
				printf "%-4s %-5s %-5s %5d %8.2f %7.2f-%-7.2f %8.2f %7.2f-%-7.2f %10s\n", m, kind, S[si], n[k], mc[S[si]], lo(c, k, n[k]), hi(c, k, n[k]), mw[S[si]], lo(w, k, n[k]), hi(w, k, n[k]), g
			}
			for (si = 1; si <= ns; si++) if (S[si] != "go" && mc["go"] > 0)
				printf "%-4s %-5s %-5s ratio %s/go: cpu %.2f, wall %.2f (goal: %s)\n", m, kind, S[si], S[si], mc[S[si]] / mc["go"], mw[S[si]] / mw["go"], kind == "cold" ? "<= 2 against go test -c -cover" : "<= 1.5 against go test -c"
		}
	}' "$log" | { read -r header; echo "$header"; sort -s -k1,1; }
