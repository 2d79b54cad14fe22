package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// HCLConfig tunes HCL.
type HCLConfig struct {
	MaxDepth   int // nesting of blocks and of expressions; default 3
	MaxEntries int // attributes and blocks per body, elements per collection, arguments per call; default 3
	// Vars are the variable traversals expressions may start with
	// ("var.name", "local.tags"): the names the evaluation context of the
	// program under test defines. Empty: a few generic names.
	Vars []string
	// Funcs are the function names calls draw from: the functions of the
	// evaluation context. Empty: a few generic names.
	Funcs []string
	// V1 restricts documents to HCL 1 syntax: attributes and blocks,
	// string, number and boolean literals, lists and objects, "${...}"
	// interpolations kept as text, heredocs; no expressions.
	V1          bool
	MistakesPer int // per mille of documents passed through Corrupt; default 0
}

func (c HCLConfig) withDefaults() HCLConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxEntries <= 0 {
		c.MaxEntries = 3
	}
	if len(c.Vars) == 0 {
		c.Vars = []string{"var.a", "var.b", "local.c"}
	}
	if len(c.Funcs) == 0 {
		c.Funcs = []string{"f", "g"}
	}
	return c
}

var (
	hclIdent    = gen.OneOfWeighted(gen.W(6, gen.StringFrom("abcxyz_", 1, 4)), gen.W(1, gen.StringFrom("abc-_019", 1, 5)))
	hclStrChars = gen.OneOfWeighted(
		gen.W(8, gen.StringFrom("abc xyz019.-/:", 1, 3)),
		gen.W(2, gen.Tokens(`\n`, `\t`, `\\`, `\"`, `\r`, `\u00e9`, `\U0001F600`, `$${`, `%%{`, `$`, `%`, "é")),
	)
	hclNumber = gen.OneOfWeighted(
		gen.W(4, gen.Map(gen.IntRange(0, 1000), func(n int) string { return itoa(n) })),
		gen.W(2, gen.Tokens("0", "1", "1.5", "1e3", "0.25", "10", "2", "-1", "1.0e-2", "9007199254740993", "0.1")),
	)
	hclUnary   = gen.Tokens("!", "-")
	hclBinary  = gen.Tokens("+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||")
	hclComment = gen.Tokens("# c", "// c", "/* c */", "/* a\nb */", "#")
	hclHeredoc = gen.Tokens("EOT", "EOF", "END")
)

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

type hclWriter struct {
	t     *gfz.T
	cfg   HCLConfig
	scope []string // iteration variables of the enclosing for expressions
}

// template draws the inside of a quoted template: text, escapes,
// interpolations and (HCL 2) if and for directives.
func (w *hclWriter) template(depth int) string {
	var b strings.Builder
	for range gen.IntRange(0, 3).Draw(w.t) {
		switch k := gen.IntRange(0, 9).Draw(w.t); {
		case k < 6 || depth <= 0:
			b.WriteString(hclStrChars.Draw(w.t))
		case k < 8:
			b.WriteString("${" + gen.Tokens("", "", "~").Draw(w.t) + w.expr(depth-1) + gen.Tokens("", "", "~").Draw(w.t) + "}")
		case w.cfg.V1:
			b.WriteString("${" + gen.Tokens(w.cfg.Vars...).Draw(w.t) + "}")
		case k == 8:
			b.WriteString("%{ if " + w.expr(depth-1) + " }" + w.template(depth-1))
			if gen.IntRange(0, 1).Draw(w.t) == 0 {
				b.WriteString("%{ else }" + w.template(depth-1))
			}
			b.WriteString("%{ endif }")
		default:
			v := gen.Tokens("x", "y").Draw(w.t)
			w.scope = append(w.scope, v)
			b.WriteString("%{ for " + v + " in " + w.expr(depth-1) + " }" + w.template(depth-1) + "%{ endfor }")
			w.scope = w.scope[:len(w.scope)-1]
		}
	}
	return b.String()
}

// heredoc draws a heredoc, plain or indented (<<-), whose lines are
// template text; it ends with a newline.
func (w *hclWriter) heredoc(depth int) string {
	marker := hclHeredoc.Draw(w.t)
	indent := gen.Tokens("<<", "<<-").Draw(w.t)
	var b strings.Builder
	b.WriteString(indent + marker + "\n")
	for range gen.IntRange(0, 2).Draw(w.t) {
		b.WriteString(gen.Tokens("", "  ", "\t").Draw(w.t) + w.template(depth) + "\n")
	}
	b.WriteString(gen.Tokens("", "", "  ").Draw(w.t) + marker + "\n")
	return b.String()
}

