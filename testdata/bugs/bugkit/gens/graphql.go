package gens

import (
	"sort"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// GraphQLType describes one named type of the caller's schema, as the
// query generator needs it.
type GraphQLType struct {
	Name string
	// Kind is "OBJECT", "INTERFACE", "UNION", "ENUM", "INPUT_OBJECT" or
	// "SCALAR".
	Kind string
	// Fields of an object or interface, input fields of an input object.
	Fields []GraphQLField
	// PossibleTypes are the object types an interface or union may be.
	PossibleTypes []string
	// Values of an enum.
	Values []string
}

// GraphQLField is a field (or an input field, or an argument): its name,
// its type as written in the schema ("[Episode]!", "ID!") and, for a
// field, its arguments.
type GraphQLField struct {
	Name string
	Type string
	Args []GraphQLField
}

// GraphQLConfig tunes GraphQLQuery.
type GraphQLConfig struct {
	// Types are the schema's named types (built-in scalars may be left
	// out); Query, Mutation and Subscription name the root types (empty:
	// the schema has no such operation).
	Types                         []GraphQLType
	Query, Mutation, Subscription string
	// Directives are the executable directives besides @skip and
	// @include, with their arguments.
	Directives []GraphQLField
	MaxDepth   int // nesting of selection sets; default 4
	// MistakesPer is the per mille of documents passed through Corrupt;
	// default 0.
	MistakesPer int
}

func (c GraphQLConfig) withDefaults() GraphQLConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 4
	}
	if c.Query == "" && len(c.Types) == 0 {
		c.Query = "Query"
		c.Types = []GraphQLType{{Name: "Query", Kind: "OBJECT", Fields: []GraphQLField{
			{Name: "a", Type: "Int"}, {Name: "b", Type: "String", Args: []GraphQLField{{Name: "x", Type: "Int"}}},
		}}}
	}
	return c
}

type gqlWriter struct {
	t     *gfz.T
	cfg   GraphQLConfig
	types map[string]*GraphQLType
	all   []GraphQLField    // every field of every type, for fields asked of the wrong type
	frags []gqlFrag         // fragments of the document defined so far
	vars  map[string]string // variables used so far, with their types
	avail int               // fragments frags[avail:] may be spread (no cycles)
}

type gqlFrag struct{ name, on string }

var (
	gqlNames   = gen.Tokens("a", "b", "id", "x", "node", "item", "first", "value", "hero", "data")
	gqlStrChar = gen.OneOfWeighted(
		gen.W(8, gen.StringFrom("abcXYZ 019-_.,:", 1, 1)),
		gen.W(1, gen.Tokens(`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\u0041`, "é", "☃")),
	)
	gqlBuiltinScalars = []string{"Int", "Float", "String", "Boolean", "ID"}
)

func (w *gqlWriter) ws() string {
	return gen.Tokens(" ", " ", " ", "\n", ", ", "\n  ", "\t", " # note\n").Draw(w.t)
}

func (w *gqlWriter) name() string { return gqlNames.Draw(w.t) }

// named returns the named type of a type reference: "[Episode!]!" is
// Episode.
func gqlNamed(typ string) string { return strings.Trim(typ, "[]!") }

func (w *gqlWriter) str() string {
	if gen.IntRange(0, 5).Draw(w.t) == 0 {
		var b strings.Builder
		b.WriteString(`"""`)
		for range gen.IntRange(0, 3).Draw(w.t) {
			b.WriteString(gen.Tokens("line", "\n", "  indented", `\"""`, `"quoted"`, "\r\n", "").Draw(w.t))
		}
		b.WriteString(`"""`)
		return b.String()
	}
	var b strings.Builder
	b.WriteByte('"')
	for range gen.IntRange(0, 6).Draw(w.t) {
		b.WriteString(gqlStrChar.Draw(w.t))
	}
	b.WriteByte('"')
	return b.String()
}

