package msgpackmapkey

import (
	"testing"
	"time"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/vmihailenco/msgpack/v4"
)

// FuzzNative decodes the input into an interface value and encodes it
// again (Decode; the project has no fuzz target at v4.3.11), seeded with
// values encoded by the library like those of the project's tests
// (msgpack_test.go, example_test.go).
func FuzzNative(f *testing.F) {
	for _, v := range []any{
		map[string]any{"foo": "bar"},
		map[string]any{"id": 1, "name": "x", "tags": []string{"a", "b"}, "ok": true, "meta": nil},
		[]any{int8(-1), uint16(300), 1.5, float32(2.5), "hello", []byte{1, 2, 3}},
		map[int]string{1: "just one", 3: "just three"},
		map[string]any{"ts": time.Unix(1600000000, 5).UTC(), "items": []any{map[string]any{"n": 1}}},
		"string",
		uint64(1) << 40,
	} {
		b, err := msgpack.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Decode(data)
	})
}

// FuzzGfz is the gfz target: MessagePack values from the grammar
// generator, map keys from Keys half of the time, a fifth of them with
// byte-level near-miss edits; a message Decode rejects is an invalid
// input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	msg := gens.MsgPack(gens.MsgPackConfig{Keys: Keys, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Decode(msg.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the report's payload: {{"x": true}: true}, a map whose
// only key is a map.
var reproducer = []byte{0x81, 0x81, 0xa1, 0x78, 0xc3, 0xc3}

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Decode(reproducer) }, "invalid key type", IsBug)
}

// TestReproducerArrayKey checks the array-key form of the bug, the fix's
// test case ({[1]: true}).
func TestReproducerArrayKey(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Decode([]byte{0x81, 0x91, 0x01, 0xc3}) }, "invalid key type", IsBug)
}

// TestOracleRejectsOtherPanics checks that other panics of this version
// are not this bug: the nil dereferences in the same MapOf call for a nil
// first value ({1: nil}) and a nil first key ({nil: 1}).
func TestOracleRejectsOtherPanics(t *testing.T) {
	if len(Site.Lines) == 0 {
		t.Fatal("the toolchain's reflect/map.go has no MapOf invalid key type panic")
	}
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Decode([]byte{0x81, 0x01, 0xc0}) })
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Decode([]byte{0x81, 0xc0, 0x01}) })
	bugkit.RejectsPanic(t, IsBug, nil)
}
