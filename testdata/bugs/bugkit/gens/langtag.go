package gens

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// LangConfig tunes LanguageTag and AcceptLanguage.
type LangConfig struct {
	MaxTags     int // language ranges per Accept-Language header; default 4
	MistakesPer int // per mille of tags or headers passed through Corrupt; default 0
}

var (
	langAlpha = "abcdefghijklmnopqrstuvwxyz"
	// base languages: common, deprecated and macro-language codes, the
	// special ones (und, root, mis, zxx), 3-letter codes, and drawn ones.
	langBase = gen.OneOfWeighted(
		gen.W(4, gen.Tokens("en", "de", "fr", "zh", "ja", "pt", "es", "sr", "nl", "ar", "he", "iw", "in", "id", "tl",
			"fil", "sh", "no", "nb", "mo", "cmn", "yue", "deu", "eng", "aar", "und", "root", "mis", "zxx", "qaa", "i")),
		gen.W(1, gen.StringFrom(langAlpha, 2, 3)),
		gen.W(1, gen.StringFrom(langAlpha, 5, 8)),
		gen.W(6, gen.Tokens("en", "de", "fr", "zh", "pt", "sr")),
	)
	langScript = gen.OneOf(gen.Tokens("Latn", "Cyrl", "Hans", "Hant", "Arab", "Zzzz", "Qaaa", "latn"),
		gen.Map(gen.StringFrom(langAlpha, 4, 4), func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }))
	langRegion = gen.OneOfWeighted(gen.W(6, gen.Tokens("US", "GB", "DE", "CN", "TW", "HK", "BR", "419", "001", "150", "ZZ", "XK", "QO", "AA", "us", "DD", "YU", "830")),
		gen.W(1, gen.StringFrom("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 2, 2)),
		gen.W(1, gen.Map(gen.IntRange(0, 999), func(n int) string { return pad(n, 3) })))
	langVariant = gen.OneOf(gen.Tokens("posix", "1901", "1996", "valencia", "rozaj", "biske", "nedis", "fonipa", "pinyin", "scouse", "POSIX"),
		gen.StringFrom(langAlpha+"0123456789", 5, 8),
		gen.Map(gen.Zip(gen.IntRange(0, 9), gen.StringFrom(langAlpha+"0123456789", 3, 3)), func(v gen.Tuple2[int, string]) string { return strconv.Itoa(v.A) + v.B }))
	langUKey  = gen.Tokens("ca", "co", "cu", "nu", "tz", "va", "rg", "sd", "ms", "lb", "kb", "ka", "hc", "fw", "em", "cf", "x0", "0a")
	langUType = gen.OneOf(gen.Tokens("gregory", "buddhist", "islamic", "civil", "usd", "eur", "latn", "arab", "posix", "uslax", "usca", "h12", "true", "phonebk", "standard"),
		gen.StringFrom(langAlpha+"0123456789", 3, 8))
	langExtSub = gen.StringFrom(langAlpha+"0123456789", 2, 8)
	langSep    = gen.OneOfWeighted(gen.W(12, gen.Just("-")), gen.W(1, gen.Just("_")))
)

type langWriter struct {
	t     *gfz.T
	parts []string
}

func (w *langWriter) add(s ...string) { w.parts = append(w.parts, s...) }

// tag writes a language tag's subtags: language (with extended language
// subtags), script, region, variants, extensions and private use; each
// optional part present or not.
func (w *langWriter) tag(depth int) {
	t := w.t
	if gen.IntRange(0, 11).Draw(t) == 0 { // private use or grandfathered tag alone
		w.add(gen.OneOf(gen.Tokens("x-whatever", "i-klingon", "i-default", "art-lojban", "zh-min-nan", "en-GB-oed", "sgn-BE-FR", "cel-gaulish"),
			gen.Map(langExtSub, func(s string) string { return "x-" + s })).Draw(t))
		return
	}
	w.add(langBase.Draw(t))
	if gen.IntRange(0, 7).Draw(t) == 0 { // extended language subtags
		w.add(gen.Tokens("yue", "cmn", "ase", "aao").Draw(t))
	}
	if gen.IntRange(0, 2).Draw(t) == 0 {
		w.add(langScript.Draw(t))
	}
	if gen.Bool().Draw(t) {
		w.add(langRegion.Draw(t))
	}
	for range gen.IntRange(0, 2).Draw(t) * gen.IntRange(0, 1).Draw(t) {
		w.add(langVariant.Draw(t))
	}
	for range gen.IntRange(0, 2).Draw(t) * gen.IntRange(0, 1).Draw(t) {
		switch gen.IntRange(0, 3).Draw(t) {
		case 0, 1: // Unicode locale extension: attributes, then key-type pairs
			w.add("u")
			for range gen.IntRange(0, 1).Draw(t) {
				w.add(gen.StringFrom(langAlpha, 3, 8).Draw(t))
			}
			for range gen.IntRange(0, 3).Draw(t) {
				w.add(langUKey.Draw(t))
				for range gen.IntRange(0, 2).Draw(t) {
					w.add(langUType.Draw(t))
				}
			}
		case 2: // transformed content: a source tag, then fields
			w.add("t")
			if depth > 0 && gen.Bool().Draw(t) {
				w.tag(depth - 1)
			}
			for range gen.IntRange(0, 2).Draw(t) {
				w.add(gen.Tokens("m0", "s0", "d0", "i0", "k0", "t0", "h0", "x0").Draw(t), gen.OneOf(gen.Tokens("ungegn", "und", "hex", "names"), langExtSub).Draw(t))
			}
		default: // another singleton
			w.add(gen.StringFrom("abcdefghijklmnopqrsvwyz0123456789", 1, 1).Draw(t))
			for range gen.IntRange(1, 2).Draw(t) {
				w.add(langExtSub.Draw(t))
			}
		}
	}
	if gen.IntRange(0, 5).Draw(t) == 0 {
		w.add("x")
		for range gen.IntRange(1, 2).Draw(t) {
			w.add(gen.StringFrom(langAlpha+"0123456789", 1, 8).Draw(t))
		}
	}
}

func (w *langWriter) String() string {
	var b strings.Builder
	for i, p := range w.parts {
		if i > 0 {
			b.WriteString(langSep.Draw(w.t))
		}
		b.WriteString(p)
	}
	return b.String()
}

// LanguageTag generates BCP 47 language tags (RFC 5646): language with
// extended subtags, script, region, variants, the -u- (Unicode locale)
// and -t- (transformed content, with a nested source tag) extensions,
// other singletons, private use, grandfathered tags, in mixed case and,
// rarely, with "_" separators; MistakesPer per mille of them go through
// Corrupt. Subtags are drawn from real codes and from the subtag syntax,
// so some tags are well-formed but unknown and some are ill-formed.
func LanguageTag(cfg LangConfig) gen.Generator[string] {
	return gen.Custom(func(t *gfz.T) string {
		w := &langWriter{t: t}
		w.tag(1)
		return Corrupt(t, w.String(), cfg.MistakesPer)
	})
}

// AcceptLanguage generates HTTP Accept-Language header values: language
// ranges (LanguageTag's tags and "*") with optional quality values,
// separated by commas and optional whitespace; MistakesPer per mille of
// them go through Corrupt.
func AcceptLanguage(cfg LangConfig) gen.Generator[string] {
	if cfg.MaxTags <= 0 {
		cfg.MaxTags = 4
	}
	return gen.Custom(func(t *gfz.T) string {
		n := gen.IntRange(1, cfg.MaxTags).Draw(t)
		ranges := make([]string, n)
		for i := range ranges {
			if gen.IntRange(0, 9).Draw(t) == 0 {
				ranges[i] = "*"
			} else {
				w := &langWriter{t: t}
				w.tag(1)
				ranges[i] = w.String()
			}
			if gen.Bool().Draw(t) {
				ranges[i] += gen.Tokens(";q=", "; q=", ";Q=").Draw(t) + gen.Tokens("0", "1", "0.5", "0.8", "1.0", "0.001", "0.123").Draw(t)
			}
		}
		return Corrupt(t, strings.Join(ranges, gen.Tokens(",", ", ", " , ").Draw(t)), cfg.MistakesPer)
	})
}
