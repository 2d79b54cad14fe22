#!/usr/bin/env bash
# Statement coverage that a fixed corpus of N inputs (default 20000) reaches
# in each format's parser, for the valid generator, the near-miss generator
# and random bytes: prints one line per format and mode. Run from this
# directory: ./cover.sh [N] [FORMAT...]. Each run is a go test process with
# -coverpkg on the parser's packages (formats_test.go lists them).
set -euo pipefail
cd "$(dirname "$0")"
n="${1:-20000}"
shift || true
formats=("$@")
if [ ${#formats[@]} -eq 0 ]; then
	formats=(toml yaml markdown html csv url json xml go)
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
declare -A pkgs=(
	[toml]="github.com/BurntSushi/toml,github.com/BurntSushi/toml/internal"
	[yaml]="gopkg.in/yaml.v3"
	[markdown]="github.com/yuin/goldmark,github.com/yuin/goldmark/parser,github.com/yuin/goldmark/ast,github.com/yuin/goldmark/text,github.com/yuin/goldmark/util,github.com/yuin/goldmark/extension,github.com/yuin/goldmark/renderer/html"
	[html]="golang.org/x/net/html"
	[csv]="encoding/csv"
	[url]="net/url"
	[json]="encoding/json"
	[xml]="encoding/xml"
	[go]="go/parser,go/scanner"
)
printf '%-9s %-6s %8s  %s\n' format mode coverage "rejected"
for f in "${formats[@]}"; do
	for mode in valid near bytes; do
		out="$tmp/$f-$mode.out"
		log="$(GOWORK=off GFZ_FORMATS_COVER="$f/$mode" GFZ_FORMATS_N="$n" go test -count=1 -v -run '^TestCoverCorpus$' \
			-coverpkg="${pkgs[$f]}" -coverprofile="$out" . 2>&1)" || { echo "$log" >&2; exit 1; }
		total="$(GOWORK=off go tool cover -func="$out" | awk '/^total:/ {print $3}')"
		rej="$(echo "$log" | sed -n 's/.*inputs, \([0-9]*\) rejected.*/\1/p')"
		printf '%-9s %-6s %8s  %s/%s\n' "$f" "$mode" "$total" "$rej" "$n"
	done
done
