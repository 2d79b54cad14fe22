package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// CELVar is a variable the host declares for CEL expressions: its name
// and its CEL type, spelled "int", "uint", "double", "bool", "string",
// "bytes", "null", "timestamp", "duration", "dyn", "list(T)" or
// "map(K, V)" (an unknown spelling is taken as dyn).
type CELVar struct{ Name, Type string }

// CELConfig tunes CEL.
type CELConfig struct {
	MaxDepth int // nesting of expressions; default 4
	// Vars are the declared variables; empty: a few generic ones.
	Vars []CELVar
	// Keys are map keys and field names of the variables' maps (member
	// selections, has(), index keys); Words are string values the host's
	// data holds, used in string literals half of the time. Empty: a few
	// generic ones.
	Keys, Words []string
	// Strings, Encoders and Math add the calls of the extension libraries
	// of the same names (ext.Strings, ext.Encoders, ext.Math) the host
	// enables.
	Strings, Encoders, Math bool
	MistakesPer             int // per mille of expressions passed through Corrupt; default 0
}

func (c CELConfig) withDefaults() CELConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 4
	}
	if len(c.Vars) == 0 {
		c.Vars = []CELVar{{"a", "int"}, {"s", "string"}, {"l", "list(int)"}, {"m", "map(string, dyn)"}}
	}
	if len(c.Keys) == 0 {
		c.Keys = []string{"a", "b", "name", "id"}
	}
	if len(c.Words) == 0 {
		c.Words = []string{"a", "foo", "bar"}
	}
	return c
}

// celType is a CEL type as the generator tracks it: a kind letter and,
// for lists and maps, the element (value) and key types.
type celType struct {
	kind      byte
	elem, key *celType
}

// The kinds of celType.
const (
	ckInt   = 'i'
	ckUint  = 'u'
	ckDbl   = 'd'
	ckBool  = 'b'
	ckStr   = 's'
	ckBytes = 'y'
	ckNull  = 'n'
	ckTime  = 't'
	ckDur   = 'D'
	ckDyn   = 'x'
	ckList  = 'l'
	ckMap   = 'm'
)

var (
	celDynT  = &celType{kind: ckDyn}
	celStrT  = &celType{kind: ckStr}
	celIntT  = &celType{kind: ckInt}
	celBoolT = &celType{kind: ckBool}
	// celScalars are the kinds of list elements, map values and operands
	// the generator draws; celKeys the kinds a map key can have.
	celScalars = []byte{ckInt, ckUint, ckDbl, ckBool, ckStr, ckBytes, ckNull, ckTime, ckDur, ckDyn}
	celKeys    = []byte{ckInt, ckUint, ckBool, ckStr}
)

// parseCELType reads a type as CELVar spells it.
func parseCELType(s string) *celType {
	s = strings.TrimSpace(s)
	switch s {
	case "int":
		return &celType{kind: ckInt}
	case "uint":
		return &celType{kind: ckUint}
	case "double":
		return &celType{kind: ckDbl}
	case "bool":
		return &celType{kind: ckBool}
	case "string":
		return &celType{kind: ckStr}
	case "bytes":
		return &celType{kind: ckBytes}
	case "null":
		return &celType{kind: ckNull}
	case "timestamp":
		return &celType{kind: ckTime}
	case "duration":
		return &celType{kind: ckDur}
	}
	if strings.HasPrefix(s, "list(") && strings.HasSuffix(s, ")") {
		return &celType{kind: ckList, elem: parseCELType(s[5 : len(s)-1])}
	}
	if strings.HasPrefix(s, "map(") && strings.HasSuffix(s, ")") {
		inner := s[4 : len(s)-1]
		// the key type is a scalar: the first comma ends it
		if i := strings.IndexByte(inner, ','); i > 0 {
			return &celType{kind: ckMap, key: parseCELType(inner[:i]), elem: parseCELType(inner[i+1:])}
		}
	}
	return &celType{kind: ckDyn}
}

// same reports whether a and b are the same type (dyn matches only dyn).
func (a *celType) same(b *celType) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case ckList:
		return a.elem.same(b.elem)
	case ckMap:
		return a.key.same(b.key) && a.elem.same(b.elem)
	}
	return true
}

