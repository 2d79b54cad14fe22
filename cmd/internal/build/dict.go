package build

import (
	"fmt"
	"go/ast"
	"go/token"
	"net/url"
	"strconv"
	"strings"
)

// Limits of the literal dictionary gfz-build passes to the fuzz binary.
const (
	MaxDictTokens   = 2048      // tokens kept
	MaxDictTokenLen = 64        // longer literals are skipped
	MaxDictEncoded  = 48 * 1024 // bytes of the encoded -X value
)

// DictVar is the variable that receives the dictionary with -X: it is in
// internal/userdict, which every fuzz binary links (the driver reads it for
// -regress in the supervisor, which runs before package generators is
// initialised) and from which generators.Dictionary reads it.
const DictVar = GfzPath + "/internal/userdict.builtinDict"

// CollectDictionary returns the string and number literals of files, in
// order (files in the order given, literals in source order), deduplicated:
// string literals unquoted, number literals (integers, floats, imaginary)
// as written, character literals as the character. Empty strings, literals
// longer than MaxDictTokenLen bytes and import paths are skipped; at most
// MaxDictTokens tokens are kept.
func CollectDictionary(files []*ast.File) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		imports := map[*ast.BasicLit]bool{}
		for _, imp := range f.Imports {
			imports[imp.Path] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if len(out) >= MaxDictTokens {
				return false
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || imports[lit] {
				return true
			}
			tok := lit.Value
			switch lit.Kind {
			case token.STRING, token.CHAR:
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				tok = s
			}
			if tok == "" || len(tok) > MaxDictTokenLen || seen[tok] {
				return true
			}
			seen[tok] = true
			out = append(out, tok)
			return true
		})
	}
	return out
}

// mergeDictionaries merges the dictionaries of several packages, each
// collected by CollectDictionary, in order: the result is what
// CollectDictionary returns for all their files. (Each list holds its
// package's first MaxDictTokens distinct literals; at most as many of
// those as the merged list already holds can be duplicates, so a list
// always has enough new ones to fill the merged list up to the limit.)
func mergeDictionaries(lists [][]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, tok := range l {
			if len(out) >= MaxDictTokens {
				return out
			}
			if !seen[tok] {
				seen[tok] = true
				out = append(out, tok)
			}
		}
	}
	return out
}

// EncodeDictionary encodes tokens for the -X linker flag: each token
// escaped with url.QueryEscape (so the value has no spaces or quotes),
// joined by commas, truncated to whole tokens within MaxDictEncoded bytes.
// generators.DecodeDictionary decodes it.
func EncodeDictionary(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		e := url.QueryEscape(t)
		if b.Len()+len(e)+1 > MaxDictEncoded {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(e)
	}
	return b.String()
}

// DictionaryLdflag returns the linker flag that sets the fuzz binary's
// dictionary (DictVar), or "" for an empty dictionary.
func DictionaryLdflag(tokens []string) string {
	enc := EncodeDictionary(tokens)
	if enc == "" {
		return ""
	}
	return "-X " + DictVar + "=" + enc
}

// DictionarySummary describes the dictionary in one line for gfz-build -v:
// the token count, the encoded size passed to the linker and a few
// examples, instead of the whole (up to MaxDictEncoded bytes) value.
func DictionarySummary(tokens []string) string {
	if len(tokens) == 0 {
		return "empty"
	}
	enc := EncodeDictionary(tokens)
	kept := strings.Count(enc, ",") + 1
	const examples = 8
	var ex []string
	for _, t := range tokens[:min(examples, len(tokens))] {
		if len(t) > 24 {
			t = t[:24] + "…"
		}
		ex = append(ex, strconv.Quote(t))
	}
	more := ""
	if len(tokens) > examples {
		more = ", …"
	}
	return fmt.Sprintf("%d tokens (%d passed to the linker, %d bytes), e.g. %s%s", len(tokens), kept, len(enc), strings.Join(ex, ", "), more)
}
