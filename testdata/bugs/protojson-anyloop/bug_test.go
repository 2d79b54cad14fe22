package protojsonanyloop

import (
	"testing"
	"time"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// FuzzNative is the project's go-fuzz target (internal/fuzz/jsonfuzz at
// v1.32.0: unmarshal, marshal, unmarshal again, and the two messages must
// be equal) turned native, on the module's Api and Decode's options (the
// project's target decodes an internal test message), seeded with
// documents like those of the project's protojson tests.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"name":"google.example.library.v1.LibraryService","version":"v1","syntax":"SYNTAX_PROTO3"}`,
		`{"name":"Library","methods":[{"name":"GetBook","requestTypeUrl":"type.googleapis.com/GetBookRequest","responseTypeUrl":"type.googleapis.com/Book","responseStreaming":true}],"mixins":[{"name":"google.iam.v1.IAMPolicy","root":"v1"}]}`,
		`{"options":[{"name":"deprecated","value":{"@type":"type.googleapis.com/google.protobuf.BoolValue","value":true}}],"sourceContext":{"fileName":"library.proto"}}`,
		"{\n  \"options\": [{\n    \"name\": \"schema\",\n    \"value\": {\n      \"@type\": \"type.googleapis.com/google.protobuf.Type\",\n      \"name\": \"Book\",\n      \"fields\": [{\"kind\": \"TYPE_STRING\", \"cardinality\": \"CARDINALITY_OPTIONAL\", \"number\": 1, \"name\": \"title\", \"jsonName\": \"title\"}]\n    }\n  }]\n}\n",
		`{"options":[{"name":"created","value":{"@type":"type.googleapis.com/google.protobuf.Timestamp","value":"2019-03-19T23:03:21Z"}},{"name":"meta","value":{"@type":"google.protobuf.Struct","value":{"owner":"lib","tags":["a",1,null]}}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m1, err := decodeAPI(data)
		if err != nil {
			return
		}
		b, err := protojson.Marshal(m1)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		m2, err := decodeAPI(b)
		if err != nil {
			t.Fatalf("unmarshal the marshaled message: %v\n%s", err, b)
		}
		if !proto.Equal(m1, m2) {
			t.Fatalf("not equal after a round trip:\n%v\n%v", m1, m2)
		}
	})
}

// schema describes KnownTypes (the Api, every type its fields reach, the
// types an Any may name) for the generator, from their descriptors.
func schema() gens.ProtoJSONConfig {
	cfg := gens.ProtoJSONConfig{Root: "google.protobuf.Api", Words: Words, MistakesPer: 200}
	seen := map[protoreflect.FullName]bool{}
	addEnum := func(ed protoreflect.EnumDescriptor) {
		if seen[ed.FullName()] {
			return
		}
		seen[ed.FullName()] = true
		e := gens.ProtoEnum{Name: string(ed.FullName())}
		for i := 0; i < ed.Values().Len(); i++ {
			v := ed.Values().Get(i)
			e.Values = append(e.Values, string(v.Name()))
			e.Numbers = append(e.Numbers, int32(v.Number()))
		}
		cfg.Enums = append(cfg.Enums, e)
	}
	var addMessage func(md protoreflect.MessageDescriptor)
	addMessage = func(md protoreflect.MessageDescriptor) {
		if seen[md.FullName()] {
			return
		}
		seen[md.FullName()] = true
		m := gens.ProtoMessage{Name: string(md.FullName())}
		for i := 0; i < md.Fields().Len(); i++ {
			fd := md.Fields().Get(i)
			pf := gens.ProtoField{Name: string(fd.Name()), JSONName: fd.JSONName(), List: fd.IsList()}
			vd := fd
			if fd.IsMap() {
				pf.MapKey = fd.MapKey().Kind().String()
				vd = fd.MapValue()
			}
			pf.Kind = vd.Kind().String()
			switch vd.Kind() {
			case protoreflect.EnumKind:
				pf.Type = string(vd.Enum().FullName())
				addEnum(vd.Enum())
			case protoreflect.MessageKind, protoreflect.GroupKind:
				pf.Kind = "message"
				pf.Type = string(vd.Message().FullName())
				addMessage(vd.Message())
			}
			if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
				pf.Oneof = string(od.Name())
			}
			m.Fields = append(m.Fields, pf)
		}
		cfg.Messages = append(cfg.Messages, m)
	}
	for _, m := range KnownTypes {
		md := m.ProtoReflect().Descriptor()
		addMessage(md)
		cfg.AnyTypes = append(cfg.AnyTypes, string(md.FullName()))
	}
	return cfg
}

// FuzzGfz is the gfz target: JSON documents of google.protobuf.Api in the
// protobuf JSON mapping from the grammar generator (Any values of every
// known type, unknown members now and then), a fifth of them with
// near-miss edits; a document Decode rejects is an invalid input. No
// seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.ProtoJSON(schema())
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Decode([]byte(doc.Draw(t))); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the input of the fix's tests ("Object missing value:
// DiscardUnknown", and "Object missing value: Any" into an Any): a member
// without its value, here an unknown field of the Api.
const reproducer = `{"":}`

// reproducerAny is the same missing value inside an Any (an option's
// value): findTypeURL skips it while it looks for "@type", with or
// without DiscardUnknown.
const reproducerAny = `{"options":[{"name":"o","value":{"":}}]}`

// TestReproducer runs each reproducer in a goroutine: the bug is present
// when Decode has not returned after 3 seconds (it takes microseconds at
// the fixed version). The looping goroutines keep running until the test
// binary exits (the two subtests wait at the same time).
func TestReproducer(t *testing.T) {
	for _, c := range []struct{ name, in string }{{"DiscardUnknown", reproducer}, {"Any", reproducerAny}} {
		t.Run(c.name, func(t *testing.T) {
			in := c.in
			t.Parallel()
			dump, hung := bugkit.CatchHang(func() { _, _ = Decode([]byte(in)) }, 3*time.Second)
			if !hung {
				t.Fatalf("Decode(%q) returned: the bug is not present at this version", in)
			}
			if !IsBug(dump) {
				t.Errorf("IsBug does not recognise the hung goroutine (site %v):\n%s", Site, dump)
			}
		})
	}
}

// TestOracleRejectsOtherPanics checks that another crash is not this bug
// (no other panic or hang of v1.32.0's protojson is reported).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
