// Package bsonlenoverflow pins go.mongodb.org/mongo-driver/v2 v2.8.2, where
// validating raw BSON panics (slice bounds out of range) on an element whose
// declared length is within a few bytes of 2^31: bsoncore's valueLength adds
// the type's fixed overhead (4+1 for binary data, 4 for a string, JavaScript
// code or symbol, 4+12 for a DBPointer) to the int32 length read from the
// data, the sum wraps negative, passes ReadElement's check against the bytes
// left, and the element is sliced with a negative bound. Bytes read from the
// network or a file (bson.Raw.Validate, Raw.Elements, Raw.Lookup, the
// driver's cursors) crash the caller instead of returning an error.
// Reported as GODRIVER-4102, fixed in v2.9.0 by
// https://github.com/mongodb/mongo-go-driver/pull/2548.
//
// A document that is well formed but for one length field: the element's
// type must be one whose length has an overhead, and its length must be
// 0x7ffffffb or more (the report's binary element has 0x7fffffff).
package bsonlenoverflow

import (
	"fmt"

	"example.com/bugkit"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// Issue is the upstream report (the pull request that names GODRIVER-4102).
const Issue = "https://github.com/mongodb/mongo-go-driver/pull/2548"

// Site is the slicing of the element in ReadElement, any caller
// (Document.Validate, Document.Elements, Lookup...).
var Site = bugkit.Site{Func: "go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore.ReadElement", File: "bsoncore.go", Lines: []int{123}}

// ValueSite is the same slicing in readValue, which the fix also guards:
// reached by a caller that reads a value on its own (Value.Validate,
// ReadValue), not through Decode, since ReadElement slices every element
// first; listed so that the oracle stays right for such a target.
var ValueSite = bugkit.Site{Func: "go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore.readValue", File: "bsoncore.go", Lines: []int{700}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) || ValueSite.MatchPanic(stack) }

// Keys are field names of the documents an application stores, for the
// generator.
var Keys = []string{"_id", "name", "email", "age", "tags", "profile", "createdAt", "data", "n", "x"}

// Decode checks a BSON document received from outside (a message, a
// file, a reply) with bson.Raw.Validate, as a service does before
// trusting raw bytes, then decodes it into an ordered document.
func Decode(data []byte) (bson.D, error) {
	if err := bson.Raw(data).Validate(); err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	var d bson.D
	if err := bson.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("unmarshal: %w", err)
	}
	return d, nil
}
