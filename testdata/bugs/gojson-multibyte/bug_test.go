package gojsonmultibyte

import (
	"io"
	"strings"
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	json "github.com/goccy/go-json"
)

// FuzzNative decodes the input as a stream of JSON values (the project
// has no fuzz target), seeded with streams like those of the project's
// stream and decoder tests (stream_test.go's streamEncoded, the messages
// of Test_DecodeStream, TestRawMessage's document, TestHTTPDecoding's
// body) and a nested document.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"0.1\n\"hello\"\nnull\ntrue\nfalse\n[\"a\",\"b\",\"c\"]\n{\"ß\":\"long s\",\"K\":\"Kelvin\"}\n3.14\n",
		`[
		{"Name": "Ed", "Text": "Knock knock."},
		{"Name": "Sam", "Text": "Who's there?"},
		{"Name": "Ed", "Text": "Go fmt."}
	]`,
		`{"X":0.1,"Id":["\u0056",null],"Y":0.2}`,
		`{ "foo": "bar" }`,
		"{\"id\":1,\"name\":\"a\"}\n{\"id\":2,\"name\":\"b\",\"tags\":[]}\n",
		`{"a":{"b":[1,-2.5e3,{"c":null}],"d":"x\ty\n"},"e":false}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Decode(data)
	})
}

// FuzzGfz is the gfz target: JSON streams from the grammar generator, a
// tenth of them with near-miss edits; a stream Decode rejects is an
// invalid input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	stream := gens.JSONStream(gens.JSONStreamConfig{MistakesPer: 100})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Decode([]byte(stream.Draw(t))); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the report's document: a key of two CJK characters, then
// an array whose string's \u escape sits at the end of the first buffer.
var reproducer = `{"嗷嗷":["` + strings.Repeat("a", 495) + `\u55f7"]}`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Decode([]byte(reproducer)) }, "slice bounds out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic of this version
// is not this bug: the one-read defect of
// https://github.com/goccy/go-json/issues/374 (fixed in v0.9.9 by commit
// 8f5055b), with the fix's TestIssue374 input, a \u escape whose digits
// come in a second read, which panics in the interface decoder's string
// loop ((*Stream).char from decodeStreamEmptyInterface interface.go:236).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() {
		r := io.MultiReader(strings.NewReader(strings.Repeat(" ", 505)+`"\u`), strings.NewReader(`0000"`))
		var v any
		_ = json.NewDecoder(r).Decode(&v)
	})
	bugkit.RejectsPanic(t, IsBug, nil)
}
