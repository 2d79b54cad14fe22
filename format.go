package gfz

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of formatValue.
const (
	maxFormatDepth = 64
	maxFormatLen   = 1 << 16
)

// formatValue prints v in Go syntax, like %#v but deterministic: pointers
// are followed (&T{...}) instead of printed as addresses, map entries are
// sorted (numbers by value, everything else by printed text), cycles print
// as <cycle>, and functions and channels print as their type only. Values
// of named basic types print as conversions (time.Duration(1500000000)
// /* 1.5s */), and so do basic values held in interfaces whose type is not
// the literal's default type (int8(3) in a []any). NaN, infinities and
// negative zero print as calls of package math. Multi-line strings print
// as raw string literals when they can. The output is capped at
// maxFormatLen bytes.
func formatValue(v any) string {
	p := printer{seen: map[uintptr]bool{}}
	p.value(reflect.ValueOf(v), 0)
	s := p.b.String()
	if len(s) > maxFormatLen {
		s = s[:maxFormatLen] + "..."
	}
	return s
}

type printer struct {
	b    strings.Builder
	seen map[uintptr]bool // pointers on the current path
}

func (p *printer) value(v reflect.Value, depth int) {
	if p.b.Len() > maxFormatLen {
		return
	}
	if !v.IsValid() {
		p.b.WriteString("nil")
		return
	}
	if depth > maxFormatDepth {
		p.b.WriteString("...")
		return
	}
	t := v.Type()
	if isBasic(v.Kind()) && t.PkgPath() != "" {
		// A named basic type: print a conversion.
		p.b.WriteString(t.String() + "(")
		p.basic(v)
		p.b.WriteByte(')')
		if t == reflect.TypeFor[time.Duration]() {
			p.b.WriteString(" /* " + time.Duration(v.Int()).String() + " */")
		}
		return
	}
	if isBasic(v.Kind()) {
		p.basic(v)
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			p.b.WriteString("(" + t.String() + ")(nil)")
			return
		}
		addr := v.Pointer()
		if p.seen[addr] {
			p.b.WriteString("<cycle>")
			return
		}
		p.seen[addr] = true
		p.b.WriteByte('&')
		p.value(v.Elem(), depth+1)
		delete(p.seen, addr)
	case reflect.Interface:
		e := v.Elem()
		if e.IsValid() && isBasic(e.Kind()) && e.Type().PkgPath() == "" && !defaultType(e.Type()) {
			p.b.WriteString(e.Type().String() + "(")
			p.basic(e)
			p.b.WriteByte(')')
			return
		}
		p.value(e, depth+1)
	case reflect.Struct:
		p.b.WriteString(t.String() + "{")
		for i := range v.NumField() {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.b.WriteString(t.Field(i).Name + ":")
			p.value(v.Field(i), depth+1)
		}
		p.b.WriteByte('}')
	case reflect.Slice:
		if v.IsNil() {
			p.b.WriteString(t.String() + "(nil)")
			return
		}
		name := t.String()
		if name == "[]uint8" {
			name = "[]byte"
		}
		p.list(name, v, depth)
	case reflect.Array:
		p.list(t.String(), v, depth)
	case reflect.Map:
		if v.IsNil() {
			p.b.WriteString(t.String() + "(nil)")
			return
		}
		type entry struct {
			key  reflect.Value
			k, v string
		}
		var entries []entry
		iter := v.MapRange()
		for iter.Next() {
			var e entry
			e.key = iter.Key()
			e.k = p.sub(iter.Key(), depth+1)
			e.v = p.sub(iter.Value(), depth+1)
			entries = append(entries, e)
		}
		slices.SortFunc(entries, func(a, b entry) int {
			if c := compareKeys(a.key, b.key); c != 0 {
				return c
			}
			if c := strings.Compare(a.k, b.k); c != 0 {
				return c
			}
			return strings.Compare(a.v, b.v) // keys that print alike (NaNs)
		})
		p.b.WriteString(t.String() + "{")
		for i, e := range entries {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.b.WriteString(e.k + ":" + e.v)
		}
		p.b.WriteByte('}')
	default: // Chan, Func, UnsafePointer: no deterministic value to show
		if v.IsNil() {
			p.b.WriteString("(" + t.String() + ")(nil)")
		} else {
			p.b.WriteString("(" + t.String() + ")(...)")
		}
	}
}

// list prints the elements of a slice or array.
func (p *printer) list(typ string, v reflect.Value, depth int) {
	p.b.WriteString(typ + "{")
	for i := range v.Len() {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.value(v.Index(i), depth+1)
		if p.b.Len() > maxFormatLen {
			break
		}
	}
	p.b.WriteByte('}')
}

// sub prints v into a separate string (map keys and values, for sorting).
func (p *printer) sub(v reflect.Value, depth int) string {
	q := printer{seen: p.seen}
	q.value(v, depth)
	return q.b.String()
}

func isBasic(k reflect.Kind) bool {
	return k >= reflect.Bool && k <= reflect.Complex128 || k == reflect.String
}

// defaultType reports whether t is the default type of an untyped
// constant of its kind (so that a bare literal has type t).
func defaultType(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Float64, reflect.Complex128, reflect.String:
		return true
	}
	return false
}

// basic prints a value of a basic kind.
func (p *printer) basic(v reflect.Value) {
	t := v.Type()
	switch v.Kind() {
	case reflect.Bool:
		p.b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Uint8:
		p.b.WriteString("0x" + strconv.FormatUint(v.Uint(), 16))
	case reflect.Float32, reflect.Float64:
		p.b.WriteString(formatFloat(v.Float(), t.Bits()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		if math.IsNaN(real(c)) || math.IsInf(real(c), 0) || math.IsNaN(imag(c)) || math.IsInf(imag(c), 0) {
			p.b.WriteString("complex(" + formatFloat(real(c), t.Bits()/2) + ", " + formatFloat(imag(c), t.Bits()/2) + ")")
		} else {
			p.b.WriteString(strconv.FormatComplex(c, 'g', -1, t.Bits()))
		}
	case reflect.String:
		p.b.WriteString(quote(v.String()))
	}
}

// formatFloat prints f, with math calls for values that have no literal.
func formatFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "math.NaN()"
	case math.IsInf(f, 1):
		return "math.Inf(1)"
	case math.IsInf(f, -1):
		return "math.Inf(-1)"
	case f == 0 && math.Signbit(f):
		return "math.Copysign(0, -1)"
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

// quote prints s as a raw string literal when it spans lines (a newline
// before the last character) and has
// nothing a raw literal cannot hold, otherwise as an interpreted literal.
func quote(s string) string {
	if strings.Contains(strings.TrimSuffix(s, "\n"), "\n") && !strings.ContainsAny(s, "`\r") && utf8.ValidString(s) {
		raw := true
		for _, r := range s {
			if r < ' ' && r != '\n' && r != '\t' || r == 0x7f || r == utf8.RuneError || r == 0xFEFF {
				raw = false
				break
			}
		}
		if raw {
			return "`" + s + "`"
		}
	}
	return strconv.Quote(s)
}

// compareKeys orders map keys of number kinds by value; other keys compare
// equal (the caller falls back to their printed text).
func compareKeys(a, b reflect.Value) int {
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return cmp.Compare(a.Float(), b.Float())
	}
	return 0
}
