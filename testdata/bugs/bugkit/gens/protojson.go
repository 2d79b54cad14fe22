package gens

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gojson"
)

// ProtoField is one field of a message type, as the protobuf JSON mapping
// needs it. The caller builds these from its descriptors.
type ProtoField struct {
	Name     string // the field's name in the .proto file (parsers accept it besides the JSON name)
	JSONName string // its lowerCamelCase JSON name
	// Kind is the field's type as the .proto file spells a scalar type
	// ("int32", "sint64", "fixed32", "uint64", "bool", "string", "bytes",
	// "float", "double"...), or "enum" or "message"; for a map field, the
	// type of its values.
	Kind   string
	Type   string // the full name of the enum or message type
	List   bool   // a repeated field
	MapKey string // a map field: the kind of its keys
	Oneof  string // the oneof the field belongs to, if any
}

// ProtoMessage is a message type: its full name and its fields.
type ProtoMessage struct {
	Name   string
	Fields []ProtoField
}

// ProtoEnum is an enum type: its full name, value names and numbers.
type ProtoEnum struct {
	Name    string
	Values  []string
	Numbers []int32
}

// ProtoJSONConfig tunes ProtoJSON.
type ProtoJSONConfig struct {
	Root     string         // full name of the documents' message type
	Messages []ProtoMessage // the message types the documents can hold (fields and Any values)
	Enums    []ProtoEnum    // the enum types their fields use
	// AnyTypes are the full names a google.protobuf.Any may name (the types
	// the decoder's resolver knows); default: every message of Messages.
	AnyTypes    []string
	Words       []string // preferred string values (the caller's domain: names, URLs), a third of the strings
	MaxDepth    int      // nesting of messages; default 4
	MaxItems    int      // elements of a repeated field or a map; default 3
	MistakesPer int      // per mille of documents passed through Corrupt; default 0
}

func (c ProtoJSONConfig) withDefaults() ProtoJSONConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 4
	}
	if c.MaxItems <= 0 {
		c.MaxItems = 3
	}
	if len(c.AnyTypes) == 0 {
		for _, m := range c.Messages {
			c.AnyTypes = append(c.AnyTypes, m.Name)
		}
	}
	return c
}

// pjWrappers are the wrapper types of the well-known types: their JSON
// form is that of the wrapped scalar.
var pjWrappers = map[string]string{
	"google.protobuf.DoubleValue": "double", "google.protobuf.FloatValue": "float",
	"google.protobuf.Int64Value": "int64", "google.protobuf.UInt64Value": "uint64",
	"google.protobuf.Int32Value": "int32", "google.protobuf.UInt32Value": "uint32",
	"google.protobuf.BoolValue": "bool", "google.protobuf.StringValue": "string",
	"google.protobuf.BytesValue": "bytes",
}

// pjSpecial reports whether a message type has a JSON form of its own in
// the mapping (not an object of its fields); inside an Any, such a value
// is the "value" member.
func pjSpecial(name string) bool {
	switch name {
	case "google.protobuf.Any", "google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.FieldMask",
		"google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue", "google.protobuf.Empty":
		return true
	}
	return pjWrappers[name] != ""
}

var (
	pjTextChars = gen.OneOfWeighted(
		gen.W(12, gen.StringFrom("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 ._-/:", 1, 1)),
		gen.W(1, gen.Tokens(`\"`, `\\`, `\/`, `\n`, `\t`, `\r`, `\b`, `\f`, `\u0000`, `\u00e9`, `\u6C34`, `\ud83d\ude00`, "é", "水", "😀", "\u2028")),
	)
	pjUnknownNames = gen.OneOfWeighted(
		gen.W(3, gen.Tokens("id", "kind", "etag", "metadata", "labels", "extra", "debug", "x", "requestId", "update_time", "selfLink", "@id")),
		gen.W(1, gen.StringFrom("abcdefxyz_ABC019", 1, 8)),
	)
	pjPrefixes = gen.OneOfWeighted(
		gen.W(8, gen.Just("type.googleapis.com/")),
		gen.W(1, gen.Tokens("", "example.com/types/", "https://type.example.org/a/b/", "/")),
	)
	pjFloatEdges = gen.Tokens("0", "-0", "1", "-1.5", "0.1", "1e10", "1E-7", "3.4028235e38", "-3.4028235e+38", "1e39",
		"1.7976931348623157e308", "5e-324", "1e-45", "2.5e+0", "123456789.125")
)

