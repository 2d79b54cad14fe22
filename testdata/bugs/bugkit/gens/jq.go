package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// JQConfig tunes JQ.
type JQConfig struct {
	MaxDepth int // nesting of expressions; default 4
	// Keys are the object keys paths and object constructions draw from;
	// empty: a few generic names.
	Keys        []string
	MistakesPer int // per mille of programs passed through Corrupt; default 0
}

func (c JQConfig) withDefaults() JQConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 4
	}
	if len(c.Keys) == 0 {
		c.Keys = []string{"a", "b", "foo", "bar"}
	}
	return c
}

var (
	jqNumber = gen.OneOfWeighted(
		gen.W(4, gen.Map(gen.IntRange(0, 20), func(n int) string { return itoa(n) })),
		gen.W(1, gen.Tokens("0.5", "1e3", "1.5e-3", "100000000000000000000", "1E1000", ".5", "007")),
	)
	jqStrChar = gen.OneOfWeighted(
		gen.W(8, gen.StringFrom("abcfoo ,:-_/019", 1, 1)),
		gen.W(1, gen.Tokens(`\"`, `\\`, `\n`, `\t`, `\u00e9`, `\ud83d\ude00`, "é", "/")),
	)
	// jqBuiltins are jq's builtins by arity (0, 1, 2, 3 arguments).
	jqBuiltins = [][]string{
		{"empty", "error", "not", "length", "utf8bytelength", "keys", "keys_unsorted", "values", "add", "any", "all",
			"flatten", "floor", "sqrt", "tostring", "tonumber", "type", "infinite", "nan", "isinfinite", "isnan",
			"isnormal", "sort", "unique", "min", "max", "reverse", "tojson", "fromjson", "ascii_downcase",
			"ascii_upcase", "explode", "implode", "to_entries", "from_entries", "paths", "leaf_paths", "arrays",
			"objects", "iterables", "booleans", "numbers", "strings", "nulls", "scalars", "recurse", "env", "builtins",
			"input", "inputs", "debug", "stderr", "input_filename", "now", "todate", "fromdate", "mktime", "gmtime",
			"first", "last", "halt", "tostream",
			"input_line_number", "@text", "@json", "@html", "@uri", "@csv", "@tsv", "@sh", "@base64", "@base64d",
			"ascii", "abs", "toarray", "significand", "logb", "gamma", "frexp", "modf", "trim", "ltrim", "rtrim"},
		{"path", "select", "map", "map_values", "has", "in", "inside", "contains", "indices", "index", "rindex",
			"startswith", "endswith", "ltrimstr", "rtrimstr", "split", "join", "test", "match", "capture", "scan",
			"sort_by", "group_by", "unique_by", "min_by", "max_by", "recurse", "range", "first", "last", "until",
			"repeat", "while", "error", "with_entries", "del", "getpath", "paths", "any", "all", "flatten", "isvalid",
			"strftime", "strptime", "splits", "walk", "add", "fromstream", "truncate_stream"},
		{"setpath", "range", "limit", "test", "match", "capture", "scan", "split", "sub", "gsub", "any", "all",
			"pow", "nth", "recurse", "splits", "until", "while"},
		{"range", "sub", "gsub", "fma"},
	}
	jqBinary = gen.Tokens("|", ",", "//", "=", "|=", "+=", "-=", "*=", "/=", "%=", "//=", "or", "and",
		"==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%")
	jqFormats = gen.Tokens("@text", "@json", "@html", "@uri", "@csv", "@tsv", "@sh", "@base64", "@base64d", "@base32", "@base32d")
	jqVars    = []string{"x", "y", "k", "v", "acc", "item"}
)

type jqWriter struct {
	t     *gfz.T
	cfg   JQConfig
	funcs []string // functions defined in scope (name/arity as "name/1")
	vars  []string // variables bound in scope
}

func (w *jqWriter) key() string { return gen.Tokens(w.cfg.Keys...).Draw(w.t) }

func (w *jqWriter) str(depth int) string {
	var b strings.Builder
	b.WriteByte('"')
	for range gen.IntRange(0, 5).Draw(w.t) {
		if depth > 0 && gen.IntRange(0, 9).Draw(w.t) == 0 {
			b.WriteString(`\(` + w.pipe(depth-1) + `)`)
			continue
		}
		b.WriteString(jqStrChar.Draw(w.t))
	}
	b.WriteByte('"')
	return b.String()
}

func (w *jqWriter) variable() string {
	if len(w.vars) > 0 && gen.IntRange(0, 5).Draw(w.t) > 0 {
		return "$" + gen.Tokens(w.vars...).Draw(w.t)
	}
	return gen.Tokens("$__loc__", "$ENV", "$x", "$__prog_args").Draw(w.t)
}