// value draws a value for a type reference: mostly one of that type,
// sometimes any literal or a variable.
func (w *gqlWriter) value(typ string, depth int) string {
	if gen.IntRange(0, 7).Draw(w.t) == 0 {
		// a variable, declared by the operation with this type
		name := gen.Tokens("v", "id", "ep", "n").Draw(w.t)
		if old, ok := w.vars[name]; ok && old != typ {
			name += itoa(len(w.vars))
		}
		w.vars[name] = typ
		return "$" + name
	}
	if gen.IntRange(0, 29).Draw(w.t) == 0 {
		return w.anyValue(depth)
	}
	if strings.HasPrefix(typ, "[") {
		elem := strings.TrimSuffix(typ, "!")
		elem = elem[1 : len(elem)-1]
		if gen.IntRange(0, 3).Draw(w.t) == 0 {
			return w.value(elem, depth) // a single value for a list
		}
		items := make([]string, gen.IntRange(0, 3).Draw(w.t))
		for i := range items {
			items[i] = w.value(elem, depth-1)
		}
		return "[" + strings.Join(items, gen.Tokens(", ", " ", ",").Draw(w.t)) + "]"
	}
	if !strings.HasSuffix(typ, "!") && gen.IntRange(0, 7).Draw(w.t) == 0 {
		return "null"
	}
	switch n := gqlNamed(typ); n {
	case "Int":
		return gen.Tokens("0", "1", "-1", "42", "2147483647", "-2147483648", "10").Draw(w.t)
	case "Float":
		return gen.Tokens("0.5", "1", "-2.5e3", "1E10", "3.14", "0.0").Draw(w.t)
	case "String", "ID":
		if n == "ID" && gen.Bool().Draw(w.t) {
			return gen.Tokens("1", "1000", "2001").Draw(w.t)
		}
		return w.str()
	case "Boolean":
		return gen.Tokens("true", "false").Draw(w.t)
	default:
		def := w.types[n]
		switch {
		case def == nil:
			return w.anyValue(depth)
		case def.Kind == "ENUM" && len(def.Values) > 0:
			return gen.Tokens(def.Values...).Draw(w.t)
		case def.Kind == "INPUT_OBJECT":
			if depth <= 0 {
				return "{}"
			}
			var fields []string
			for _, f := range def.Fields {
				if strings.HasSuffix(f.Type, "!") || gen.Bool().Draw(w.t) {
					fields = append(fields, f.Name+": "+w.value(f.Type, depth-1))
				}
			}
			return "{" + strings.Join(fields, gen.Tokens(", ", " ").Draw(w.t)) + "}"
		default:
			return w.str()
		}
	}
}

// anyValue draws a literal of any kind.
func (w *gqlWriter) anyValue(depth int) string {
	switch gen.IntRange(0, 7).Draw(w.t) {
	case 0:
		return gen.Tokens("0", "-7", "1.5", "6.02e23").Draw(w.t)
	case 1:
		return w.str()
	case 2:
		return gen.Tokens("true", "false", "null").Draw(w.t)
	case 3:
		return gen.Tokens("RED", "JEDI", "A").Draw(w.t)
	case 4:
		if depth > 0 {
			return "[" + w.anyValue(depth-1) + "]"
		}
		return "[]"
	case 5:
		if depth > 0 {
			return "{" + w.name() + ": " + w.anyValue(depth-1) + "}"
		}
		return "{}"
	default:
		return "$" + w.name() // an undeclared variable
	}
}

func (w *gqlWriter) args(defs []GraphQLField, depth int) string {
	var args []string
	for _, a := range defs {
		if strings.HasSuffix(a.Type, "!") || gen.IntRange(0, 2).Draw(w.t) == 0 {
			args = append(args, a.Name+": "+w.value(a.Type, depth))
		}
	}
	if gen.IntRange(0, 39).Draw(w.t) == 0 {
		args = append(args, w.name()+": "+w.anyValue(depth))
	}
	if len(args) == 0 {
		return ""
	}
	return "(" + strings.Join(args, gen.Tokens(", ", " ", ",").Draw(w.t)) + ")"
}

func (w *gqlWriter) directives(depth int) string {
	var b strings.Builder
	for range gen.IntRange(0, 4).Draw(w.t) / 3 {
		i := gen.IntRange(0, len(w.cfg.Directives)+1).Draw(w.t)
		b.WriteString(" ")
		switch {
		case i < len(w.cfg.Directives):
			d := w.cfg.Directives[i]
			b.WriteString("@" + d.Name + w.args(d.Args, depth))
		default:
			b.WriteString(gen.Tokens("@include", "@skip").Draw(w.t) + "(if: " + w.value("Boolean!", depth) + ")")
		}
	}
	return b.String()
}

// rareDirectives draws the directives of an operation or a fragment
// definition: seldom any (@skip and @include are not allowed there).
func (w *gqlWriter) rareDirectives() string {
	if gen.IntRange(0, 19).Draw(w.t) > 0 {
		return ""
	}
	return w.directives(1)
}

// possible returns the object types a composite type may be.
func (w *gqlWriter) possible(def *GraphQLType) []string {
	if def.Kind == "OBJECT" {
		return []string{def.Name}
	}
	return def.PossibleTypes
}

// overlap reports whether a fragment on type on may be spread in a
// selection set of def: their possible types intersect.
func (w *gqlWriter) overlap(def *GraphQLType, on string) bool {
	o := w.types[on]
	if o == nil {
		return false
	}
	for _, a := range w.possible(def) {
		for _, b := range w.possible(o) {
			if a == b {
				return true
			}
		}
	}
	return false
}