type pjMember struct {
	name  string
	value func()
}

type pjWriter struct {
	t     *gfz.T
	cfg   ProtoJSONConfig
	msgs  map[string]*ProtoMessage
	enums map[string]*ProtoEnum
	style int // 0: compact, 1: spaces after separators, 2: one member a line, indented
	level int
	b     strings.Builder
}

func (w *pjWriter) draw(lo, hi int) int { return gen.IntRange(lo, hi).Draw(w.t) }

// one reports true once in n draws.
func (w *pjWriter) one(n int) bool { return w.draw(0, n-1) == 0 }

func (w *pjWriter) newline() {
	w.b.WriteByte('\n')
	w.b.WriteString(strings.Repeat("  ", w.level))
}

// object writes members as a JSON object in the document's style.
func (w *pjWriter) object(members []pjMember) {
	w.b.WriteByte('{')
	w.level++
	for i, m := range members {
		if i > 0 {
			w.b.WriteByte(',')
			if w.style == 1 {
				w.b.WriteByte(' ')
			}
		}
		if w.style == 2 {
			w.newline()
		}
		w.quote(m.name)
		w.b.WriteByte(':')
		if w.style > 0 {
			w.b.WriteByte(' ')
		}
		m.value()
	}
	w.level--
	if w.style == 2 && len(members) > 0 {
		w.newline()
	}
	w.b.WriteByte('}')
}

// array writes n elements, each written by elem.
func (w *pjWriter) array(n int, elem func()) {
	w.b.WriteByte('[')
	for i := range n {
		if i > 0 {
			w.b.WriteByte(',')
			if w.style > 0 {
				w.b.WriteByte(' ')
			}
		}
		elem()
	}
	w.b.WriteByte(']')
}

// quote writes s as a JSON string (encoding/json's escaping).
func (w *pjWriter) quote(s string) {
	q, _ := json.Marshal(s) // a string always marshals
	w.b.Write(q)
}

// text writes a string value: one of the caller's words, or characters
// (with JSON escapes and non-ASCII).
func (w *pjWriter) text() {
	if len(w.cfg.Words) > 0 && w.one(3) {
		w.quote(gen.Tokens(w.cfg.Words...).Draw(w.t))
		return
	}
	w.b.WriteByte('"')
	for range w.draw(0, 12) {
		w.b.WriteString(pjTextChars.Draw(w.t))
	}
	w.b.WriteByte('"')
}

// integer writes an integer of a field of the given width and sign: a
// number or, as the mapping allows (and requires of encoders for 64-bit
// types), a string; small values mostly, the type's limits and the
// values just past them sometimes.
func (w *pjWriter) integer(bits int, signed bool) {
	var s string
	switch w.draw(0, 8) {
	case 0, 1:
		switch {
		case bits == 32 && signed:
			s = gen.Tokens("0", "-1", "2147483647", "-2147483648", "2147483648", "-2147483649").Draw(w.t)
		case bits == 32:
			s = gen.Tokens("0", "1", "4294967295", "4294967296", "-1", "2147483648").Draw(w.t)
		case signed:
			s = gen.Tokens("0", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "9007199254740993").Draw(w.t)
		default:
			s = gen.Tokens("0", "1", "18446744073709551615", "18446744073709551616", "-1", "9223372036854775808").Draw(w.t)
		}
	case 2:
		switch {
		case bits == 32 && signed:
			s = strconv.FormatInt(int64(gen.Int32().Draw(w.t)), 10)
		case bits == 32:
			s = strconv.FormatUint(uint64(gen.Uint32().Draw(w.t)), 10)
		case signed:
			s = strconv.FormatInt(gen.Int64().Draw(w.t), 10)
		default:
			s = strconv.FormatUint(gen.Uint64().Draw(w.t), 10)
		}
	default:
		lo := -20
		if !signed {
			lo = 0
		}
		s = strconv.Itoa(w.draw(lo, 1000))
	}
	if w.one(16) {
		s += gen.Tokens(".0", "e0", "E+0", ".000").Draw(w.t) // integral values in another number form
	}
	asString := w.one(5)
	if bits == 64 {
		asString = !w.one(4)
	}
	if asString {
		w.b.WriteString(`"` + s + `"`)
	} else {
		w.b.WriteString(s)
	}
}

