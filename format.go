package gfz

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Limits of formatValue.
const (
	maxFormatDepth = 64
	maxFormatLen   = 1 << 16
)

// formatValue prints v in Go syntax, like %#v but deterministic: pointers
// are followed (&T{...}) instead of printed as addresses, map entries are
// sorted, cycles print as <cycle>, and functions and channels print as
// their type only. The output is capped at maxFormatLen bytes.
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
		p.b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, t.Bits()))
	case reflect.Complex64, reflect.Complex128:
		p.b.WriteString(strconv.FormatComplex(v.Complex(), 'g', -1, t.Bits()))
	case reflect.String:
		p.b.WriteString(strconv.Quote(v.String()))
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
		p.value(v.Elem(), depth+1)
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
		type entry struct{ k, v string }
		var entries []entry
		iter := v.MapRange()
		for iter.Next() {
			var e entry
			e.k = p.sub(iter.Key(), depth+1)
			e.v = p.sub(iter.Value(), depth+1)
			entries = append(entries, e)
		}
		slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.k, b.k) })
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
