package tmpl

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// The generator is plain recursive functions drawing from t (one
// gen.Custom at the top), as users write them: a template is a list of
// nodes (text, actions, comments, if/range/with with their else branches,
// template calls, blocks, break and continue inside a range), actions are
// pipelines of commands over fields, variables, literals, the builtin and
// Funcs functions, and parenthesised pipelines. Variables are declared in
// scope; about one draw in 50 makes a mistake (an undefined variable or
// function, a missing {{end}}, a stray token) so that some templates do
// not parse.

var (
	fields = []string{".Title", ".N", ".Ok", ".Items", ".Map", ".Any", ".Ptr", ".Nil", ".Fn",
		".Ptr.Name", ".Ptr.Next.Name", ".Map.one", ".Map.missing", ".Name", ".Count", ".Tags", ".Next",
		".Next.Name", ".Label", ".", ".Missing", ".Items.x"}
	funcNames = []string{"and", "or", "not", "len", "index", "slice", "print", "printf", "println", "html",
		"js", "urlquery", "eq", "ne", "lt", "le", "gt", "ge", "call", "upper", "join", "add", "list", "fail"}
	literals = []string{`"a"`, `"%d %s"`, "`raw\n`", `"<b>"`, "0", "1", "2", "-1", "3.5", "1e2", "0x10",
		"'c'", "true", "false", "nil", `""`, `"one"`, `"x"`, "1i", "0b11", "1_000"}
	texts = []string{"hello", " ", "\n", "<p>", "&", "}", "x=", "f(x) {x}", "a{b", ", ", "\t", "é"}
	// htmlTexts are the text pieces of HTML templates: they move
	// html/template's escaper between its contexts (tags, attributes,
	// URLs, scripts, styles, comments, RCDATA).
	htmlTexts = []string{"hello", " ", "\n", "<p>", "</p>", "<a href=\"", "<a href='", "\">", "'>", ">", "<script>",
		"</script>", "<style>", "</style>", "<p title=\"", "<p title=", " onclick=\"", "<!-- ", " -->", "<textarea>",
		"</textarea>", "<title>", "</title>", "javascript:", "/* ", " */", "`", "<img src=", "url(", ")", "\\",
		"?q=", "#", "var x = ", ";", "'", "\"", "<div class=\"", "</div>", "color: ", "<svg>", "<math>", "<iframe srcdoc=\"",
		"&amp;", "é"}
	defNames   = []string{"a", "b", "c"}
	blockNames = []string{"b", "c", "d", "e"}
	// mistakes at the place of a node and of a command
	nodeMistakes = []string{"{{end}}", "{{else}}", "{{", "{{range}}", "{{$undefined}}", "{{nofunc}}", `{{"open}}`}
	cmdMistakes  = []string{"$undefined", "nofunc", ")", "|", ":=", `"open`}
	varNames     = []string{"$x", "$y", "$i", "$e"}
	maxDepth     = 4
	maxNodes     = 4
	mistakePm    = 8 // per mille, at each node and command
)

type writer struct {
	t       *gfz.T
	texts   []string // the text pieces
	b       strings.Builder
	scopes  [][]string // declared variables, innermost last
	inRange int
	defined map[string]bool // template names defined or being defined
	// callable are the templates whose definitions are complete: a
	// template calls only those (and "missing", an execution error), so
	// that no template recurses. A recursive template runs to
	// text/template's depth limit of 100,000 calls, and one whose
	// argument grows with the depth exhausts memory: templates are
	// trusted code, and a fuzzer finding that finds nothing a program
	// would care about.
	callable []string
}

// separate runs body as the body of a template of its own (a define or a
// block): no variables but $ in scope, not inside a range.
func (w *writer) separate(body func()) {
	scopes, inRange := w.scopes, w.inRange
	w.scopes, w.inRange = [][]string{nil}, 0
	body()
	w.scopes, w.inRange = scopes, inRange
}

func (w *writer) pick(s []string) string { return s[gen.IntRange(0, len(s)-1).Draw(w.t)] }

func (w *writer) chance(perMille int) bool { return gen.IntRange(0, 999).Draw(w.t) < perMille }

