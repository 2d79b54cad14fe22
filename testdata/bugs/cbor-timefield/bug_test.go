package cbortimefield

import (
	"testing"
	"time"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/fxamacker/cbor/v2"
	"github.com/gfz-dev/gfz"
)

// FuzzNative decodes the input into a Record, as the report's fuzz
// target does (FuzzDecModeUnmarshalComplex: Unmarshal into a record of
// the common field types), seeded with encoded records and examples of
// RFC 8949's appendix A like the project's tests use.
func FuzzNative(f *testing.F) {
	rec := Record{Any: "x", Bytes: []byte{1, 2}, String: "s", Time: time.Unix(1363896240, 0).UTC(),
		Map: map[string]int64{"k": 1}, Ints: []int64{1, -2}, Float: 1.5, Bool: true,
		Child: &Record{Name: "child"}, Name: "n", Tags: []string{"t"}}
	b, err := cbor.Marshal(rec)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	for _, h := range []string{
		"a201020304",               // {1: 2, 3: 4}
		"a26161016162820203",       // {"a": 1, "b": [2, 3]}
		"bf61610161629f0203ffff",   // {_ "a": 1, "b": [_ 2, 3]}
		"bf6346756ef563416d7421ff", // {_ "Fun": true, "Amt": -2}
		"a16164c074323031332d30332d32315432303a30343a30305a", // {"d": 0("2013-03-21T20:04:00Z")}
		"a1616fc11a514b67b0", // {"o": 1(1363896240)}
	} {
		f.Add(bugkit.Hex(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Decode(data)
	})
}

// FuzzGfz is the gfz target: CBOR items from the grammar generator, map
// keys from the record's field names half of the time, a fifth of them
// with byte-level near-miss edits; an item Decode rejects is an invalid
// input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	item := gens.CBOR(gens.CBORConfig{Keys: Keys, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Decode(item.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the shape of #809 and of the fix's test
// (TestParseToTimeConsumeDataOnError): {_ "d": [1], "z": 7}, the time
// field given an array, in an indefinite-length map.
var reproducer = bugkit.Hex("bf61648101617a07ff")

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Decode(reproducer) }, "index out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this
// bug (no other panic of v2.9.0 is reported).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