// pattern draws a destructuring pattern: $name, [$a, $b], {key: $v, $k}.
func (w *jqWriter) pattern(depth int) (string, []string) {
	name := gen.Tokens(jqVars...).Draw(w.t)
	if depth <= 0 || gen.IntRange(0, 3).Draw(w.t) > 0 {
		return "$" + name, []string{name}
	}
	var bound []string
	if gen.Bool().Draw(w.t) {
		items := make([]string, gen.IntRange(1, 3).Draw(w.t))
		for i := range items {
			p, b := w.pattern(depth - 1)
			items[i], bound = p, append(bound, b...)
		}
		return "[" + strings.Join(items, ", ") + "]", bound
	}
	items := make([]string, gen.IntRange(1, 2).Draw(w.t))
	for i := range items {
		switch gen.IntRange(0, 2).Draw(w.t) {
		case 0:
			n := gen.Tokens(jqVars...).Draw(w.t)
			items[i], bound = "$"+n, append(bound, n)
		default:
			p, b := w.pattern(depth - 1)
			items[i], bound = w.key()+": "+p, append(bound, b...)
		}
	}
	return "{" + strings.Join(items, ", ") + "}", bound
}

// suffix draws a path step after a term: .key, ."key", [e], [e:e], [], ?.
func (w *jqWriter) suffix(depth int) string {
	switch gen.IntRange(0, 6).Draw(w.t) {
	case 0, 1:
		return "." + w.key()
	case 2:
		return `."` + w.key() + `"`
	case 3:
		return "[" + w.pipe(depth-1) + "]"
	case 4:
		lo, hi := "", ""
		if gen.IntRange(0, 2).Draw(w.t) > 0 {
			lo = w.pipe(depth - 1)
		}
		if lo == "" || gen.IntRange(0, 2).Draw(w.t) > 0 {
			hi = w.pipe(depth - 1)
		}
		return "[" + lo + ":" + hi + "]"
	case 5:
		return "[]"
	default:
		return "?"
	}
}

// term draws a primary expression with optional path suffixes.
func (w *jqWriter) term(depth int) string {
	t := w.primary(depth)
	for depth > 0 && gen.IntRange(0, 3).Draw(w.t) == 0 {
		t += w.suffix(depth)
	}
	return t
}

func (w *jqWriter) args(n, depth int) string {
	if n == 0 {
		return ""
	}
	args := make([]string, n)
	for i := range args {
		args[i] = w.pipe(depth - 1)
	}
	return "(" + strings.Join(args, "; ") + ")"
}

