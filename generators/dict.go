package generators

import (
	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/internal/userdict"
	"github.com/gfz-dev/gfz/param"
)

// Dictionary returns the dictionary gfz-build collected from the
// instrumented packages: their string literals (unquoted) and number
// literals (as written), deduplicated, in the order gfz-build found them
// (packages in load order, files and literals in source order), followed
// by the new entries of the dictionary file given to the fuzz binary with
// -dict=FILE, if any. It is empty in a plain go test binary, except while
// go test replays a regression input that the fuzz binary's -regress wrote
// together with its dictionary (testdata/gfzdict/<FuzzTarget>/<name>):
// then it is that dictionary, so that the input decodes into the values
// that failed. The slice is shared: do not modify it.
//
// In a fuzz binary, a call that returns a non-empty dictionary marks the
// execution as one whose input needs it to replay: -regress writes the
// dictionary beside such a failure's regression input only.
func Dictionary() []string {
	if d, ok := userdict.Replay(); ok {
		return d
	}
	d := userdict.All()
	if len(d) > 0 {
		userdict.Consult()
	}
	return d
}

// DecodeDictionary decodes the dictionary encoding gfz-build uses (tokens
// escaped with url.QueryEscape, joined by commas). Tokens that do not
// decode are dropped.
func DecodeDictionary(enc string) []string { return userdict.Decode(enc) }

// Tokens returns a generator that picks one of words: a value draw of
// BytesFor(len(words)) bytes. It panics if words is empty.
func Tokens(words ...string) Generator[string] {
	if len(words) == 0 {
		panic("generators: Tokens with no words")
	}
	return named(SampledFrom(words...), "Tokens")
}

// DictionaryOr returns a generator of tokens from Dictionary() mixed with
// values of fallback: when the dictionary is empty it is fallback (same
// bytes); otherwise one structure byte b chooses a dictionary token (b&1
// == 0; then a value draw of BytesFor(len(Dictionary())) bytes) or a draw
// of fallback. The dictionary is read at every draw (it changes only
// while go test replays a regression input with the dictionary it was
// found with).
func DictionaryOr(fallback Generator[string]) Generator[string] {
	usable("DictionaryOr", fallback)
	return Generator[string]{name: "DictionaryOr", draw: func(t *gfz.T) string {
		return drawTokenOr(t, Dictionary(), fallback)
	}}
}

// TokensOr is DictionaryOr with an explicit word list instead of the
// built-in dictionary (the same bytes as DictionaryOr when words is the
// dictionary).
func TokensOr(words []string, fallback Generator[string]) Generator[string] {
	usable("TokensOr", fallback)
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