// float writes a float or double: a number, or a string holding a number
// or one of the special values.
func (w *pjWriter) float() {
	switch w.draw(0, 9) {
	case 0:
		w.b.WriteString(gen.Tokens(`"NaN"`, `"Infinity"`, `"-Infinity"`).Draw(w.t))
	case 1:
		w.b.WriteString(`"` + pjFloatEdges.Draw(w.t) + `"`)
	case 2, 3:
		w.b.WriteString(pjFloatEdges.Draw(w.t))
	case 4:
		w.b.WriteString(strconv.FormatFloat(gen.Float64().Draw(w.t), 'g', -1, 64))
	default:
		n := w.draw(-100000, 100000)
		w.b.WriteString(strconv.FormatFloat(float64(n)/float64(gen.SampledFrom(1, 4, 100, 1000).Draw(w.t)), 'g', -1, 64))
	}
}

// bytesValue writes bytes in base64, standard or URL-safe, with or
// without padding (the mapping accepts each).
func (w *pjWriter) bytesValue() {
	b := make([]byte, w.draw(0, 12))
	for i := range b {
		b[i] = byte(w.draw(0, 255))
	}
	enc := []*base64.Encoding{base64.StdEncoding, base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding}[w.draw(0, 4)]
	w.b.WriteString(`"` + enc.EncodeToString(b) + `"`)
}

func (w *pjWriter) scalar(kind string) {
	switch kind {
	case "bool":
		w.b.WriteString(gen.Tokens("true", "false").Draw(w.t))
	case "string":
		w.text()
	case "bytes":
		w.bytesValue()
	case "float", "double":
		w.float()
	case "int32", "sint32", "sfixed32":
		w.integer(32, true)
	case "uint32", "fixed32":
		w.integer(32, false)
	case "int64", "sint64", "sfixed64":
		w.integer(64, true)
	case "uint64", "fixed64":
		w.integer(64, false)
	default:
		w.b.WriteString("null")
	}
}

// enum writes an enum value: its name mostly, else its number or another
// number (proto3 enums are open).
func (w *pjWriter) enum(name string) {
	if name == "google.protobuf.NullValue" {
		w.b.WriteString(gen.OneOfWeighted(gen.W(6, gen.Just("null")), gen.W(1, gen.Tokens(`"NULL_VALUE"`, "0"))).Draw(w.t))
		return
	}
	e := w.enums[name]
	if e == nil || len(e.Values) == 0 {
		w.b.WriteString(strconv.Itoa(w.draw(0, 3)))
		return
	}
	switch w.draw(0, 7) {
	case 0:
		w.b.WriteString(strconv.Itoa(int(e.Numbers[w.draw(0, len(e.Numbers)-1)])))
	case 1:
		w.b.WriteString(strconv.Itoa(w.draw(-2, 40)))
	default:
		w.quote(e.Values[w.draw(0, len(e.Values)-1)])
	}
}

// timestamp writes an RFC 3339 date-time: fraction of 0, 3, 6 or 9
// digits, "Z" or an offset.
func (w *pjWriter) timestamp() {
	year := w.draw(1970, 2038)
	if w.one(6) {
		year = w.draw(1, 9999)
	}
	day := w.draw(1, 28)
	if w.one(8) {
		day = w.draw(29, 31)
	}
	s := pjPad(year, 4) + "-" + pjPad(w.draw(1, 12), 2) + "-" + pjPad(day, 2) + "T" +
		pjPad(w.draw(0, 23), 2) + ":" + pjPad(w.draw(0, 59), 2) + ":" + pjPad(w.draw(0, 59), 2) + w.fraction()
	if w.one(4) {
		s += gen.Tokens("+", "-").Draw(w.t) + pjPad(w.draw(0, 14), 2) + ":" + gen.Tokens("00", "30", "45").Draw(w.t)
	} else {
		s += "Z"
	}
	w.quote(s)
}

// fraction is "" or a fraction of a second of 3, 6 or 9 digits (or,
// rarely, another count).
func (w *pjWriter) fraction() string {
	n := gen.SampledFrom(0, 0, 3, 6, 9, 1, 2).Draw(w.t)
	if n == 0 {
		return ""
	}
	s := "."
	for range n {
		s += strconv.Itoa(w.draw(0, 9))
	}
	return s
}

// duration writes seconds with up to nine fractional digits and the "s"
// suffix, within the mapping's range of ±315,576,000,000 s (and at its
// limit).
func (w *pjWriter) duration() {
	var secs string
	switch w.draw(0, 9) {
	case 0:
		secs = gen.Tokens("315576000000", "315576000001", "0", "86400").Draw(w.t)
	case 1:
		secs = strconv.Itoa(w.draw(0, 315576000000))
	default:
		secs = strconv.Itoa(w.draw(0, 3600))
	}
	if w.one(5) {
		secs = "-" + secs
	}
	w.quote(secs + w.fraction() + "s")
}