// traversal draws a variable (or an iteration variable in scope) with
// attribute, index and splat steps.
func (w *hclWriter) traversal(depth int) string {
	var s string
	if len(w.scope) > 0 && gen.IntRange(0, 2).Draw(w.t) == 0 {
		s = gen.Tokens(w.scope...).Draw(w.t)
	} else {
		s = gen.Tokens(w.cfg.Vars...).Draw(w.t)
	}
	for range gen.IntRange(0, 2).Draw(w.t) {
		switch gen.IntRange(0, 5).Draw(w.t) {
		case 0, 1:
			s += "." + hclIdent.Draw(w.t)
		case 2:
			s += "[" + hclNumber.Draw(w.t) + "]"
		case 3:
			if depth > 0 && !w.cfg.V1 {
				s += "[" + w.expr(depth-1) + "]"
			} else {
				s += "." + itoa(gen.IntRange(0, 3).Draw(w.t))
			}
		case 4:
			if !w.cfg.V1 {
				s += "[*]"
			}
		default:
			if !w.cfg.V1 {
				s += ".*"
			}
		}
	}
	return s
}

// collection draws a tuple or an object of expressions.
func (w *hclWriter) collection(depth int, object bool) string {
	n := gen.IntRange(0, w.cfg.MaxEntries).Draw(w.t)
	items := make([]string, n)
	for i := range items {
		if object {
			key := hclIdent.Draw(w.t)
			switch gen.IntRange(0, 3).Draw(w.t) {
			case 0:
				key = `"` + key + `"`
			case 1:
				if !w.cfg.V1 && depth > 0 {
					key = "(" + w.expr(depth-1) + ")"
				}
			}
			items[i] = key + gen.Tokens(" = ", " : ", "=").Draw(w.t) + w.expr(depth-1)
		} else {
			items[i] = w.expr(depth - 1)
		}
	}
	sep := gen.Tokens(", ", ",", ",\n", "\n").Draw(w.t)
	if !object && sep == "\n" {
		sep = ",\n"
	}
	trail := gen.Tokens("", "", ",").Draw(w.t)
	if object {
		return "{" + strings.Join(items, sep) + trail + "}"
	}
	return "[" + strings.Join(items, sep) + trail + "]"
}

// literal draws a literal value or a template.
func (w *hclWriter) literal(depth int) string {
	switch gen.IntRange(0, 7).Draw(w.t) {
	case 0, 1:
		return hclNumber.Draw(w.t)
	case 2, 3, 4:
		return `"` + w.template(depth) + `"`
	case 5:
		return gen.Tokens("true", "false").Draw(w.t)
	case 6:
		if w.cfg.V1 {
			return gen.Tokens("true", "false").Draw(w.t)
		}
		return "null"
	default:
		return w.heredoc(depth)
	}
}

// expr draws an expression; in HCL 1 mode a literal, list or object.
func (w *hclWriter) expr(depth int) string {
	if w.cfg.V1 {
		if depth <= 0 || gen.IntRange(0, 2).Draw(w.t) > 0 {
			return w.literal(depth)
		}
		return w.collection(depth, gen.IntRange(0, 1).Draw(w.t) == 0)
	}
	if depth <= 0 {
		if gen.IntRange(0, 2).Draw(w.t) == 0 {
			return w.traversal(0)
		}
		return w.literal(0)
	}
	switch gen.IntRange(0, 15).Draw(w.t) {
	case 0, 1, 2:
		return w.literal(depth)
	case 3, 4:
		return w.traversal(depth)
	case 5:
		return w.collection(depth, false)
	case 6:
		return w.collection(depth, true)
	case 7, 8:
		fn := gen.Tokens(w.cfg.Funcs...).Draw(w.t)
		args := make([]string, gen.IntRange(0, w.cfg.MaxEntries).Draw(w.t))
		for i := range args {
			args[i] = w.expr(depth - 1)
		}
		s := fn + "(" + strings.Join(args, gen.Tokens(", ", ",", ",\n").Draw(w.t))
		if len(args) > 0 && gen.IntRange(0, 3).Draw(w.t) == 0 {
			s += "..."
		}
		return s + ")"
	case 9:
		return hclUnary.Draw(w.t) + w.expr(depth-1)
	case 10, 11:
		return w.expr(depth-1) + " " + hclBinary.Draw(w.t) + " " + w.expr(depth-1)
	case 12:
		return w.expr(depth-1) + " ? " + w.expr(depth-1) + " : " + w.expr(depth-1)
	case 13:
		return "(" + w.expr(depth-1) + ")"
	case 14:
		return w.expr(depth-1) + "[" + w.expr(depth-1) + "]"
	default:
		return w.forExpr(depth)
	}
}

