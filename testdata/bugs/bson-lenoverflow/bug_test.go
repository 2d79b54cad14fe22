package bsonlenoverflow

import (
	"testing"
	"time"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// FuzzNative validates and decodes the input, then encodes the document
// again and decodes that, like the project's FuzzDecode (bson/fuzz_test.go:
// Unmarshal, Marshal, Unmarshal; it never validates raw bytes, so it cannot
// reach the bug), seeded with documents like those of the project's tests
// and of the BSON corpus (bson_corpus_spec_test.go).
func FuzzNative(f *testing.F) {
	for _, d := range []bson.D{
		{{Key: "hello", Value: "world"}},
		{{Key: "a", Value: int32(1)}, {Key: "b", Value: int64(2)}, {Key: "c", Value: 3.5}, {Key: "d", Value: true}, {Key: "e", Value: nil}},
		{{Key: "doc", Value: bson.D{{Key: "x", Value: bson.A{"y", int32(2), bson.D{}}}}}},
		{{Key: "_id", Value: bson.ObjectID{0x5f, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}, {Key: "t", Value: bson.NewDateTimeFromTime(time.Unix(1600000000, 0))}},
		{{Key: "bin", Value: bson.Binary{Subtype: 0x04, Data: make([]byte, 16)}}, {Key: "re", Value: bson.Regex{Pattern: "^a", Options: "i"}}},
		{{Key: "ts", Value: bson.Timestamp{T: 1, I: 2}}, {Key: "js", Value: bson.JavaScript("x")}, {Key: "min", Value: bson.MinKey{}}},
	} {
		b, err := bson.Marshal(d)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, h := range []string{
		"0500000000",                   // {}
		"0d000000056100000000000000",   // {"a": binary, empty}
		"0e00000002610002000000620000", // {"a": "b"}
	} {
		f.Add(bugkit.Hex(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(data)
		if err != nil {
			return
		}
		b, err := bson.Marshal(d)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if _, err := Decode(b); err != nil {
			t.Fatalf("decode the re-encoded document: %v", err)
		}
	})
}

// FuzzGfz is the gfz target: BSON documents from the grammar generator,
// element names from Keys half of the time, a fifth of them with
// byte-level near-miss edits; a document Decode rejects is an invalid
// input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.BSON(gens.BSONConfig{Keys: Keys, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Decode(doc.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the document of the fix's test
// (TestValueLengthOverflowNoPanic): {"a": binary} whose binary length is
// math.MaxInt32.
var reproducer = bugkit.Hex("0d000000056100ffffff7f0000")

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Decode(reproducer) }, "slice bounds out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic of this version
// is not this bug: Array.Validate's index out of range [-1] on an array
// whose length field is below 4 (GODRIVER-4136,
// https://github.com/mongodb/mongo-go-driver/pull/2591, not fixed in a
// release).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _ = bson.RawArray{0, 0, 0, 0}.Validate() })
	bugkit.RejectsPanic(t, IsBug, nil)
}
