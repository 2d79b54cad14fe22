package generators

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/param"
)

// Defaults of Of.
const (
	DefaultOfMaxDepth = 5 // nesting of pointers, slices and maps
	DefaultOfMaxLen   = 8 // elements of slices and maps, runes of strings
)

// OfOption configures Of.
type OfOption func(*ofConfig)

type fieldKey struct {
	st    reflect.Type
	field string
}

type ofConfig struct {
	maxDepth   int
	maxLen     int
	unexported bool
	types      map[reflect.Type]func(*gfz.T) reflect.Value
	fields     map[fieldKey]func(*gfz.T) reflect.Value
}

// MaxDepth bounds the nesting of pointers, slices and maps Of generates
// (DefaultOfMaxDepth by default): past it, pointers are nil and slices and
// maps empty, which is what makes recursive types terminate. It panics if
// n < 0.
func MaxDepth(n int) OfOption {
	if n < 0 {
		panic("generators: MaxDepth with n < 0")
	}
	return func(c *ofConfig) { c.maxDepth = n }
}

// MaxLen bounds the length of slices, maps and strings Of generates
// (DefaultOfMaxLen by default). It panics if n < 0.
func MaxLen(n int) OfOption {
	if n < 0 {
		panic("generators: MaxLen with n < 0")
	}
	return func(c *ofConfig) { c.maxLen = n }
}

// Unexported makes Of fill unexported struct fields too (by default they
// keep their zero value).
func Unexported() OfOption { return func(c *ofConfig) { c.unexported = true } }

// WithType makes Of use g for every value of type V, wherever it occurs
// (top level, fields, elements).
func WithType[V any](g Generator[V]) OfOption {
	usable("WithType", g)
	typ := reflect.TypeFor[V]()
	return func(c *ofConfig) {
		c.types[typ] = func(t *gfz.T) reflect.Value { return reflect.ValueOf(g.Draw(t)) }
	}
}

// WithField makes Of use g for the field named field of every struct of
// type S. It panics (when Of is called) if S has no such field or its type
// is not V.
func WithField[S, V any](field string, g Generator[V]) OfOption {
	usable("WithField", g)
	st := reflect.TypeFor[S]()
	return func(c *ofConfig) {
		f, ok := st.FieldByName(field)
		if st.Kind() != reflect.Struct || !ok || len(f.Index) != 1 {
			panic(fmt.Sprintf("generators: WithField: %v has no field %s", st, field))
		}
		if f.Type != reflect.TypeFor[V]() {
			panic(fmt.Sprintf("generators: WithField: field %v.%s has type %v, generator produces %v", st, field, f.Type, reflect.TypeFor[V]()))
		}
		c.fields[fieldKey{st, field}] = func(t *gfz.T) reflect.Value { return reflect.ValueOf(g.Draw(t)) }
	}
}

// Of returns a generator of any Go type T, derived by reflection:
//
//	bool                   Bool (1 byte)
//	integer kinds          Integers of the kind (edge-biased)
//	float kinds            Floats of the kind (edge-biased); complex: two
//	string                 UTF8String(0, MaxLen)
//	slice                  length 0..MaxLen (structure, BytesFor(MaxLen+1)), elements
//	array                  every element
//	map                    like MapOf(0, MaxLen): duplicate keys keep the first value
//	pointer                1 structure byte, nil when b&3 == 0, else the element
//	struct                 exported fields in order (all fields with Unexported)
//	interface, chan, func  the zero value (no bytes)
//
// Past MaxDepth nested pointers, slices and maps, pointers are nil and
// slices and maps are empty without consuming bytes, so recursive types
// such as struct{ Next *Node } terminate. WithType and WithField override
// the generator of a type or a struct field. Nil byte slices are never
// produced (empty ones are).
func Of[T any](opts ...OfOption) Generator[T] {
	c := &ofConfig{maxDepth: DefaultOfMaxDepth, maxLen: DefaultOfMaxLen,
		types: map[reflect.Type]func(*gfz.T) reflect.Value{}, fields: map[fieldKey]func(*gfz.T) reflect.Value{}}
	for _, o := range opts {
		o(c)
	}
	typ := reflect.TypeFor[T]()
	p := &ofPlanner{c: c, plans: map[reflect.Type]*filler{}}
	f := p.plan(typ)
	return Generator[T]{name: "Of[" + typ.String() + "]", draw: func(t *gfz.T) T {
		var v T
		f.fill(t, reflect.ValueOf(&v).Elem(), 0)
		return v
	}}
}

// filler fills a settable value; fill is set after planning so recursive
// types can refer to their own filler.
type filler struct {
	fill func(t *gfz.T, v reflect.Value, depth int)
}

type ofPlanner struct {
	c     *ofConfig
	plans map[reflect.Type]*filler
}