// selectionSet draws "{ ... }" for the composite type typ.
func (w *gqlWriter) selectionSet(typ string, depth int) string {
	def := w.types[typ]
	n := gen.IntRange(1, 4).Draw(w.t)
	if typ == w.cfg.Subscription {
		n = 1 // a subscription selects one root field
	}
	sels := make([]string, 0, n)
	seen := map[string]bool{}
	for range n {
		sel, resp := w.selection(def, depth)
		if resp != "" && seen[resp] && gen.IntRange(0, 9).Draw(w.t) > 0 {
			// another field of the same response name: mostly aliased,
			// since fields of one name must be the same field with the
			// same arguments
			sel = resp + itoa(len(sels)) + ": " + strings.TrimPrefix(sel, resp+": ")
		}
		seen[resp] = true
		sels = append(sels, sel)
	}
	return "{" + w.ws() + strings.Join(sels, w.ws()) + w.ws() + "}"
}

// selection draws a selection of a selection set of def, and returns it
// with its response name ("" for a fragment).
func (w *gqlWriter) selection(def *GraphQLType, depth int) (string, string) {
	var fields []GraphQLField
	if def != nil {
		fields = def.Fields
	}
	switch k := gen.IntRange(0, 11).Draw(w.t); {
	case k == 0 && def != nil && len(w.possible(def)) > 0 && depth > 0:
		// inline fragment on a possible type, the type itself or none
		cond := ""
		switch gen.IntRange(0, 3).Draw(w.t) {
		case 0, 1:
			cond = " on " + gen.Tokens(w.possible(def)...).Draw(w.t)
		case 2:
			cond = " on " + def.Name
		}
		inner := def.Name
		if cond != "" {
			inner = strings.TrimPrefix(cond, " on ")
		}
		return "..." + cond + w.directives(depth) + " " + w.selectionSet(inner, depth-1), ""
	case k == 1 && w.avail < len(w.frags):
		// a fragment defined earlier whose type may overlap this one
		f := w.frags[gen.IntRange(w.avail, len(w.frags)-1).Draw(w.t)]
		if def != nil && !w.overlap(def, f.on) {
			f = w.frags[w.avail]
		}
		return "..." + f.name + w.directives(depth), ""
	case len(fields) == 0 && k < 6 && def != nil && len(w.possible(def)) > 0 && depth > 0:
		on := gen.Tokens(w.possible(def)...).Draw(w.t)
		return "... on " + on + " " + w.selectionSet(on, depth-1), ""
	case k == 2 || len(fields) == 0:
		resp := "__typename"
		if gen.IntRange(0, 3).Draw(w.t) == 0 {
			resp = w.name()
			return resp + ": __typename" + w.directives(depth), resp
		}
		return resp + w.directives(depth), resp
	}
	f := fields[gen.IntRange(0, len(fields)-1).Draw(w.t)]
	if len(w.all) > 0 && gen.IntRange(0, 49).Draw(w.t) == 0 {
		f = w.all[gen.IntRange(0, len(w.all)-1).Draw(w.t)] // a field of another type
	}
	var b strings.Builder
	resp := f.Name
	if gen.IntRange(0, 4).Draw(w.t) == 0 {
		resp = w.name()
		b.WriteString(resp + ": ")
	}
	b.WriteString(f.Name)
	b.WriteString(w.args(f.Args, 2))
	b.WriteString(w.directives(1))
	if sub := w.types[gqlNamed(f.Type)]; sub != nil && (sub.Kind == "OBJECT" || sub.Kind == "INTERFACE" || sub.Kind == "UNION") {
		if depth > 0 {
			b.WriteString(" " + w.selectionSet(sub.Name, depth-1))
		} else {
			b.WriteString(" { __typename }")
		}
	}
	return b.String(), resp
}

// variableDefs declares the variables used so far, mostly with the type
// of their use, sometimes with another input type.
func (w *gqlWriter) variableDefs() string {
	if len(w.vars) == 0 {
		return ""
	}
	var inputs []string
	for _, d := range w.cfg.Types {
		if d.Kind == "ENUM" || d.Kind == "INPUT_OBJECT" || d.Kind == "SCALAR" {
			inputs = append(inputs, d.Name)
		}
	}
	inputs = append(inputs, gqlBuiltinScalars...)
	names := make([]string, 0, len(w.vars))
	for v := range w.vars {
		names = append(names, v)
	}
	sort.Strings(names)
	defs := make([]string, len(names))
	for i, v := range names {
		typ := w.vars[v]
		if gen.IntRange(0, 9).Draw(w.t) == 0 {
			typ = gen.Tokens(inputs...).Draw(w.t)
			switch gen.IntRange(0, 3).Draw(w.t) {
			case 0:
				typ = "[" + typ + "]"
			case 1:
				typ += "!"
			}
		}
		defs[i] = "$" + v + ": " + typ
		if !strings.HasSuffix(typ, "!") && gen.IntRange(0, 2).Draw(w.t) == 0 {
			defs[i] += " = " + w.value(typ, 1)
		}
	}
	return "(" + strings.Join(defs, ", ") + ")"
}

