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
# latest), GFZ_BUILD_FLAGS (more gfz-build flags, e.g. "-cover encoding/json").
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

# shellcheck disable=SC2086 # GFZ_BUILD_FLAGS is a list of flags
"$GFZ_BUILD" ${GFZ_BUILD_FLAGS:-} -o "$work/bin" "$@"

# Package directories by the names gfz-build gives binaries: the package
# name, or the import path with / and . replaced by _ when two packages
# share a name.
go list -f '{{.Name}} {{.ImportPath}} {{.Dir}}' "$@" >"$work/pkgs"

pkgdir() {
  local bin=$1 name path dir
  while read -r name path dir; do
    if [ "$bin" = "$name" ] || [ "$bin" = "$(printf '%s' "$path" | tr '/.' '__')" ]; then
      printf '%s\n' "$dir"
      return
    fi
  done <"$work/pkgs"
}

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
    echo "build.sh: $OUT/$fuzzer"
  done
done
