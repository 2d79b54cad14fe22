package gens

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// TOMLConfig tunes TOML.
type TOMLConfig struct {
	MaxDepth    int      // nesting of arrays and inline tables; default 2
	MaxPairs    int      // key/value pairs per table; default 4
	MaxTables   int      // [table] and [[array]] headers; default 3
	Keys        []string // preferred bare keys (half of the keys when set)
	MistakesPer int      // per mille of documents passed through Corrupt; default 0
}

func (c TOMLConfig) withDefaults() TOMLConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 2
	}
	if c.MaxPairs <= 0 {
		c.MaxPairs = 4
	}
	if c.MaxTables <= 0 {
		c.MaxTables = 3
	}
	return c
}

var (
	bareKey  = gen.StringFrom("abcxyz_-019", 1, 5)
	strChars = gen.OneOfWeighted(
		gen.W(8, gen.StringFrom("abc xyz019", 1, 1)),
		gen.W(2, gen.Tokens(`\n`, `\t`, `\\`, `\"`, `\b`, `\f`, `\r`, `\u00e9`, `\U0001F600`, `\u0041`)),
		gen.W(1, gen.Map(gen.Rune(), func(r rune) string {
			if r == '"' || r == '\\' || r < 0x20 || r == 0x7f {
				return "?"
			}
			return string(r)
		})),
	)
	// multiline bodies may hold raw newlines, quotes, tabs and a backslash
	// that ends a line (line-ending backslash).
	mlChars = gen.OneOfWeighted(
		gen.W(6, strChars),
		gen.W(2, gen.Tokens("\n", "\t", `"`, `""`, "\\\n", "\\\n  ", "\r\n")),
	)
	litChars = gen.StringFrom("abc xyz019\"\\/.", 1, 1)
	integer  = gen.OneOf(
		gen.Map(gen.Int64(), func(n int64) string { return strconv.FormatInt(n, 10) }),
		gen.Map(gen.IntRange(0, 1<<20), func(n int) string { return "0x" + strconv.FormatInt(int64(n), 16) }),
		gen.Map(gen.IntRange(0, 4096), func(n int) string { return "0o" + strconv.FormatInt(int64(n), 8) }),
		gen.Map(gen.IntRange(0, 255), func(n int) string { return "0b" + strconv.FormatInt(int64(n), 2) }),
		gen.Tokens("1_000", "+7", "-0", "+0", "0"),
	)
	float = gen.OneOf(
		gen.Map(gen.Float64(), func(f float64) string {
			s := strconv.FormatFloat(f, 'g', -1, 64)
			if !strings.ContainsAny(s, ".eEnN") {
				s += ".0"
			}
			return s
		}),
		gen.Tokens("1.5", "-0.0", "6.02e23", "1e-7", "3.14_15", "inf", "+inf", "-inf", "nan", "1E6"),
	)
	date = gen.Map(gen.Zip(gen.IntRange(0, 9999), gen.Zip(gen.IntRange(1, 12), gen.IntRange(1, 31))), func(v gen.Tuple2[int, gen.Tuple2[int, int]]) string {
		return pad(v.A, 4) + "-" + pad(v.B.A, 2) + "-" + pad(v.B.B, 2)
	})
	clock = gen.Map(gen.Zip(gen.IntRange(0, 23), gen.Zip(gen.IntRange(0, 59), gen.IntRange(0, 59))), func(v gen.Tuple2[int, gen.Tuple2[int, int]]) string {
		return pad(v.A, 2) + ":" + pad(v.B.A, 2) + ":" + pad(v.B.B, 2)
	})
	frac    = gen.OneOf(gen.Just(""), gen.Map(gen.StringFrom("0123456789", 1, 9), func(s string) string { return "." + s }))
	offset  = gen.Tokens("", "Z", "z", "+00:00", "-07:00", "+05:30")
	timeSep = gen.Tokens("T", "t", " ")
)

func pad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

type tomlWriter struct {
	t   *gfz.T
	cfg TOMLConfig
}