func (w *gqlWriter) operation() string {
	var roots []string
	kinds := map[string]string{w.cfg.Query: "query", w.cfg.Mutation: "mutation", w.cfg.Subscription: "subscription"}
	for _, r := range []string{w.cfg.Query, w.cfg.Mutation, w.cfg.Subscription} {
		if r != "" && w.types[r] != nil {
			roots = append(roots, r)
		}
	}
	if len(roots) == 0 {
		return "{ __typename }"
	}
	root := gen.Tokens(roots...).Draw(w.t)
	sel := w.selectionSet(root, w.cfg.MaxDepth-1)
	if root == w.cfg.Query && len(w.vars) == 0 && gen.IntRange(0, 2).Draw(w.t) == 0 {
		return sel // the query shorthand
	}
	head := kinds[root]
	if gen.IntRange(0, 3).Draw(w.t) > 0 {
		head += " " + gen.Tokens("Q", "Hero", "op", "GetData", "M").Draw(w.t)
	}
	return head + w.variableDefs() + w.rareDirectives() + " " + sel
}

func (w *gqlWriter) fragment(name string) (string, string) {
	var composite []string
	for _, d := range w.cfg.Types {
		if d.Kind == "OBJECT" || d.Kind == "INTERFACE" || d.Kind == "UNION" {
			composite = append(composite, d.Name)
		}
	}
	if len(composite) == 0 {
		return "", ""
	}
	on := gen.Tokens(composite...).Draw(w.t)
	return "fragment " + name + " on " + on + w.rareDirectives() + " " + w.selectionSet(on, w.cfg.MaxDepth-2), on
}

// document draws an executable document: operations (named, with
// variables, or the query shorthand) and fragment definitions.
func (w *gqlWriter) document() string {
	// Fragments first, each spreading only those drawn before it (a
	// fragment that spreads itself is a cycle), then the operations,
	// which declare the variables used.
	w.vars = map[string]string{}
	var defs []string
	for i := range gen.IntRange(0, 3).Draw(w.t) * 2 / 3 {
		name := []string{"F", "Parts", "more"}[i]
		if d, on := w.fragment(name); d != "" {
			w.frags = append([]gqlFrag{{name, on}}, w.frags...)
			defs = append(defs, d)
		}
	}
	w.avail = 0
	defs = append(defs, w.operation())
	if gen.IntRange(0, 5).Draw(w.t) == 0 {
		defs = append(defs, w.operation())
	}
	// the order of definitions does not matter
	if len(defs) > 1 && gen.Bool().Draw(w.t) {
		defs[0], defs[len(defs)-1] = defs[len(defs)-1], defs[0]
	}
	return strings.Join(defs, gen.Tokens("\n\n", "\n", " ").Draw(w.t))
}

// GraphQLQuery generates GraphQL executable documents against the caller's
// schema: operations (query, mutation, subscription, the query shorthand)
// with names, variable definitions (the variables the document uses,
// mostly with the type of their use) and default values, directives,
// selection sets of the type's fields (mostly; sometimes a field of
// another type), __typename, aliases (a repeated response name is mostly
// aliased), arguments with values of their types (sometimes any literal:
// numbers, strings and block strings with escapes, booleans, null, enums,
// lists, input objects, undeclared variables), inline fragments with and
// without type conditions, fragment definitions and spreads of fragments
// defined before (no cycles), commas and comments; MistakesPer per mille
// go through Corrupt.
func GraphQLQuery(cfg GraphQLConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	types := map[string]*GraphQLType{}
	var all []GraphQLField
	for i := range cfg.Types {
		types[cfg.Types[i].Name] = &cfg.Types[i]
		if k := cfg.Types[i].Kind; k == "OBJECT" || k == "INTERFACE" {
			all = append(all, cfg.Types[i].Fields...)
		}
	}
	return gen.Custom(func(t *gfz.T) string {
		w := &gqlWriter{t: t, cfg: cfg, types: types, all: all}
		return Corrupt(t, w.document(), cfg.MistakesPer)
	})
}