// fieldMask writes comma-separated paths of lowerCamelCase field names
// (the JSON names of the schema's fields).
func (w *pjWriter) fieldMask() {
	var names []string
	for _, m := range w.cfg.Messages {
		for _, f := range m.Fields {
			names = append(names, f.JSONName)
		}
	}
	if len(names) == 0 {
		names = []string{"name"}
	}
	var paths []string
	for range w.draw(0, 3) {
		segs := make([]string, w.draw(1, 3))
		for i := range segs {
			segs[i] = names[w.draw(0, len(names)-1)]
		}
		paths = append(paths, strings.Join(segs, "."))
	}
	w.quote(strings.Join(paths, ","))
}

// anyJSON writes JSON of any shape (the Struct, Value and ListValue types
// hold arbitrary JSON, and so does an unknown field).
func (w *pjWriter) anyJSON(kind string, depth int) {
	cfg := gojson.Config{MaxDepth: max(1, min(depth+1, 3)), MaxItems: 3, MaxString: 10, Whitespace: w.style > 0}
	switch kind {
	case "object":
		w.b.WriteString(gojson.Object(cfg).Draw(w.t))
	case "array":
		w.array(w.draw(0, 3), func() { w.b.WriteString(gojson.Value(cfg).Draw(w.t)) })
	default:
		w.b.WriteString(gojson.Value(cfg).Draw(w.t))
	}
}

// message writes a value of the message type name: the special form of a
// well-known type, else an object of its fields. depth is the nesting
// left below it.
func (w *pjWriter) message(name string, depth int) {
	switch name {
	case "google.protobuf.Any":
		w.anyValue(depth)
		return
	case "google.protobuf.Timestamp":
		w.timestamp()
		return
	case "google.protobuf.Duration":
		w.duration()
		return
	case "google.protobuf.FieldMask":
		w.fieldMask()
		return
	case "google.protobuf.Struct":
		w.anyJSON("object", depth)
		return
	case "google.protobuf.ListValue":
		w.anyJSON("array", depth)
		return
	case "google.protobuf.Value":
		w.anyJSON("value", depth)
		return
	case "google.protobuf.Empty":
		w.b.WriteString("{}")
		return
	}
	if kind := pjWrappers[name]; kind != "" {
		w.scalar(kind)
		return
	}
	m := w.msgs[name]
	if m == nil {
		w.b.WriteString("{}")
		return
	}
	w.object(w.fields(m, depth))
}

// fields draws the members of an object of message m: each field present
// half of the time (message fields only while depth is left; one member
// of a oneof at most), by its JSON name or, now and then, its proto name;
// in declaration order mostly; now and then a member no field has (the
// mapping's unknown field).
func (w *pjWriter) fields(m *ProtoMessage, depth int) []pjMember {
	var ms []pjMember
	oneofs := map[string]bool{}
	for i := range m.Fields {
		f := &m.Fields[i]
		if f.Kind == "message" && depth <= 0 {
			continue
		}
		if f.Oneof != "" && oneofs[f.Oneof] {
			continue
		}
		if w.one(2) {
			continue
		}
		if f.Oneof != "" {
			oneofs[f.Oneof] = true
		}
		name := f.JSONName
		if f.Name != f.JSONName && w.one(6) {
			name = f.Name
		}
		ms = append(ms, pjMember{name, func() { w.field(f, depth) }})
	}
	if w.one(10) {
		name := pjUnknownNames.Draw(w.t)
		known := false
		for _, f := range m.Fields {
			known = known || name == f.Name || name == f.JSONName
		}
		if !known {
			at := w.draw(0, len(ms))
			u := pjMember{name, func() { w.anyJSON("value", depth-1) }}
			ms = append(ms[:at], append([]pjMember{u}, ms[at:]...)...)
		}
	}
	if len(ms) > 1 && w.one(5) {
		ms = gen.Permutation(ms).Draw(w.t)
	}
	return ms
}