func (w tomlWriter) key() string {
	switch gen.IntRange(0, 7).Draw(w.t) {
	case 0:
		return `"` + w.chars(strChars, 0, 4) + `"`
	case 1:
		return "'" + w.chars(litChars, 0, 4) + "'"
	case 2:
		return w.key1() + "." + w.key1()
	}
	return w.key1()
}

func (w tomlWriter) key1() string {
	if len(w.cfg.Keys) > 0 && gen.Bool().Draw(w.t) {
		return gen.Tokens(w.cfg.Keys...).Draw(w.t)
	}
	return bareKey.Draw(w.t)
}

func (w tomlWriter) chars(g gen.Generator[string], lo, hi int) string {
	n := gen.IntRange(lo, hi).Draw(w.t)
	var b strings.Builder
	for range n {
		b.WriteString(g.Draw(w.t))
	}
	return b.String()
}

func (w tomlWriter) datetime() string {
	switch gen.IntRange(0, 3).Draw(w.t) {
	case 0:
		return date.Draw(w.t)
	case 1:
		return clock.Draw(w.t) + frac.Draw(w.t)
	}
	return date.Draw(w.t) + timeSep.Draw(w.t) + clock.Draw(w.t) + frac.Draw(w.t) + offset.Draw(w.t)
}

func (w tomlWriter) value(depth int) string {
	k := gen.IntRange(0, 10).Draw(w.t)
	if depth <= 0 && k >= 9 {
		k = 0
	}
	switch k {
	case 0:
		return `"` + w.chars(strChars, 0, 6) + `"`
	case 1:
		return `"""` + w.chars(mlChars, 0, 8) + `"""`
	case 2:
		return "'" + w.chars(litChars, 0, 6) + "'"
	case 3:
		return "'''" + w.chars(gen.OneOf(litChars, gen.Just("\n")), 0, 6) + "'''"
	case 4:
		return integer.Draw(w.t)
	case 5:
		return float.Draw(w.t)
	case 6:
		return gen.Tokens("true", "false").Draw(w.t)
	case 7, 8:
		return w.datetime()
	case 9:
		n := gen.IntRange(0, 3).Draw(w.t)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = w.value(depth - 1)
		}
		sep := gen.Tokens(", ", ",", ",\n  ", " , # c\n").Draw(w.t)
		trail := gen.Tokens("", ",", "\n").Draw(w.t)
		return "[" + join(parts, sep) + trail + "]"
	default:
		return "{" + join(w.pairs(depth-1, 3, " = "), ", ") + "}"
	}
}

func (w tomlWriter) pairs(depth, max int, eq string) []string {
	n := gen.IntRange(0, max).Draw(w.t)
	out := make([]string, 0, n)
	for range n {
		out = append(out, w.key()+eq+w.value(depth))
	}
	return out
}

// TOML draws TOML documents: key/value pairs (bare, quoted, literal and
// dotted keys; every string form with escapes and line-ending backslashes;
// integers in every base; floats with inf/nan; dates, times and date-times
// with offsets; nested arrays and inline tables), comments, [table] and
// [[array of tables]] headers. Keys may repeat, so some documents are
// invalid TOML on purpose; MistakesPer adds near-miss edits (Corrupt).
func TOML(cfg TOMLConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := tomlWriter{t: t, cfg: cfg}
		var b strings.Builder
		line := func(s string) {
			b.WriteString(s)
			if gen.IntRange(0, 5).Draw(t) == 0 {
				b.WriteString(" # " + w.chars(litChars, 0, 3))
			}
			b.WriteString("\n")
		}
		eq := gen.Tokens(" = ", "=", "  =  ").Draw(t)
		for _, p := range w.pairs(cfg.MaxDepth, cfg.MaxPairs, eq) {
			line(p)
		}
		n := gen.IntRange(0, cfg.MaxTables).Draw(t)
		for range n {
			name := w.key()
			if gen.Bool().Draw(t) {
				line("\n[[" + name + "]]")
			} else {
				line("\n[" + name + "]")
			}
			for _, p := range w.pairs(cfg.MaxDepth, cfg.MaxPairs, eq) {
				line(p)
			}
		}
		return Corrupt(t, b.String(), cfg.MistakesPer)
	}).Named("toml")
}