func (w *jqWriter) primary(depth int) string {
	k := gen.IntRange(0, 19).Draw(w.t)
	if depth <= 0 {
		k = gen.IntRange(0, 5).Draw(w.t)
	}
	switch k {
	case 0:
		return gen.Tokens(".", "..").Draw(w.t)
	case 1:
		return "." + w.key()
	case 2:
		return jqNumber.Draw(w.t)
	case 3:
		if gen.IntRange(0, 5).Draw(w.t) == 0 {
			return jqFormats.Draw(w.t) + " " + w.str(depth)
		}
		return w.str(depth)
	case 4:
		return gen.Tokens("null", "true", "false").Draw(w.t)
	case 5:
		return w.variable()
	case 6, 7:
		// a call of a builtin or a function in scope
		if len(w.funcs) > 0 && gen.IntRange(0, 2).Draw(w.t) == 0 {
			f := gen.Tokens(w.funcs...).Draw(w.t)
			i := strings.IndexByte(f, '/')
			return f[:i] + w.args(int(f[i+1]-'0'), depth)
		}
		n := gen.IntRange(0, 3).Draw(w.t)
		if n > 0 && gen.Bool().Draw(w.t) {
			n = 1
		}
		return gen.Tokens(jqBuiltins[n]...).Draw(w.t) + w.args(n, depth)
	case 8:
		return "(" + w.pipe(depth-1) + ")"
	case 9:
		if gen.IntRange(0, 3).Draw(w.t) == 0 {
			return "[]"
		}
		return "[" + w.pipe(depth-1) + "]"
	case 10:
		items := make([]string, gen.IntRange(0, 3).Draw(w.t))
		for i := range items {
			switch gen.IntRange(0, 5).Draw(w.t) {
			case 0:
				items[i] = w.key() // {a} is {a: .a}
			case 1:
				items[i] = w.variable()
			case 2:
				items[i] = w.str(depth-1) + ": " + w.term(depth-1)
			case 3:
				items[i] = "(" + w.pipe(depth-1) + "): " + w.term(depth-1)
			default:
				items[i] = w.key() + ": " + w.term(depth-1)
			}
		}
		return "{" + strings.Join(items, ", ") + "}"
	case 11:
		return "-" + w.term(depth-1)
	case 12:
		var b strings.Builder
		b.WriteString("if " + w.pipe(depth-1) + " then " + w.pipe(depth-1))
		for range gen.IntRange(0, 2).Draw(w.t) / 2 {
			b.WriteString(" elif " + w.pipe(depth-1) + " then " + w.pipe(depth-1))
		}
		if gen.IntRange(0, 3).Draw(w.t) > 0 {
			b.WriteString(" else " + w.pipe(depth-1))
		}
		b.WriteString(" end")
		return b.String()
	case 13:
		s := "try " + w.term(depth-1)
		if gen.Bool().Draw(w.t) {
			s += " catch " + w.term(depth-1)
		}
		return s
	case 14:
		src := w.term(depth - 1)
		pat, bound := w.pattern(1)
		init := w.pipe(depth - 1)
		saved := w.vars
		w.vars = append(append([]string(nil), w.vars...), bound...)
		update := w.pipe(depth - 1)
		if gen.Bool().Draw(w.t) {
			s := "reduce " + src + " as " + pat + " (" + init + "; " + update + ")"
			w.vars = saved
			return s
		}
		s := "foreach " + src + " as " + pat + " (" + init + "; " + update
		if gen.Bool().Draw(w.t) {
			s += "; " + w.pipe(depth-1)
		}
		w.vars = saved
		return s + ")"
	case 15:
		// a function definition in front of an expression
		name := gen.Tokens("f", "g", "inc", "walk2").Draw(w.t)
		n := gen.IntRange(0, 2).Draw(w.t)
		params := make([]string, n)
		saved, savedF := w.vars, w.funcs
		w.vars = append([]string(nil), w.vars...)
		w.funcs = append([]string(nil), w.funcs...)
		for i := range params {
			p := []string{"a", "b"}[i]
			if gen.Bool().Draw(w.t) {
				params[i] = "$" + p
				w.vars = append(w.vars, p)
			} else {
				params[i] = p
			}
			w.funcs = append(w.funcs, p+"/0")
		}
		head := "def " + name
		if n > 0 {
			head += "(" + strings.Join(params, "; ") + ")"
		}
		w.funcs = append(w.funcs, name+"/"+itoa(n)) // recursion is allowed
		body := w.pipe(depth - 1)
		w.vars, w.funcs = saved, append(savedF, name+"/"+itoa(n))
		rest := w.pipe(depth - 1)
		w.funcs = savedF
		return head + ": " + body + "; " + rest
	case 16:
		label := gen.Tokens("out", "done").Draw(w.t)
		return "label $" + label + " | " + w.pipe(depth-1) + gen.Tokens("", " | break $"+label, ", break $"+label).Draw(w.t)
	case 17:
		// binding: term as $x | body
		src := w.term(depth - 1)
		pat, bound := w.pattern(1)
		if gen.IntRange(0, 4).Draw(w.t) == 0 {
			alt, b2 := w.pattern(1)
			pat += " ?// " + alt
			bound = append(bound, b2...)
		}
		saved := w.vars
		w.vars = append(append([]string(nil), w.vars...), bound...)
		body := w.pipe(depth - 1)
		w.vars = saved
		return src + " as " + pat + " | " + body
	case 18:
		return gen.Tokens("$__loc__", "input", "env.HOME", "getpath([\"a\",0])", "path(..)", "[paths]", "tostream").Draw(w.t)
	default:
		return w.term(depth-1) + "?"
	}
}

// pipe draws an expression with binary operators (the grammar's
// precedence is the parser's business: any mix is drawn).
func (w *jqWriter) pipe(depth int) string {
	s := w.term(depth)
	if depth <= 0 {
		return s
	}
	for range gen.IntRange(0, 4).Draw(w.t) / 2 {
		s += " " + jqBinary.Draw(w.t) + " " + w.term(depth-1)
	}
	return s
}

// JQ generates jq programs: paths (., .., .key, ."key", [e], [e:e], [],
// ?), number, string (with \(...) interpolation and @format prefixes),
// boolean and null literals, variables ($__loc__, $ENV, bound ones),
// calls of builtins of every arity and of defined functions, arrays,
// objects (shorthand keys, variables, computed keys), negation,
// if/elif/else (else optional), try/catch, reduce and foreach,
// function definitions with filter and $ parameters, label/break,
// "as" bindings with destructuring patterns and ?// alternatives, the
// optional operator and every binary operator (pipe, comma, alternative,
// assignments and update-assignments, logic, comparison, arithmetic);
// MistakesPer per mille go through Corrupt.
func JQ(cfg JQConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &jqWriter{t: t, cfg: cfg}
		return Corrupt(t, w.pipe(cfg.MaxDepth), cfg.MistakesPer)
	})
}
