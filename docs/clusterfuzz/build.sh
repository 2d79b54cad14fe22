#!/bin/bash -eu
# build.sh for OSS-Fuzz and ClusterFuzzLite: builds the gfz fuzz binaries
# of a Go project into $OUT, one file per fuzz target, named as the
# libFuzzer runners expect. See docs/CLUSTERFUZZ.md.
#
#   build.sh [package patterns]     (default ./...; run from the module root)
#
# Environment: OUT (required: where the fuzzers go), GFZ_BUILD (the
# gfz-build command; default: gfz-build from $PATH, else installed with
# go install github.com/gfz-dev/gfz/cmd/gfz-build@$GFZ_VERSION, default
# latest), GFZ_BUILD_FLAGS (more gfz-build flags, e.g. "-cover encoding/json"),
# SANITIZER (set by OSS-Fuzz and ClusterFuzzLite):
#   address    built with Go's -asan (cgo and the builder's C compiler), so
#              that OSS-Fuzz's bad_build_check finds ASan in the binary;
#              GFZ_ASAN=0 builds without it (then the build checks must be
#              turned off, see docs/CLUSTERFUZZ.md)
#   coverage   also writes $OUT/fuzzer_function_names.json and
#              $OUT/P_T.gocovpath, which OSS-Fuzz's coverage script reads
#   any other  (none, undefined, memory, unset) a plain build
#
# For each fuzz target T of a package named P it writes
#   $OUT/P_T                   the fuzz binary (it selects T by this name)
#   $OUT/P_T_seed_corpus.zip   the files of the package's testdata/fuzz/T/
#   $OUT/P_T.dict              the package's testdata/T.dict, if present,
#   $OUT/P_T.options           and the options file that passes it (-dict)

: "${OUT:?set OUT to the directory the fuzzers go to}"
if [ $# -eq 0 ]; then
  set -- ./...
fi

GFZ_BUILD=${GFZ_BUILD:-}
if [ -z "$GFZ_BUILD" ]; then
  if command -v gfz-build >/dev/null 2>&1; then
    GFZ_BUILD=gfz-build
  else
    go install "github.com/gfz-dev/gfz/cmd/gfz-build@${GFZ_VERSION:-latest}"
    GFZ_BUILD="$(go env GOPATH)/bin/gfz-build"
  fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$OUT"

if [ "${SANITIZER:-}" = address ] && [ "${GFZ_ASAN:-1}" != 0 ]; then
  # Go's AddressSanitizer build: Go code and cgo's C code checked, the ASan
  # runtime linked into the binary. clang (OSS-Fuzz's CC) links its runtime
  # statically; gcc would link libasan.so, which the runner image lacks.
  export CGO_ENABLED=1
  export GOFLAGS="${GOFLAGS:+$GOFLAGS }-asan"
  cc=${CC:-$(go env CC)}
  if ! "$cc" --version 2>/dev/null | grep -q clang; then
    CGO_LDFLAGS="$(go env CGO_LDFLAGS) -static-libasan"
    export CGO_LDFLAGS
  fi
fi

# shellcheck disable=SC2086 # GFZ_BUILD_FLAGS is a list of flags
"$GFZ_BUILD" ${GFZ_BUILD_FLAGS:-} -o "$work/bin" "$@"

# Package directories. A fuzz binary is a test binary whose build info
# names its package (`go version -m`: "path IMPORTPATH.test"); failing that
# (not a Go binary), by the names gfz-build gives binaries: the package
# name, or the import path with / and . replaced by _ when two packages
# with fuzz targets share a name (a package without any may share it too:
# hence the build info first).
go list -f '{{.Name}} {{.ImportPath}} {{.Dir}}' "$@" >"$work/pkgs"

pkgdir() {
  local bin=$1 name path dir want
  want=$(go version -m "$work/bin/$bin.gfz" 2>/dev/null | awk '$1 == "path" { print $2; exit }')
  want=${want%.test}
  if [ -n "$want" ]; then
    while read -r name path dir; do
      if [ "$path" = "$want" ]; then
        printf '%s\n' "$dir"
        return
      fi
    done <"$work/pkgs"
  fi
  while read -r name path dir; do
    if [ "$bin" = "$name" ] || [ "$bin" = "$(printf '%s' "$path" | tr '/.' '__')" ]; then
      printf '%s\n' "$dir"
      return
    fi
  done <"$work/pkgs"
}

# For the coverage build: the module directories, longest path first, as
# sed commands mapping the import paths of the binary's go tool cover
# profile to the source files (the coverage script applies $OUT/P_T.gocovpath
# line by line); and the target of each binary.
if [ "${SANITIZER:-}" = coverage ]; then
  go list -m -f '{{if .Dir}}{{.Path}} {{.Dir}}{{end}}' all |
    awk 'NF == 2 { print length($1), "s=^" $1 "/=" $2 "/=" }' |
    sort -rn | cut -d' ' -f2- >"$work/gocovpath"
  : >"$work/names"
fi

for bin in "$work"/bin/*.gfz; do
  base=$(basename "$bin" .gfz)
  dir=$(pkgdir "$base")
  for target in $("$bin" -list); do
    fuzzer="${base}_${target}"
    cp "$bin" "$OUT/$fuzzer"
    chmod +x "$OUT/$fuzzer"
    if [ -n "$dir" ] && [ -d "$dir/testdata/fuzz/$target" ] && [ -n "$(ls -A "$dir/testdata/fuzz/$target")" ]; then
      rm -f "$OUT/${fuzzer}_seed_corpus.zip"
      zip -q -j "$OUT/${fuzzer}_seed_corpus.zip" "$dir/testdata/fuzz/$target"/*
    fi
    if [ -n "$dir" ] && [ -f "$dir/testdata/$target.dict" ]; then
      cp "$dir/testdata/$target.dict" "$OUT/$fuzzer.dict"
      printf '[libfuzzer]\ndict = %s.dict\n' "$fuzzer" >"$OUT/$fuzzer.options"
    fi
    if [ "${SANITIZER:-}" = coverage ]; then
      cp "$work/gocovpath" "$OUT/$fuzzer.gocovpath"
      printf '%s %s\n' "$fuzzer" "$target" >>"$work/names"
    fi
    echo "build.sh: $OUT/$fuzzer"
  done
done

# The coverage script runs $OUT/P_T -test.run=^T$ with T read from this
# file. OSS-Fuzz's own Go build scripts add to it with jq: entries already
# there are kept (with jq, which the builder image has).
if [ "${SANITIZER:-}" = coverage ]; then
  names="$OUT/fuzzer_function_names.json"
  {
    echo '{'
    sep=' '
    while read -r fuzzer target; do
      printf '%s "%s": "%s"\n' "$sep" "$fuzzer" "$target"
      sep=','
    done <"$work/names"
    echo '}'
  } >"$work/names.json"
  if [ -s "$names" ]; then
    jq -s '.[0] + .[1]' "$names" "$work/names.json" >"$work/merged.json"
    mv "$work/merged.json" "$work/names.json"
  fi
  cp "$work/names.json" "$names.tmp"
  mv "$names.tmp" "$names"
fi