func (p *ofPlanner) plan(typ reflect.Type) *filler {
	if f, ok := p.plans[typ]; ok {
		return f
	}
	f := &filler{}
	p.plans[typ] = f
	if o, ok := p.c.types[typ]; ok {
		f.fill = func(t *gfz.T, v reflect.Value, _ int) { v.Set(o(t)) }
		return f
	}
	maxLen := int64(p.c.maxLen)
	maxDepth := p.c.maxDepth
	switch typ.Kind() {
	case reflect.Bool:
		f.fill = func(t *gfz.T, v reflect.Value, _ int) { v.SetBool(drawBool(t)) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		g := intKind(typ.Kind())
		f.fill = func(t *gfz.T, v reflect.Value, _ int) { v.SetInt(g(t)) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		g := uintKind(typ.Kind())
		f.fill = func(t *gfz.T, v reflect.Value, _ int) { v.SetUint(g(t)) }
	case reflect.Float32:
		g := Floats[float32]()
		f.fill = func(t *gfz.T, v reflect.Value, _ int) { v.SetFloat(float64(g.draw(t))) }
	case reflect.Float64:
		g := Floats[float64]()
		f.fill = func(t *gfz.T, v reflect.Value, _ int) { v.SetFloat(g.draw(t)) }
	case reflect.Complex64, reflect.Complex128:
		g := Floats[float64]()
		f.fill = func(t *gfz.T, v reflect.Value, _ int) { v.SetComplex(complex(g.draw(t), g.draw(t))) }
	case reflect.String:
		g := UTF8String(0, p.c.maxLen)
		f.fill = func(t *gfz.T, v reflect.Value, _ int) { v.SetString(g.draw(t)) }
	case reflect.Slice:
		elem := p.plan(typ.Elem())
		f.fill = func(t *gfz.T, v reflect.Value, depth int) {
			n := int64(0)
			if depth < maxDepth {
				n = t.Source().Range(0, maxLen, param.Structure)
			}
			s := reflect.MakeSlice(typ, int(n), int(n))
			for i := range int(n) {
				elem.fill(t, s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Array:
		elem := p.plan(typ.Elem())
		f.fill = func(t *gfz.T, v reflect.Value, depth int) {
			for i := range v.Len() {
				elem.fill(t, v.Index(i), depth)
			}
		}
	case reflect.Map:
		key, elem := p.plan(typ.Key()), p.plan(typ.Elem())
		f.fill = func(t *gfz.T, v reflect.Value, depth int) {
			n := int64(0)
			if depth < maxDepth {
				n = t.Source().Range(0, maxLen, param.Structure)
			}
			m := reflect.MakeMapWithSize(typ, int(n))
			for range n {
				k := reflect.New(typ.Key()).Elem()
				key.fill(t, k, depth+1)
				e := reflect.New(typ.Elem()).Elem()
				elem.fill(t, e, depth+1)
				if !m.MapIndex(k).IsValid() {
					m.SetMapIndex(k, e)
				}
			}
			v.Set(m)
		}
	case reflect.Pointer:
		elem := p.plan(typ.Elem())
		f.fill = func(t *gfz.T, v reflect.Value, depth int) {
			if depth >= maxDepth || t.Source().Uint(1, param.Structure)&3 == 0 {
				v.SetZero()
				return
			}
			e := reflect.New(typ.Elem())
			elem.fill(t, e.Elem(), depth+1)
			v.Set(e)
		}
	case reflect.Struct:
		type fieldPlan struct {
			index    int
			override func(*gfz.T) reflect.Value
			f        *filler
		}
		var fields []fieldPlan
		for i := range typ.NumField() {
			sf := typ.Field(i)
			if !sf.IsExported() && !p.c.unexported {
				continue
			}
			fp := fieldPlan{index: i}
			if o, ok := p.c.fields[fieldKey{typ, sf.Name}]; ok {
				fp.override = o
			} else {
				fp.f = p.plan(sf.Type)
			}
			fields = append(fields, fp)
		}
		f.fill = func(t *gfz.T, v reflect.Value, depth int) {
			for _, fp := range fields {
				fv := v.Field(fp.index)
				if !fv.CanSet() {
					fv = reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())).Elem()
				}
				if fp.override != nil {
					fv.Set(fp.override(t))
				} else {
					fp.f.fill(t, fv, depth)
				}
			}
		}
	default: // Interface, Chan, Func, UnsafePointer
		f.fill = func(*gfz.T, reflect.Value, int) {}
	}
	return f
}

func intKind(k reflect.Kind) func(*gfz.T) int64 {
	switch k {
	case reflect.Int8:
		g := Integers[int8]()
		return func(t *gfz.T) int64 { return int64(g.draw(t)) }
	case reflect.Int16:
		g := Integers[int16]()
		return func(t *gfz.T) int64 { return int64(g.draw(t)) }
	case reflect.Int32:
		g := Integers[int32]()
		return func(t *gfz.T) int64 { return int64(g.draw(t)) }
	case reflect.Int64:
		g := Integers[int64]()
		return func(t *gfz.T) int64 { return g.draw(t) }
	default:
		g := Integers[int]()
		return func(t *gfz.T) int64 { return int64(g.draw(t)) }
	}
}

func uintKind(k reflect.Kind) func(*gfz.T) uint64 {
	switch k {
	case reflect.Uint8:
		g := Integers[uint8]()
		return func(t *gfz.T) uint64 { return uint64(g.draw(t)) }
	case reflect.Uint16:
		g := Integers[uint16]()
		return func(t *gfz.T) uint64 { return uint64(g.draw(t)) }
	case reflect.Uint32:
		g := Integers[uint32]()
		return func(t *gfz.T) uint64 { return uint64(g.draw(t)) }
	case reflect.Uint64:
		g := Integers[uint64]()
		return func(t *gfz.T) uint64 { return g.draw(t) }
	case reflect.Uintptr:
		g := Integers[uintptr]()
		return func(t *gfz.T) uint64 { return uint64(g.draw(t)) }
	default:
		g := Integers[uint]()
		return func(t *gfz.T) uint64 { return uint64(g.draw(t)) }
	}
}