// celVar is a name in scope: a declared variable or a macro's
// iteration variable.
type celVar struct {
	name string
	t    *celType
}

var (
	celIterNames = []string{"x", "y", "e", "v", "k", "item", "i"}
	celStrChars  = gen.OneOfWeighted(
		gen.W(8, gen.StringFrom("abcxyz ABC019-_./:@", 0, 6)),
		gen.W(2, gen.Tokens(`\n`, `\t`, `\\`, `\"`, `\'`, `\x41`, `\101`, `\u00e9`, `\U0001F600`, "é", "水", "%", "`")),
	)
	celBytesChars = gen.OneOfWeighted(
		gen.W(6, gen.StringFrom("abcxyz 019-_./", 0, 5)),
		gen.W(3, gen.Tokens(`\x00`, `\xff`, `\377`, `\000`, `\n`, `\\`, `\"`, `\'`, "ÿ", "é")),
	)
	celInt = gen.OneOfWeighted(
		gen.W(6, gen.Map(gen.IntRange(0, 20), itoa)),
		gen.W(2, gen.Tokens("100", "255", "1024", "65536", "0x1F", "0xff", "2147483648", "9223372036854775807", "-1", "-9223372036854775808")),
	)
	celDouble = gen.Tokens("0.0", "1.5", "3.14", "2.0", ".5", "1e3", "2.5e-3", "-0.25", "1e100", "100.0", "0.1", "6.02E23")
	celTimes  = gen.Tokens(`"2023-01-02T03:04:05Z"`, `'1970-01-01T00:00:00Z'`, `"2024-02-29T12:30:00.5+01:00"`,
		`"2009-02-13T23:31:30Z"`, `"0001-01-01T00:00:00Z"`, `"9999-12-31T23:59:59Z"`, `"2023-06-15T08:00:00-07:00"`)
	celDurs      = gen.Tokens(`"1h"`, `"30m"`, `"90s"`, `"1.5h"`, `"-2m"`, `"1h30m"`, `"100ms"`, `"0s"`, `"10us"`, `"86400s"`)
	celZones     = gen.Tokens(`"UTC"`, `"America/New_York"`, `"Europe/Paris"`, `"+05:30"`, `"-08:00"`, `"Asia/Tokyo"`)
	celRegexps   = gen.Tokens(`"^a"`, `"[a-z]+"`, `"\\d+"`, `'^[a-z0-9._-]+@example\\.com$'`, `"(foo|bar)"`, `r"\w+"`, `"b$"`, `".*"`)
	celTypeNames = gen.Tokens("int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type",
		"google.protobuf.Timestamp", "google.protobuf.Duration")
	celTimeGetters = []string{"getFullYear", "getMonth", "getDate", "getDayOfMonth", "getDayOfWeek", "getDayOfYear",
		"getHours", "getMinutes", "getSeconds", "getMilliseconds"}
	celDurGetters = []string{"getHours", "getMinutes", "getSeconds", "getMilliseconds"}
)

type celWriter struct {
	t     *gfz.T
	cfg   CELConfig
	scope []celVar // declared variables, then the macros' iteration variables (innermost last)
}

func (w *celWriter) pick(n int) int { return gen.IntRange(0, n-1).Draw(w.t) }

func (w *celWriter) chance(in int) bool { return gen.IntRange(0, in-1).Draw(w.t) == 0 }

// sp draws the spacing around a binary operator.
func (w *celWriter) sp() string {
	if w.chance(8) {
		return ""
	}
	return " "
}