func (w *writer) mistake(list []string) bool {
	if w.chance(mistakePm) {
		w.b.WriteString(w.pick(list))
		return true
	}
	return false
}

func (w *writer) open() {
	if w.chance(150) {
		w.b.WriteString("{{- ")
	} else {
		w.b.WriteString("{{")
	}
}

func (w *writer) close() {
	if w.chance(150) {
		w.b.WriteString(" -}}")
	} else {
		w.b.WriteString("}}")
	}
}

func (w *writer) vars() []string {
	vs := []string{"$"}
	for _, s := range w.scopes {
		vs = append(vs, s...)
	}
	return vs
}

func (w *writer) declare(v string) { w.scopes[len(w.scopes)-1] = append(w.scopes[len(w.scopes)-1], v) }

func (w *writer) push() { w.scopes = append(w.scopes, nil) }

func (w *writer) pop() { w.scopes = w.scopes[:len(w.scopes)-1] }

// list writes up to maxNodes nodes.
func (w *writer) list(depth int) {
	n := gen.IntRange(0, maxNodes).Draw(w.t)
	for i := 0; i < n; i++ {
		w.node(depth)
	}
}

func (w *writer) node(depth int) {
	if w.mistake(nodeMistakes) {
		return
	}
	hi := 10
	if depth >= maxDepth {
		hi = 3
	}
	switch gen.IntRange(0, hi).Draw(w.t) {
	case 0, 1:
		w.b.WriteString(w.pick(w.texts))
	case 2, 3:
		w.action(depth)
	case 4:
		w.open()
		w.b.WriteString("/* " + w.pick(w.texts) + " */")
		w.close()
	case 5:
		w.ifNode(depth)
	case 6:
		w.rangeNode(depth)
	case 7:
		w.withNode(depth)
	case 8:
		w.open()
		w.b.WriteString(`template "` + w.pick(append([]string{"missing"}, w.callable...)) + `"`)
		if w.chance(700) {
			w.b.WriteString(" ")
			w.pipeline(depth+1, false)
		}
		w.close()
	case 9:
		name := w.pick(blockNames)
		if w.defined[name] {
			w.action(depth)
			return
		}
		w.defined[name] = true
		w.open()
		w.b.WriteString(`block "` + name + `" `)
		w.pipeline(depth+1, false)
		w.close()
		w.separate(func() { w.body(depth) })
		w.end()
		w.callable = append(w.callable, name)
	case 10:
		if w.inRange > 0 {
			w.open()
			w.b.WriteString(w.pick([]string{"break", "continue"}))
			w.close()
		} else {
			w.action(depth)
		}
	}
}

func (w *writer) end() {
	w.open()
	w.b.WriteString("end")
	w.close()
}

// body writes a list in a scope of its own.
func (w *writer) body(depth int) {
	w.push()
	w.list(depth + 1)
	w.pop()
}

func (w *writer) action(depth int) {
	w.open()
	w.pipeline(depth+1, true)
	w.close()
}

func (w *writer) ifNode(depth int) {
	w.push()
	w.open()
	w.b.WriteString("if ")
	w.pipeline(depth+1, true)
	w.close()
	w.list(depth + 1)
	for gen.Bool().Draw(w.t) {
		w.open()
		switch gen.IntRange(0, 2).Draw(w.t) {
		case 0:
			w.b.WriteString("else if ")
			w.pipeline(depth+1, false)
			w.close()
			w.list(depth + 1)
			continue
		default:
			w.b.WriteString("else")
			w.close()
			w.list(depth + 1)
		}
		break
	}
	w.pop()
	w.end()
}

func (w *writer) rangeNode(depth int) {
	w.push()
	w.open()
	w.b.WriteString("range ")
	var decl []string
	switch gen.IntRange(0, 3).Draw(w.t) {
	case 0:
		w.b.WriteString("$i, $e := ")
		decl = []string{"$i", "$e"}
	case 1:
		w.b.WriteString("$e := ")
		decl = []string{"$e"}
	}
	w.pipeline(depth+1, false)
	for _, v := range decl {
		w.declare(v) // in scope after the pipeline
	}
	w.close()
	w.inRange++
	w.list(depth + 1)
	w.inRange--
	if gen.Bool().Draw(w.t) {
		w.open()
		w.b.WriteString("else")
		w.close()
		w.list(depth + 1)
	}
	w.pop()
	w.end()
}

