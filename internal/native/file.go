package native

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gfz-dev/gfz/param"
)

// Header is the first line of a native Go fuzz corpus file.
const Header = "go test fuzz v1"

// FormatFile returns the native corpus file of args: the header and one
// line per argument in the target's own types, e.g. string("a\n"),
// int(-5), byte('x'), rune('é'), float64(1.5), float64(-0), float64(+Inf),
// float64(NaN) for the NaN math.NaN returns, and
// math.Float64frombits(0x7ff8000000000002) for another NaN: the bytes go
// test writes for the same values (so that the files of both have the
// same names), which it reads back to the same bits.
func FormatFile(args []Arg) []byte {
	var b bytes.Buffer
	b.WriteString(Header + "\n")
	for _, a := range args {
		b.WriteString(formatArg(a))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func formatArg(a Arg) string {
	switch k := a.Kind; {
	case k == Bytes:
		return "[]byte(" + strconv.Quote(string(a.B)) + ")"
	case k == String:
		return "string(" + strconv.Quote(string(a.B)) + ")"
	case k == Bool:
		return "bool(" + strconv.FormatBool(a.U&1 != 0) + ")"
	case k == Uint8:
		return "byte(" + strconv.QuoteRune(rune(a.U&0xff)) + ")" // as go test writes it (%q): byte('\n'), byte('ÿ')
	case k == Int32:
		if r := rune(int32(a.U)); utf8.ValidRune(r) {
			return "rune(" + strconv.QuoteRune(r) + ")"
		}
		return "int32(" + strconv.FormatInt(a.signed(), 10) + ")"
	case k >= Int && k <= Int64:
		return k.String() + "(" + strconv.FormatInt(a.signed(), 10) + ")"
	case k >= Uint && k <= Uint64:
		return k.String() + "(" + strconv.FormatUint(a.U, 10) + ")"
	case k == Float32:
		f := math.Float32frombits(uint32(a.U))
		if math.IsNaN(float64(f)) && uint32(a.U) != math.Float32bits(float32(math.NaN())) {
			return fmt.Sprintf("math.Float32frombits(0x%x)", uint32(a.U))
		}
		return "float32(" + floatText(float64(f), 32) + ")"
	case k == Float64:
		f := math.Float64frombits(a.U)
		if math.IsNaN(f) && a.U != math.Float64bits(math.NaN()) {
			return fmt.Sprintf("math.Float64frombits(0x%x)", a.U)
		}
		return "float64(" + floatText(f, 64) + ")"
	}
	return fmt.Sprintf("unknown(%d)", a.Kind)
}

// floatText is f as go test writes it (fmt's %v): the shortest decimal
// that reads back to the same value, NaN, +Inf, -Inf, and -0 for negative
// zero.
func floatText(f float64, bits int) string {
	switch {
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

// ParseFile parses a native corpus file for a target of types ts. Like the
// go command it accepts a "\r\n" line ending, blank lines and white space,
// interpreted or raw string literals, byte and rune values as character or
// integer literals, and math.FloatNNfrombits; it refuses a file whose
// values are not exactly of types ts, in order, naming the problem.
func ParseFile(file []byte, ts Types) ([]Arg, error) {
	if len(file) == 0 {
		return nil, errors.New("empty corpus file")
	}
	header, rest, found := bytes.Cut(file, []byte("\n"))
	header = bytes.TrimSuffix(header, []byte("\r"))
	if string(header) != Header {
		return nil, fmt.Errorf("bad header %.40q: want %q", header, Header)
	}
	if !found {
		return nil, errors.New("no value after the header")
	}
	var args []Arg
	for _, line := range bytes.Split(rest, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		a, err := parseLine(string(line))
		if err != nil {
			return nil, fmt.Errorf("malformed line %.60q: %w", line, err)
		}
		args = append(args, a)
	}
	if len(args) != len(ts) {
		return nil, fmt.Errorf("%d values, want %d (%s)", len(args), len(ts), ts)
	}
	for i, a := range args {
		if a.Kind != ts[i] {
			return nil, fmt.Errorf("value %d is of type %s, want %s", i+1, a.Kind, ts[i])
		}
	}
	return args, nil
}

// parseLine parses one value line: T(literal).
func parseLine(line string) (Arg, error) {
	e, err := parser.ParseExpr(line)
	if err != nil {
		return Arg{}, err
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return Arg{}, errors.New("want a conversion T(value) of one value")
	}
	typ, lit := call.Fun, call.Args[0]
	switch t := typ.(type) {
	case *ast.ArrayType:
		if id, ok := t.Elt.(*ast.Ident); !ok || t.Len != nil || id.Name != "byte" {
			return Arg{}, errors.New("the only composite type is []byte")
		}
		s, err := stringLit(lit)
		return Arg{Kind: Bytes, B: []byte(s)}, err
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		if !ok || x.Name != "math" || t.Sel.Name != "Float64frombits" && t.Sel.Name != "Float32frombits" {
			return Arg{}, errors.New("the only function calls are math.Float64frombits and math.Float32frombits")
		}
		text, kind, err := numberLit(lit)
		if err != nil || kind != token.INT {
			return Arg{}, errors.New("integer literal required for " + x.Name + "." + t.Sel.Name)
		}
		if t.Sel.Name == "Float32frombits" {
			u, err := strconv.ParseUint(text, 0, 32)
			return Arg{Kind: Float32, U: u}, err
		}
		u, err := strconv.ParseUint(text, 0, 64)
		return Arg{Kind: Float64, U: u}, err
	case *ast.Ident:
		return parseTyped(t.Name, lit)
	}
	return Arg{}, errors.New("want []byte or a basic type")
}

func stringLit(e ast.Expr) (string, error) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", errors.New("string literal required")
	}
	return strconv.Unquote(lit.Value)
}

// numberLit returns the text of a possibly negated basic literal, or of
// NaN, Inf, -Inf and +Inf (kind FLOAT).
func numberLit(e ast.Expr) (string, token.Token, error) {
	sign := ""
	if u, ok := e.(*ast.UnaryExpr); ok && (u.Op == token.SUB || u.Op == token.ADD) {
		sign, e = u.Op.String(), u.X
	}
	switch x := e.(type) {
	case *ast.BasicLit:
		if sign == "+" {
			return "", 0, errors.New("unexpected + before a literal")
		}
		return sign + x.Value, x.Kind, nil
	case *ast.Ident:
		if x.Name == "Inf" || x.Name == "NaN" && sign == "" {
			if x.Name == "Inf" && sign == "" {
				sign = "+"
			}
			return sign + x.Name, token.FLOAT, nil
		}
	}
	return "", 0, errors.New("literal value required")
}

func parseTyped(name string, lit ast.Expr) (Arg, error) {
	k, ok := ParseKind(name)
	if !ok {
		return Arg{}, fmt.Errorf("unsupported type %s", name)
	}
	a := Arg{Kind: k}
	switch {
	case k == String:
		s, err := stringLit(lit)
		a.B = []byte(s)
		return a, err
	case k == Bool:
		id, ok := lit.(*ast.Ident)
		if !ok || id.Name != "true" && id.Name != "false" {
			return a, errors.New("true or false required for type bool")
		}
		if id.Name == "true" {
			a.U = 1
		}
		return a, nil
	}
	text, tok, err := numberLit(lit)
	if err != nil {
		return a, err
	}
	if tok == token.CHAR && (name == "byte" || name == "rune") {
		r, _, tail, err := strconv.UnquoteChar(strings.TrimSuffix(strings.TrimPrefix(text, "'"), "'"), '\'')
		if err != nil || tail != "" || len(text) < 3 {
			return a, errors.New("malformed character literal")
		}
		if name == "byte" && r > 255 {
			return a, errors.New("character does not fit a byte")
		}
		a.U = uint64(uint32(r))
		if name == "byte" {
			a.U &= 0xff
		}
		return a, nil
	}
	switch {
	case k >= Int && k <= Int64:
		if tok != token.INT {
			return a, fmt.Errorf("integer literal required for type %s", name)
		}
		v, err := strconv.ParseInt(text, 0, 8*k.Size())
		if err != nil {
			return a, err
		}
		a.U = uint64(v)
		if s := k.Size(); s < 8 {
			a.U &= 1<<(8*s) - 1
		}
	case k >= Uint && k <= Uint64:
		if tok != token.INT {
			return a, fmt.Errorf("integer literal required for type %s", name)
		}
		v, err := strconv.ParseUint(text, 0, 8*k.Size())
		if err != nil {
			return a, err
		}
		a.U = v
	case k == Float32 || k == Float64:
		if tok != token.INT && tok != token.FLOAT {
			return a, fmt.Errorf("number required for type %s", name)
		}
		bits := 64
		if k == Float32 {
			bits = 32
		}
		f, err := strconv.ParseFloat(text, bits)
		if err != nil {
			return a, err
		}
		if k == Float32 {
			a.U = uint64(math.Float32bits(float32(f)))
		} else {
			a.U = math.Float64bits(f)
		}
	default:
		return a, fmt.Errorf("unsupported type %s", name)
	}
	return a, nil
}

// Codec converts parameter sequences of a native target with argument
// types Types to and from native corpus files (workdir.Codec). Mix, when
// not nil, is the format generator whose documents the target's mutator
// mixes in (mix.go); the files do not depend on it.
type Codec struct {
	Types Types
	Mix   *Mix
}

// EncodeFile returns the native corpus file of the arguments params
// decodes to.
func (c Codec) EncodeFile(params []byte) []byte {
	args, err := c.Types.DecodeBytes(params)
	if err != nil {
		// Beyond the cap: cannot happen for a sequence an execution
		// consumed; keep the bytes visible rather than lose them.
		return []byte(fmt.Sprintf("%s\n// gfz: %v: %q\n", Header, err, params))
	}
	return FormatFile(args)
}

// DecodeFile parses a native corpus file of the target's types and returns
// the parameter sequence that decodes to its values.
func (c Codec) DecodeFile(file []byte) ([]byte, error) {
	args, err := ParseFile(file, c.Types)
	if err != nil {
		return nil, err
	}
	return c.Types.Encode(args)
}

// Describe formats decoded arguments one "argN T = value" line each, the
// value in the corpus file's Go syntax.
func Describe(args []Arg) string {
	var b strings.Builder
	for i, a := range args {
		fmt.Fprintf(&b, "%s = %s\n", SpanName(i, a.Kind), formatArg(a))
	}
	return b.String()
}

// ExtendInput implements engine.InputExtender: the bytes an execution of
// params with extension seed ext reads (params, plus the PRNG bytes of
// fixed-size arguments past its end), which decode to the same arguments
// with any extension seed.
func (c Codec) ExtendInput(params []byte, ext uint64, limit int) []byte {
	// A native input is whole as it is: a seed or a corpus file longer
	// than the size limit of children runs whole (cut, the arguments
	// after the cut would change), so limit only bounds the extension.
	limit = max(limit, len(params))
	src := param.New(nil, ext)
	src.SetMax(limit)
	src.Reset(params, ext)
	src.SetRecording(false)
	args := make([]Arg, len(c.Types))
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(param.Exhausted); !ok {
					panic(r)
				}
			}
		}()
		NewDecoder(c.Types).Decode(src, len(params), args)
	}()
	return append([]byte(nil), src.Consumed()...)
}
