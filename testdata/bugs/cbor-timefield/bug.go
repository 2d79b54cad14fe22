// Package cbortimefield pins github.com/fxamacker/cbor/v2 v2.9.0, where
// Unmarshal into a struct panics (index out of range) when an
// indefinite-length map gives a time.Time field a value that is not a
// time (a byte string, an array or a map): parseToTime returns its type
// error without skipping the data item, the cursor stays on the item's
// head, and parseMapToStruct, which goes on decoding the other pairs
// after a type error, reads the rest out of step until its check for the
// break code (foundBreak, no bounds check: the data were checked well
// formed) reads past the end. A definite-length map only returns the
// type error. Reported from fuzzing as
// https://github.com/fxamacker/cbor/issues/802 (again as #809), fixed in
// v2.9.3 by https://github.com/fxamacker/cbor/pull/803.
//
// A combination: an indefinite-length map decoded into the struct, the
// key of its time.Time field, and a value of another type.
package cbortimefield

import (
	"time"

	"example.com/bugkit"
	"github.com/fxamacker/cbor/v2"
)

// Issue is the upstream report.
const Issue = "https://github.com/fxamacker/cbor/issues/802"

// Site is foundBreak (inlined) in the loops of parseMapToStruct over the
// pairs of an indefinite-length map: decode.go:2685 is the main loop (the
// report's line); the others are the loops that skip the remaining pairs
// after an error, where the same out-of-step read can end (they run only
// with the duplicate-key or unknown-field options, which Decode does not
// set: listed so that the oracle stays right if a target sets them).
var Site = bugkit.Site{
	Func:  "github.com/fxamacker/cbor/v2.(*decoder).parseMapToStruct",
	File:  "decode.go",
	Lines: []int{2685, 2720, 2747, 2799, 2847, 2869},
	Inner: []string{"github.com/fxamacker/cbor/v2.(*decoder).foundBreak"},
}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Record is what an application decodes a CBOR message into, a struct of
// the common field types, like the record of the fuzz target of the
// report (an interface, bytes, a string, a time, a map...).
type Record struct {
	Any     any              `cbor:"a"`
	Bytes   []byte           `cbor:"b"`
	String  string           `cbor:"c"`
	Time    time.Time        `cbor:"d"`
	Map     map[string]int64 `cbor:"e"`
	Ints    []int64          `cbor:"f"`
	Float   float64          `cbor:"g"`
	Bool    bool             `cbor:"h"`
	Child   *Record          `cbor:"i"`
	Name    string           `cbor:"name"`
	Created string           `cbor:"created"`
	Tags    []string         `cbor:"tags"`
}

// Keys are the record's field names, as the generator draws map keys.
var Keys = []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "name", "created", "tags"}

// Decode decodes a CBOR message into a Record with the default options.
func Decode(data []byte) (Record, error) {
	var r Record
	err := cbor.Unmarshal(data, &r)
	return r, err
}
