// Package msgpackmapkey pins github.com/vmihailenco/msgpack/v4 v4.3.11,
// where Unmarshal into an interface panics (reflect.MapOf: invalid key
// type) on a map whose first key is an array or a map: DecodeMap decodes
// the first pair, then builds a map type from the types of that key and
// value with reflect.MapOf, which panics for a key type that Go cannot
// compare ([]interface{}, map[string]interface{}). MessagePack allows any
// value as a key. Reported as https://github.com/vmihailenco/msgpack/issues/260
// (on v2, where the panic was the map assignment's "hash of unhashable
// type"), fixed in v4.3.12 by https://github.com/vmihailenco/msgpack/pull/267
// (the backport of #265: DecodeMap returns an error when the key type is
// not comparable).
//
// A structure: a map (not an array, not at a string first key, which takes
// the map[string]interface{} path) whose first key is itself a container.
package msgpackmapkey

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"example.com/bugkit"
	"github.com/vmihailenco/msgpack/v4"
)

// Issue is the upstream report.
const Issue = "https://github.com/vmihailenco/msgpack/issues/260"

// Site is the panic of reflect.MapOf for a key type without ==, called by
// DecodeMap (decode_map.go:228). The site is in the standard library, so
// its line is the toolchain's: mapOfPanicLines finds it in the
// toolchain's reflect/map.go. The lines matter: v4.3.11 calls MapOf with a
// nil type when the first key or value is nil ({1: nil}, {nil: 1}), a nil
// dereference in MapOf (its key.common() or elem.common()) that is
// another bug (still present at v4.3.12: the fix's check calls
// keyType.Comparable() on the nil key type).
var Site = bugkit.Site{Func: "reflect.MapOf", File: "map.go", Lines: mapOfPanicLines(),
	Callers: []string{"github.com/vmihailenco/msgpack/v4.(*Decoder).DecodeMap"}}

// mapOfPanicLines returns the lines of the toolchain's reflect/map.go that
// raise MapOf's "invalid key type" panic, or, when the source cannot be
// read or has no such line, a line no frame has (the oracle then accepts
// nothing, and TestReproducer fails, rather than accepting the nil forms).
func mapOfPanicLines() []int {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "reflect", "map.go"))
	if err != nil {
		return []int{-1}
	}
	var lines []int
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, `panic("reflect.MapOf: invalid key type`) {
			lines = append(lines, i+1)
		}
	}
	if len(lines) == 0 {
		return []int{-1}
	}
	return lines
}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Keys are field names of the messages an application exchanges, for the
// generator.
var Keys = []string{"id", "type", "name", "payload", "ts", "tags", "items", "meta", "ok", "n"}

// Decode decodes a MessagePack message into an interface value, as a
// service does with messages of no fixed schema, and encodes the result
// again (a proxy or a log that re-serialises what it received).
func Decode(data []byte) (any, error) {
	var v any
	if err := msgpack.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("unmarshal: %w", err)
	}
	if _, err := msgpack.Marshal(v); err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	return v, nil
}