// celPrec returns the precedence of the loosest operator at the top level
// of the expression s (outside brackets and literals), as the grammar
// ranks them: 0 the conditional, 1 ||, 2 &&, 3 the relations and "in", 4
// binary + and -, 5 * / %, 6 a unary operator in front, 7 none (a
// primary or member expression).
func celPrec(s string) int {
	prec := 7
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "!") {
		prec = 6
	}
	depth := 0
	operand := false // whether what precedes can end an operand
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\'', '"':
			q := s[i : i+1]
			if strings.HasPrefix(s[i:], q+q+q) {
				q = q + q + q
			}
			j := i + len(q)
			for j < len(s) && !strings.HasPrefix(s[j:], q) {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = j + len(q) - 1
			operand = true
			continue
		case '(', '[', '{':
			depth++
			continue
		case ')', ']', '}':
			depth--
			operand = true
			continue
		}
		if depth > 0 || c == ' ' {
			continue
		}
		p := -1
		switch c {
		case '?', ':':
			p = 0
		case '|':
			p, i = 1, i+1
		case '&':
			p, i = 2, i+1
		case '=', '<', '>':
			p = 3
		case '!':
			if i+1 < len(s) && s[i+1] == '=' {
				p = 3
			}
		case '+', '-':
			// binary after an operand, but not the sign of an exponent
			if operand && !(i >= 2 && (s[i-1] == 'e' || s[i-1] == 'E') && s[i-2] >= '0' && s[i-2] <= '9') {
				p = 4
			}
		case '*', '/', '%':
			p = 5
		case 'i':
			if i > 0 && s[i-1] == ' ' && strings.HasPrefix(s[i:], "in ") {
				p, i = 3, i+1
			}
		}
		if p >= 0 {
			prec = min(prec, p)
			operand = false
			continue
		}
		operand = c != '!' && c != '-' && c != '+'
	}
	return prec
}

// celParen parenthesizes s when its loosest operator binds looser than
// prec.
func celParen(s string, prec int) string {
	if celPrec(s) < prec {
		return "(" + s + ")"
	}
	return s
}

// bin writes the binary operation l op r for an operator of precedence p,
// parenthesizing the operands that bind looser: the right one at p too
// for the left-associative arithmetic, both at p for the relations
// (which do not chain).
func (w *celWriter) bin(l, op, r string, p int) string {
	lp, rp := p, p+1
	switch p {
	case 1, 2:
		rp = p
	case 3:
		lp = p + 1
	}
	sp := w.sp()
	if op == "in" {
		sp = " "
	}
	return celParen(l, lp) + sp + op + sp + celParen(r, rp)
}

// arith writes a binary arithmetic operation on operands of type t, the
// operator drawn from ops.
func (w *celWriter) arith(t *celType, d int, ops ...string) string {
	op := gen.Tokens(ops...).Draw(w.t)
	p := 4
	if op == "*" || op == "/" || op == "%" {
		p = 5
	}
	return w.bin(w.expr(t, d), op, w.expr(t, d), p)
}

// logic writes a conjunction or a disjunction.
func (w *celWriter) logic(d int) string {
	if w.chance(2) {
		return w.bin(w.expr(celBoolT, d), "&&", w.expr(celBoolT, d), 2)
	}
	return w.bin(w.expr(celBoolT, d), "||", w.expr(celBoolT, d), 1)
}

// celEscape escapes the quote character q in body where it is not
// already escaped.
func celEscape(body string, q byte) string {
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			b.WriteByte('\\')
			if i+1 < len(body) {
				i++
				b.WriteByte(body[i])
			}
		case q:
			b.WriteByte('\\')
			b.WriteByte(q)
		default:
			b.WriteByte(body[i])
		}
	}
	return b.String()
}

// scalarType draws an element, operand or value type.
func (w *celWriter) scalarType() *celType {
	return &celType{kind: celScalars[w.pick(len(celScalars))]}
}

// anyType draws a type: a scalar mostly, a list or a map of scalars
// sometimes.
func (w *celWriter) anyType() *celType {
	switch w.pick(8) {
	case 0:
		return &celType{kind: ckList, elem: w.scalarType()}
	case 1:
		return &celType{kind: ckMap, key: &celType{kind: celKeys[w.pick(len(celKeys))]}, elem: w.scalarType()}
	}
	return w.scalarType()
}