// forExpr draws a tuple or object for expression, with an optional
// condition and, for objects, grouping.
func (w *hclWriter) forExpr(depth int) string {
	object := gen.IntRange(0, 1).Draw(w.t) == 0
	coll := w.expr(depth - 1)
	vars := []string{"v"}
	head := "v"
	if gen.IntRange(0, 1).Draw(w.t) == 0 {
		vars = []string{"k", "v"}
		head = "k, v"
	}
	w.scope = append(w.scope, vars...)
	defer func() { w.scope = w.scope[:len(w.scope)-len(vars)] }()
	var b strings.Builder
	if object {
		b.WriteString("{for " + head + " in " + coll + " : " + w.expr(depth-1) + " => " + w.expr(depth-1))
		if gen.IntRange(0, 3).Draw(w.t) == 0 {
			b.WriteString("...")
		}
	} else {
		b.WriteString("[for " + head + " in " + coll + " : " + w.expr(depth-1))
	}
	if gen.IntRange(0, 2).Draw(w.t) == 0 {
		b.WriteString(" if " + w.expr(depth-1))
	}
	if object {
		b.WriteString("}")
	} else {
		b.WriteString("]")
	}
	return b.String()
}

// body writes the attributes and blocks of a body at indentation ind.
func (w *hclWriter) body(b *strings.Builder, ind string, depth int) {
	for range gen.IntRange(0, w.cfg.MaxEntries).Draw(w.t) {
		if gen.IntRange(0, 7).Draw(w.t) == 0 {
			b.WriteString(ind + hclComment.Draw(w.t) + "\n")
		}
		if depth > 0 && gen.IntRange(0, 3).Draw(w.t) == 0 {
			b.WriteString(ind + hclIdent.Draw(w.t))
			for range gen.IntRange(0, 2).Draw(w.t) {
				if gen.IntRange(0, 3).Draw(w.t) == 0 {
					b.WriteString(" " + hclIdent.Draw(w.t))
				} else {
					b.WriteString(` "` + hclIdent.Draw(w.t) + `"`)
				}
			}
			if gen.IntRange(0, 5).Draw(w.t) == 0 {
				b.WriteString(" {}\n")
				continue
			}
			b.WriteString(" {\n")
			w.body(b, ind+"  ", depth-1)
			b.WriteString(ind + "}\n")
			continue
		}
		key := hclIdent.Draw(w.t)
		if w.cfg.V1 && gen.IntRange(0, 3).Draw(w.t) == 0 {
			key = `"` + key + `"`
		}
		v := w.expr(w.cfg.MaxDepth)
		b.WriteString(ind + key + gen.Tokens(" = ", "=", " = ").Draw(w.t) + v)
		if !strings.HasSuffix(v, "\n") {
			if gen.IntRange(0, 6).Draw(w.t) == 0 {
				b.WriteString(" " + hclComment.Draw(w.t))
			}
			b.WriteString("\n")
		}
	}
}

// HCL generates HCL configuration files: bodies of attributes and blocks
// (with quoted and bare labels, nested to MaxDepth) whose attribute
// values are HCL 2 expressions: literals, quoted templates with escapes,
// interpolations and if/for directives, heredocs, variable traversals
// over Vars (attribute, index, splat steps), tuples and objects, calls of
// Funcs (with "..." expansion of the last argument), unary, binary and
// conditional operators, index expressions and for expressions; with V1
// the HCL 1 subset (literals, lists, objects). Comments in every style;
// MistakesPer per mille of files go through Corrupt.
func HCL(cfg HCLConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &hclWriter{t: t, cfg: cfg}
		var b strings.Builder
		w.body(&b, "", cfg.MaxDepth)
		return Corrupt(t, b.String(), cfg.MistakesPer)
	})
}

// HCLExpr generates one HCL 2 expression as HCL does for attribute
// values, nested to MaxDepth; MistakesPer per mille go through Corrupt.
func HCLExpr(cfg HCLConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &hclWriter{t: t, cfg: cfg}
		return Corrupt(t, w.expr(cfg.MaxDepth), cfg.MistakesPer)
	})
}