// field writes the value of field f: null now and then (the default), a
// map, a list or a single value.
func (w *pjWriter) field(f *ProtoField, depth int) {
	if f.Oneof == "" && w.one(20) {
		w.b.WriteString("null")
		return
	}
	switch {
	case f.MapKey != "":
		n := w.draw(0, w.cfg.MaxItems)
		seen := map[string]bool{}
		var ms []pjMember
		for range n {
			k := w.mapKey(f.MapKey)
			if seen[k] {
				continue
			}
			seen[k] = true
			ms = append(ms, pjMember{k, func() { w.single(f.Kind, f.Type, depth) }})
		}
		w.object(ms)
	case f.List:
		w.array(w.draw(0, w.cfg.MaxItems), func() { w.single(f.Kind, f.Type, depth) })
	default:
		w.single(f.Kind, f.Type, depth)
	}
}

// mapKey draws a map key of the given kind as the mapping writes it (a
// string in every case).
func (w *pjWriter) mapKey(kind string) string {
	switch kind {
	case "bool":
		return gen.Tokens("true", "false").Draw(w.t)
	case "string":
		var b strings.Builder
		for range w.draw(0, 8) {
			b.WriteString(gen.StringFrom("abcxyz019_-. é", 1, 1).Draw(w.t))
		}
		return b.String()
	}
	lo := -5
	if strings.HasPrefix(kind, "u") || strings.HasPrefix(kind, "fixed") {
		lo = 0
	}
	return strconv.Itoa(w.draw(lo, 100))
}

func (w *pjWriter) single(kind, typ string, depth int) {
	switch kind {
	case "message":
		w.message(typ, depth-1)
	case "enum":
		w.enum(typ)
	default:
		w.scalar(kind)
	}
}

// anyValue writes a google.protobuf.Any: {"@type": URL, ...} with the
// named type's fields or, for a type with a special form, its "value";
// the URL's last segment is one of AnyTypes (now and then a type nobody
// knows), after the usual prefix mostly; "@type" first mostly, else among
// the fields; an empty object now and then (an empty Any).
func (w *pjWriter) anyValue(depth int) {
	if depth < 0 || w.one(10) {
		w.b.WriteString("{}")
		return
	}
	typ := "example.v1.Unregistered"
	if !w.one(40) {
		typ = gen.Tokens(w.cfg.AnyTypes...).Draw(w.t)
	}
	var ms []pjMember
	if pjSpecial(typ) {
		ms = []pjMember{{"value", func() { w.message(typ, depth-1) }}}
	} else if m := w.msgs[typ]; m != nil {
		ms = w.fields(m, depth)
	}
	at := 0
	if len(ms) > 0 && w.one(4) {
		at = w.draw(0, len(ms))
	}
	url := pjPrefixes.Draw(w.t) + typ
	ty := pjMember{"@type", func() { w.quote(url) }}
	ms = append(ms[:at], append([]pjMember{ty}, ms[at:]...)...)
	w.object(ms)
}

// pjPad writes n with at least width digits.
func pjPad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

// ProtoJSON draws documents in the protobuf JSON mapping (the proto3 JSON
// format that protojson, grpc-gateway and the other runtimes read) of the
// message type cfg.Root: an object of the fields present, by JSON name or
// proto name, with the mapping's form of each type (integers as numbers
// or strings, 64-bit ones mostly strings, floats with "NaN" and
// "Infinity", base64 bytes in both alphabets, enums by name or number,
// null for a default), repeated fields as arrays, maps as objects, oneofs
// with one member at most, and the well-known types in their own forms
// (Any with "@type" and the embedded type's fields or "value", RFC 3339
// timestamps, durations, field masks, Struct/Value/ListValue as any JSON,
// wrappers as their scalar, Empty); now and then an unknown member; compact,
// spaced or indented. MistakesPer adds near-miss edits (Corrupt).
func ProtoJSON(cfg ProtoJSONConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	msgs := map[string]*ProtoMessage{}
	for i := range cfg.Messages {
		msgs[cfg.Messages[i].Name] = &cfg.Messages[i]
	}
	enums := map[string]*ProtoEnum{}
	for i := range cfg.Enums {
		enums[cfg.Enums[i].Name] = &cfg.Enums[i]
	}
	return gen.Custom(func(t *gfz.T) string {
		w := &pjWriter{t: t, cfg: cfg, msgs: msgs, enums: enums}
		w.style = w.draw(0, 2)
		w.message(cfg.Root, cfg.MaxDepth)
		if w.style == 2 {
			w.b.WriteByte('\n')
		}
		return Corrupt(t, w.b.String(), cfg.MistakesPer)
	}).Named("protojson")
}