// varsOf returns the names in scope of type t (the innermost
// definition of a name only).
func (w *celWriter) varsOf(t *celType) []string {
	var names []string
	seen := map[string]bool{}
	for i := len(w.scope) - 1; i >= 0; i-- {
		v := w.scope[i]
		if seen[v.name] {
			continue
		}
		seen[v.name] = true
		if v.t.same(t) {
			names = append(names, v.name)
		}
	}
	return names
}

// stringMaps returns the names in scope of map types whose keys are
// strings (selectable with a dot), with their types.
func (w *celWriter) stringMaps() []celVar {
	var out []celVar
	seen := map[string]bool{}
	for i := len(w.scope) - 1; i >= 0; i-- {
		v := w.scope[i]
		if seen[v.name] {
			continue
		}
		seen[v.name] = true
		if v.t.kind == ckMap && v.t.key.kind == ckStr {
			out = append(out, v)
		}
	}
	return out
}

func (w *celWriter) quoteStr(body string) string {
	switch w.pick(10) {
	case 0:
		return "'" + celEscape(body, '\'') + "'"
	case 1:
		return `"""` + body + `"""`
	case 2:
		return "r\"" + strings.NewReplacer(`\`, "", `"`, "").Replace(body) + "\""
	case 3:
		return "'''" + body + "'''"
	}
	return `"` + celEscape(body, '"') + `"`
}

func (w *celWriter) strLit() string {
	var body string
	if w.chance(2) {
		body = gen.Tokens(w.cfg.Words...).Draw(w.t)
	} else {
		var b strings.Builder
		for range w.pick(3) {
			b.WriteString(celStrChars.Draw(w.t))
		}
		body = b.String()
	}
	return w.quoteStr(body)
}

func (w *celWriter) bytesLit() string {
	var b strings.Builder
	for range w.pick(3) {
		b.WriteString(celBytesChars.Draw(w.t))
	}
	body := b.String()
	switch w.pick(6) {
	case 0:
		return "b'" + celEscape(body, '\'') + "'"
	case 1:
		return "B\"" + celEscape(body, '"') + "\""
	case 2:
		return "b'''" + body + "'''"
	case 3:
		return "rb\"" + strings.NewReplacer(`\`, "", `"`, "").Replace(body) + "\""
	}
	return "b\"" + celEscape(body, '"') + "\""
}

// literal writes a literal (or a constructor call for the types without
// literals) of type t.
func (w *celWriter) literal(t *celType, depth int) string {
	switch t.kind {
	case ckInt:
		return celInt.Draw(w.t)
	case ckUint:
		return gen.OneOfWeighted(gen.W(4, gen.Map(gen.IntRange(0, 20), itoa)), gen.W(1, gen.Tokens("0x10", "4294967295", "18446744073709551615"))).Draw(w.t) +
			gen.Tokens("u", "U").Draw(w.t)
	case ckDbl:
		return celDouble.Draw(w.t)
	case ckBool:
		return gen.Tokens("true", "false").Draw(w.t)
	case ckStr:
		return w.strLit()
	case ckBytes:
		return w.bytesLit()
	case ckNull:
		return "null"
	case ckTime:
		return "timestamp(" + celTimes.Draw(w.t) + ")"
	case ckDur:
		return "duration(" + celDurs.Draw(w.t) + ")"
	case ckList:
		return w.listLit(t, depth)
	case ckMap:
		return w.mapLit(t, depth)
	}
	// dyn: a literal of any scalar type
	return w.literal(&celType{kind: celScalars[w.pick(len(celScalars)-1)]}, depth)
}

func (w *celWriter) listLit(t *celType, depth int) string {
	elems := make([]string, w.pick(4))
	for i := range elems {
		elems[i] = w.expr(t.elem, depth-1)
	}
	s := "[" + strings.Join(elems, ", ")
	if len(elems) > 0 && w.chance(10) {
		s += ","
	}
	return s + "]"
}

func (w *celWriter) mapLit(t *celType, depth int) string {
	entries := make([]string, w.pick(4))
	for i := range entries {
		var k string
		if t.key.kind == ckStr && w.chance(2) {
			k = w.quoteStr(gen.Tokens(w.cfg.Keys...).Draw(w.t))
		} else {
			k = w.expr(t.key, depth-1)
		}
		entries[i] = k + ": " + w.expr(t.elem, depth-1)
	}
	return "{" + strings.Join(entries, ", ") + "}"
}

// expr writes an expression of type t (dyn: of any type).
func (w *celWriter) expr(t *celType, depth int) string {
	if t.kind == ckDyn && depth > 0 && w.chance(2) {
		u := w.anyType()
		if u.kind != ckDyn {
			e := w.expr(u, depth-1)
			if w.chance(3) {
				return "dyn(" + e + ")"
			}
			return e
		}
	}
	vars := w.varsOf(t)
	if depth <= 0 {
		if len(vars) > 0 && w.chance(2) {
			return gen.Tokens(vars...).Draw(w.t)
		}
		if t.kind == ckList || t.kind == ckMap {
			return w.literal(t, 1)
		}
		return w.literal(t, 0)
	}
	switch w.pick(12) {
	case 0, 1:
		if len(vars) > 0 {
			return gen.Tokens(vars...).Draw(w.t)
		}
		return w.literal(t, depth)
	case 2:
		return w.literal(t, depth)
	case 3:
		if w.chance(3) {
			return "(" + w.expr(t, depth-1) + ")"
		}
		return celParen(w.expr(celBoolT, depth-1), 1) + " ? " + celParen(w.expr(t, depth-1), 1) + " : " + w.expr(t, depth-1)
	case 4:
		return w.access(t, depth)
	}
	return w.typed(t, depth)
}

// access writes an element of a list, a value of a map, or a dyn value
// read out of a variable, of type t.
func (w *celWriter) access(t *celType, depth int) string {
	switch w.pick(4) {
	case 0:
		l := &celType{kind: ckList, elem: t}
		return w.operand(l, depth-1) + "[" + w.expr(celIntT, depth-2) + "]"
	case 1:
		m := &celType{kind: ckMap, key: &celType{kind: celKeys[w.pick(len(celKeys))]}, elem: t}
		if vs := w.varsOf(m); len(vs) > 0 || w.chance(3) {
			return w.operand(m, depth-1) + "[" + w.expr(m.key, depth-2) + "]"
		}
	}
	// a field of a map with string keys: typed like t when its values
	// are, else a dyn value used as t (the checker lets dyn through)
	maps := w.stringMaps()
	if len(maps) == 0 {
		return w.typed(t, depth)
	}
	var fit []celVar
	for _, m := range maps {
		if m.t.elem.same(t) || m.t.elem.kind == ckDyn {
			fit = append(fit, m)
		}
	}
	if len(fit) == 0 {
		return w.typed(t, depth)
	}
	m := fit[w.pick(len(fit))]
	key := gen.Tokens(w.cfg.Keys...).Draw(w.t)
	if w.chance(3) {
		return m.name + "[" + w.quoteStr(key) + "]"
	}
	return m.name + "." + key
}

// operand writes an expression of type t to use as the receiver of a
// call, an index or a selection: a variable, a literal or a
// parenthesized expression.
func (w *celWriter) operand(t *celType, depth int) string {
	if vs := w.varsOf(t); len(vs) > 0 && !w.chance(3) {
		return gen.Tokens(vs...).Draw(w.t)
	}
	return celParen(w.expr(t, depth), 7)
}

// withIter writes body with an iteration variable of type t in scope.
func (w *celWriter) withIter(t *celType, body func(v string) string) string {
	v := celIterNames[w.pick(len(celIterNames))]
	w.scope = append(w.scope, celVar{v, t})
	s := body(v)
	w.scope = w.scope[:len(w.scope)-1]
	return s
}

// rangeOf draws a list or map to iterate over and the type of its
// iteration variable (the elements of a list, the keys of a map); elem,
// if not nil, is the list's element type.
func (w *celWriter) rangeOf(elem *celType, depth int) (string, *celType) {
	if elem == nil && w.chance(4) {
		m := &celType{kind: ckMap, key: &celType{kind: celKeys[w.pick(len(celKeys))]}, elem: w.scalarType()}
		return w.operand(m, depth), m.key
	}
	if elem == nil {
		elem = w.scalarType()
	}
	return w.operand(&celType{kind: ckList, elem: elem}, depth), elem
}

// typed writes an operator, a function call or a macro whose result has
// type t.
func (w *celWriter) typed(t *celType, depth int) string {
	d := depth - 1
	switch t.kind {
	case ckInt:
		return w.intExpr(d)
	case ckUint:
		if w.chance(4) {
			return "uint(" + w.expr(&celType{kind: []byte{ckInt, ckDbl, ckStr, ckUint}[w.pick(4)]}, d) + ")"
		}
		return w.arith(t, d, "+", "-", "*", "/", "%")
	case ckDbl:
		switch w.pick(5) {
		case 0:
			return "double(" + w.expr(&celType{kind: []byte{ckInt, ckUint, ckStr, ckDbl}[w.pick(4)]}, d) + ")"
		case 1:
			return "-" + celParen(w.expr(t, d), 6)
		case 2:
			if w.cfg.Math {
				return w.mathCall(t, d)
			}
		}
		return w.arith(t, d, "+", "-", "*", "/")
	case ckBool:
		return w.boolExpr(d)
	case ckStr:
		return w.strExpr(d)
	case ckBytes:
		switch w.pick(4) {
		case 0:
			return "bytes(" + w.expr(celStrT, d) + ")"
		case 1:
			if w.cfg.Encoders {
				return "base64.decode(" + w.expr(celStrT, d) + ")"
			}
		}
		return w.arith(t, d, "+")
	case ckNull:
		return "null"
	case ckTime:
		switch w.pick(3) {
		case 0:
			return "timestamp(" + w.expr(gen.SampledFrom(celStrT, celIntT).Draw(w.t), d) + ")"
		case 1:
			return w.bin(w.expr(&celType{kind: ckDur}, d), "+", w.expr(t, d), 4)
		}
		return w.bin(w.expr(t, d), gen.Tokens("+", "-").Draw(w.t), w.expr(&celType{kind: ckDur}, d), 4)
	case ckDur:
		switch w.pick(3) {
		case 0:
			return "duration(" + w.expr(celStrT, d) + ")"
		case 1:
			return w.bin(w.expr(&celType{kind: ckTime}, d), "-", w.expr(&celType{kind: ckTime}, d), 4)
		}
		return w.arith(t, d, "+", "-")
	case ckList:
		return w.listExpr(t, d)
	case ckMap:
		if w.chance(2) {
			return w.mapLit(t, depth)
		}
		return w.expr(t, d)
	}
	return w.expr(w.anyType(), d)
}

func (w *celWriter) intExpr(d int) string {
	switch w.pick(12) {
	case 0, 1:
		return w.arith(celIntT, d, "+", "-", "*", "/", "%")
	case 2:
		return "-" + celParen(w.expr(celIntT, d), 6)
	case 3:
		sized := &celType{kind: []byte{ckStr, ckBytes, ckList, ckMap}[w.pick(4)]}
		switch sized.kind {
		case ckList:
			sized.elem = w.scalarType()
		case ckMap:
			sized.key, sized.elem = &celType{kind: celKeys[w.pick(len(celKeys))]}, w.scalarType()
		}
		if w.chance(2) {
			return "size(" + w.expr(sized, d) + ")"
		}
		return w.operand(sized, d) + ".size()"
	case 4:
		return "int(" + w.expr(&celType{kind: []byte{ckUint, ckDbl, ckStr, ckTime, ckInt}[w.pick(5)]}, d) + ")"
	case 5:
		g := celTimeGetters[w.pick(len(celTimeGetters))]
		arg := ""
		if w.chance(3) {
			arg = celZones.Draw(w.t)
		}
		return w.operand(&celType{kind: ckTime}, d) + "." + g + "(" + arg + ")"
	case 6:
		return w.operand(&celType{kind: ckDur}, d) + "." + celDurGetters[w.pick(len(celDurGetters))] + "()"
	case 7:
		if w.cfg.Strings {
			s := w.operand(celStrT, d) + "." + gen.Tokens("indexOf", "lastIndexOf").Draw(w.t) + "(" + w.expr(celStrT, d)
			if w.chance(3) {
				s += ", " + w.expr(celIntT, d)
			}
			return s + ")"
		}
	case 8:
		if w.cfg.Math {
			return w.mathCall(celIntT, d)
		}
	}
	return w.arith(celIntT, d, "+", "-", "*")
}

// mathCall writes math.greatest or math.least over numbers of type t,
// as arguments or as a list.
func (w *celWriter) mathCall(t *celType, d int) string {
	fn := gen.Tokens("math.greatest", "math.least").Draw(w.t)
	args := make([]string, w.pick(3)+1)
	for i := range args {
		args[i] = w.expr(t, d)
	}
	if w.chance(3) {
		return fn + "([" + strings.Join(args, ", ") + "])"
	}
	return fn + "(" + strings.Join(args, ", ") + ")"
}

// celOrdered are the kinds the ordering operators < <= > >= take.
var celOrdered = []byte{ckInt, ckUint, ckDbl, ckStr, ckBytes, ckBool, ckTime, ckDur}

func (w *celWriter) boolExpr(d int) string {
	switch w.pick(14) {
	case 0:
		return "!" + celParen(w.expr(celBoolT, d), 6)
	case 1, 2:
		return w.logic(d)
	case 3:
		u := w.anyType()
		return w.bin(w.expr(u, d), gen.Tokens("==", "!=").Draw(w.t), w.expr(u, d), 3)
	case 4:
		u := &celType{kind: celOrdered[w.pick(len(celOrdered))]}
		if w.chance(5) {
			// numbers of different kinds compare too (heterogeneous
			// comparison is a runtime matter for dyn values)
			return w.bin(w.expr(u, d), gen.Tokens("<", "<=", ">", ">=").Draw(w.t), w.expr(celDynT, d), 3)
		}
		return w.bin(w.expr(u, d), gen.Tokens("<", "<=", ">", ">=").Draw(w.t), w.expr(u, d), 3)
	case 5, 6:
		// membership in a list or among a map's keys
		u := w.scalarType()
		if w.chance(3) {
			m := &celType{kind: ckMap, key: &celType{kind: celKeys[w.pick(len(celKeys))]}, elem: w.scalarType()}
			return w.bin(w.expr(m.key, d), "in", w.expr(m, d), 3)
		}
		return w.bin(w.expr(u, d), "in", w.expr(&celType{kind: ckList, elem: u}, d), 3)
	case 7:
		fn := gen.Tokens("contains", "startsWith", "endsWith", "matches").Draw(w.t)
		arg := w.expr(celStrT, d)
		if fn == "matches" && w.chance(2) {
			arg = celRegexps.Draw(w.t)
		}
		if fn == "matches" && w.chance(4) {
			return "matches(" + w.expr(celStrT, d) + ", " + arg + ")"
		}
		return w.operand(celStrT, d) + "." + fn + "(" + arg + ")"
	case 8:
		// presence test of a field of a map with string keys
		maps := w.stringMaps()
		if len(maps) > 0 {
			return "has(" + maps[w.pick(len(maps))].name + "." + gen.Tokens(w.cfg.Keys...).Draw(w.t) + ")"
		}
	case 9, 10:
		// quantifier macros
		rng, it := w.rangeOf(nil, d)
		mac := gen.Tokens("all", "exists", "exists_one").Draw(w.t)
		return w.withIter(it, func(v string) string {
			return rng + "." + mac + "(" + v + ", " + w.expr(celBoolT, d) + ")"
		})
	case 11:
		return "type(" + w.expr(w.anyType(), d) + ")" + w.sp() + gen.Tokens("==", "!=").Draw(w.t) + w.sp() + celTypeNames.Draw(w.t)
	case 12:
		return "bool(" + w.expr(gen.SampledFrom(celStrT, celBoolT).Draw(w.t), d) + ")"
	}
	return w.logic(d)
}

func (w *celWriter) strExpr(d int) string {
	switch w.pick(10) {
	case 0, 1:
		return w.arith(celStrT, d, "+")
	case 2:
		u := &celType{kind: []byte{ckInt, ckUint, ckDbl, ckBytes, ckBool, ckTime, ckDur, ckStr}[w.pick(8)]}
		return "string(" + w.expr(u, d) + ")"
	case 3, 4, 5:
		if w.cfg.Strings {
			return w.strExt(d)
		}
	case 6:
		if w.cfg.Encoders {
			return "base64.encode(" + w.expr(&celType{kind: ckBytes}, d) + ")"
		}
	}
	return w.arith(celStrT, d, "+")
}

// strExt writes a call of the strings extension that returns a string.
func (w *celWriter) strExt(d int) string {
	recv := w.operand(celStrT, d)
	switch w.pick(7) {
	case 0:
		return recv + ".charAt(" + w.expr(celIntT, d) + ")"
	case 1:
		return recv + "." + gen.Tokens("lowerAscii", "upperAscii", "trim").Draw(w.t) + "()"
	case 2:
		s := recv + ".replace(" + w.expr(celStrT, d) + ", " + w.expr(celStrT, d)
		if w.chance(3) {
			s += ", " + w.expr(celIntT, d)
		}
		return s + ")"
	case 3:
		s := recv + ".substring(" + w.expr(celIntT, d)
		if w.chance(2) {
			s += ", " + w.expr(celIntT, d)
		}
		return s + ")"
	case 4:
		l := w.operand(&celType{kind: ckList, elem: celStrT}, d)
		if w.chance(2) {
			return l + ".join()"
		}
		return l + ".join(" + w.expr(celStrT, d) + ")"
	}
	return recv + "." + gen.Tokens("lowerAscii", "upperAscii").Draw(w.t) + "()"
}

func (w *celWriter) listExpr(t *celType, d int) string {
	switch w.pick(8) {
	case 0, 1:
		return w.listLit(t, d+1)
	case 2:
		return w.arith(t, d, "+")
	case 3, 4:
		// map, with an optional filter
		rng, it := w.rangeOf(nil, d)
		return w.withIter(it, func(v string) string {
			if w.chance(4) {
				return rng + ".map(" + v + ", " + w.expr(celBoolT, d) + ", " + w.expr(t.elem, d) + ")"
			}
			return rng + ".map(" + v + ", " + w.expr(t.elem, d) + ")"
		})
	case 5:
		if t.elem.kind == ckStr && w.cfg.Strings {
			s := w.operand(celStrT, d) + ".split(" + w.expr(celStrT, d)
			if w.chance(3) {
				s += ", " + w.expr(celIntT, d)
			}
			return s + ")"
		}
	}
	rng, it := w.rangeOf(t.elem, d)
	return w.withIter(it, func(v string) string {
		return rng + ".filter(" + v + ", " + w.expr(celBoolT, d) + ")"
	})
}

// CEL generates Common Expression Language expressions, as the language
// definition (cel-spec's langdef.md) describes them, over the host's
// declared variables: literals of every type (ints in decimal and hex,
// uints, doubles, strings and bytes in every quoting with escapes, bool,
// null), timestamp and duration constructors, list and map literals
// (with a trailing comma now and then), variables, member selection
// and indexing of lists and maps, the operators at their precedence
// (arithmetic, comparison, equality, membership "in", logical and the
// conditional), the standard functions (size, conversions, matches,
// contains, startsWith, endsWith, the timestamp and duration accessors
// with time zones, type), the macros (has, all, exists, exists_one, map
// with and without a filter, filter) with their iteration variables in
// scope, and the calls of the extension libraries the host enables.
// Expressions are drawn by type, so that most of them type-check; the
// result is a bool most of the time (policies and filters), else of any
// type.
func CEL(cfg CELConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &celWriter{t: t, cfg: cfg}
		for _, v := range cfg.Vars {
			w.scope = append(w.scope, celVar{v.Name, parseCELType(v.Type)})
		}
		ty := celBoolT
		if w.chance(3) {
			ty = w.anyType()
		}
		return Corrupt(t, w.expr(ty, cfg.MaxDepth), cfg.MistakesPer)
	})
}
