package generators

import (
	"net/url"
	"strings"
	"sync"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/internal/userdict"
	"github.com/gfz-dev/gfz/param"
)

// builtinDict is set by gfz-build with
// -ldflags "-X github.com/gfz-dev/gfz/generators.builtinDict=..." to the
// string and number literals of the instrumented packages: the tokens,
// each escaped with url.QueryEscape, joined by commas. It is empty outside
// a fuzz binary. See the build package (DictionaryLdflag).
var builtinDict string

var (
	dictOnce sync.Once
	dict     []string
)

// Dictionary returns the dictionary gfz-build collected from the
// instrumented packages: their string literals (unquoted) and number
// literals (as written), deduplicated, in the order gfz-build found them
// (packages in load order, files and literals in source order), followed
// by the new entries of the dictionary file given to the fuzz binary with
// -dict=FILE, if any. It is empty in a plain go test binary. The slice is
// shared: do not modify it.
func Dictionary() []string {
	dictOnce.Do(func() {
		dict = DecodeDictionary(builtinDict)
		// The fuzz binary's -dict=FILE entries (libFuzzer's command
		// line) come after the literals, duplicates left out.
		if extra := userdict.Tokens(); len(extra) > 0 {
			seen := make(map[string]bool, len(dict)+len(extra))
			for _, w := range dict {
				seen[w] = true
			}
			for _, w := range extra {
				if !seen[w] {
					seen[w] = true
					dict = append(dict, w)
				}
			}
		}
	})
	return dict
}

// DecodeDictionary decodes the dictionary encoding gfz-build uses (tokens
// escaped with url.QueryEscape, joined by commas). Tokens that do not
// decode are dropped.
func DecodeDictionary(enc string) []string {
	if enc == "" {
		return nil
	}
	parts := strings.Split(enc, ",")
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if s, err := url.QueryUnescape(p); err == nil {
			out = append(out, s)
		}
	}
	return out
}

// Tokens returns a generator that picks one of words: a value draw of
// BytesFor(len(words)) bytes. It panics if words is empty.
func Tokens(words ...string) Generator[string] {
	return named(SampledFrom(words...), "Tokens")
}

// DictionaryOr returns a generator of tokens from Dictionary() mixed with
// values of fallback: when the dictionary is empty it is fallback (same
// bytes); otherwise one structure byte b chooses a dictionary token (b&1
// == 0; then a value draw of BytesFor(len(Dictionary())) bytes) or a draw
// of fallback. The dictionary is read at the first draw.
func DictionaryOr(fallback Generator[string]) Generator[string] {
	return Generator[string]{name: "DictionaryOr", draw: func(t *gfz.T) string {
		return drawTokenOr(t, Dictionary(), fallback)
	}}
}

// TokensOr is DictionaryOr with an explicit word list instead of the
// built-in dictionary (the same bytes as DictionaryOr when words is the
// dictionary).
func TokensOr(words []string, fallback Generator[string]) Generator[string] {
	words = append([]string(nil), words...)
	return Generator[string]{name: "TokensOr", draw: func(t *gfz.T) string {
		return drawTokenOr(t, words, fallback)
	}}
}

// drawTokenOr draws a word (b&1 == 0) or a value of fallback; only
// fallback when words is empty.
func drawTokenOr(t *gfz.T, words []string, fallback Generator[string]) string {
	if len(words) == 0 {
		return fallback.Draw(t)
	}
	s := t.Source()
	if s.Uint(1, param.Structure)&1 == 0 {
		return words[s.Uintn(uint64(len(words)), param.Value)]
	}
	return fallback.Draw(t)
}