func (w *writer) withNode(depth int) {
	w.push()
	w.open()
	w.b.WriteString("with ")
	w.pipeline(depth+1, true)
	w.close()
	w.list(depth + 1)
	if gen.Bool().Draw(w.t) {
		w.open()
		if gen.Bool().Draw(w.t) {
			w.b.WriteString("else with ")
			w.pipeline(depth+1, false)
			w.close()
			w.list(depth + 1)
			w.open()
		}
		w.b.WriteString("else")
		w.close()
		w.list(depth + 1)
	}
	w.pop()
	w.end()
}

// pipeline writes an optional declaration or assignment, a command and
// up to two piped commands.
func (w *writer) pipeline(depth int, decl bool) {
	if decl && w.chance(150) {
		if vs := w.vars(); len(vs) > 1 && gen.Bool().Draw(w.t) {
			w.b.WriteString(w.pick(vs[1:]) + " = ")
		} else {
			v := w.pick(varNames)
			w.b.WriteString(v + " := ")
			defer w.declare(v) // in scope after the pipeline
		}
	}
	w.command(depth, false)
	for i := gen.IntRange(0, 2).Draw(w.t); i > 0; i-- {
		w.b.WriteString(" | ")
		w.command(depth, true)
	}
}

// command writes a function call, a method call or an operand; a piped
// command gets the previous result as its last argument.
func (w *writer) command(depth int, piped bool) {
	if w.mistake(cmdMistakes) {
		return
	}
	switch gen.IntRange(0, 3).Draw(w.t) {
	case 0, 1:
		w.b.WriteString(w.pick(funcNames))
		for i := gen.IntRange(0, 3).Draw(w.t); i > 0; i-- {
			w.b.WriteString(" ")
			w.operand(depth)
		}
	case 2:
		w.b.WriteString(w.pick([]string{".Label", ".Ptr.Label", ".Fn", "$.Items"}))
		if gen.Bool().Draw(w.t) {
			w.b.WriteString(" ")
			w.operand(depth)
		}
	default:
		if piped {
			w.b.WriteString(w.pick(funcNames))
			return
		}
		w.operand(depth)
	}
}

func (w *writer) operand(depth int) {
	hi := 3
	if depth >= maxDepth {
		hi = 2
	}
	switch gen.IntRange(0, hi).Draw(w.t) {
	case 0:
		w.b.WriteString(w.pick(fields))
	case 1:
		v := w.pick(w.vars())
		if v != "$" && gen.Bool().Draw(w.t) {
			v += w.pick([]string{".Name", ".Count", ".one", ".Tags"})
		}
		w.b.WriteString(v)
	case 2:
		w.b.WriteString(w.pick(literals))
	case 3:
		w.b.WriteString("(")
		w.pipeline(depth+1, false)
		w.b.WriteString(")")
	}
}

// templateGen and htmlGen are the generators: up to two definitions, then
// the body, with text pieces for text/template and for html/template.
var (
	templateGen = gen.Custom(func(t *gfz.T) string { return write(t, texts) }).Named("template")
	htmlGen     = gen.Custom(func(t *gfz.T) string { return write(t, htmlTexts) }).Named("html template")
)

func write(t *gfz.T, texts []string) string {
	w := &writer{t: t, texts: texts, defined: map[string]bool{}}
	w.push()
	for i := gen.IntRange(0, 2).Draw(t); i > 0; i-- {
		name := w.pick(defNames)
		if w.defined[name] {
			continue
		}
		w.defined[name] = true
		w.b.WriteString(`{{define "` + name + `"}}`)
		w.separate(func() { w.body(1) })
		w.b.WriteString("{{end}}")
		w.callable = append(w.callable, name)
	}
	w.list(0)
	return w.b.String()
}
