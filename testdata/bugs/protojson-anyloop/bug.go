// Package protojsonanyloop pins google.golang.org/protobuf v1.32.0, where
// protojson.Unmarshal never returns on an object member whose value is
// missing, as {"":}, when the decoder skips that member's value: the JSON
// tokenizer (internal/encoding/json) accepts a '}' right after a member
// name, and skipJSONValue, which counts the brackets it reads until the
// value it skips is closed, takes that '}' for the end of a value it never
// opened; its count falls below zero, never gets back to zero, and the
// loop reads the end-of-input token forever. protojson skips values for
// the members of an unknown field when UnmarshalOptions.DiscardUnknown is
// set, and, with or without it, for the members of a google.protobuf.Any
// object while it looks for "@type". CVE-2024-24786 (GO-2024-2611,
// GHSA-8r3f-844c-mc37), fixed in v1.33.0 by commit f01a588 ("handle
// missing object values": the tokenizer rejects the '}', and skipJSONValue
// stops on EOF):
// https://github.com/protocolbuffers/protobuf-go/commit/f01a588e5810b90996452eec4a28f22a0afae023
//
// A near miss of valid JSON: a member name and its colon with the value
// left out before the '}', in an Any or (with DiscardUnknown) under a name
// the message has no field for, at any depth.
package protojsonanyloop

import (
	"example.com/bugkit"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/apipb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/sourcecontextpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/typepb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// Issue is the upstream fix (the report was private; the advisory is
// https://pkg.go.dev/vuln/GO-2024-2611).
const Issue = "https://github.com/protocolbuffers/protobuf-go/commit/f01a588e5810b90996452eec4a28f22a0afae023"

// Site is where the looping goroutine is found: skipJSONValue's loop
// (well_known_types.go:312-329; it never returns once the count is below
// zero, so every dump taken during the hang shows it, whatever helper of
// the tokenizer it is calling), any caller: unmarshalMessage for an
// unknown field with DiscardUnknown, findTypeURL for the members of an
// Any, unmarshalAny, unmarshalAnyValue and unmarshalEmpty, all guarded by
// the same fix.
var Site = bugkit.Site{Func: "google.golang.org/protobuf/encoding/protojson.decoder.skipJSONValue", File: "well_known_types.go"}

// IsBug reports whether a dump of the goroutines taken while an input ran
// too long (a SIGQUIT dump, a test timeout) is this bug.
func IsBug(stack string) bool { return Site.MatchHang(stack) }

// KnownTypes are the message types the resolver knows (they are linked
// in, so protoregistry.GlobalTypes has them): an Any may name any of them.
var KnownTypes = []proto.Message{
	&apipb.Api{}, &apipb.Method{}, &apipb.Mixin{},
	&typepb.Type{}, &typepb.Field{}, &typepb.Enum{}, &typepb.EnumValue{}, &typepb.Option{},
	&sourcecontextpb.SourceContext{}, &anypb.Any{},
	&structpb.Struct{}, &structpb.Value{}, &structpb.ListValue{},
	&durationpb.Duration{}, &timestamppb.Timestamp{}, &fieldmaskpb.FieldMask{}, &emptypb.Empty{},
	&wrapperspb.DoubleValue{}, &wrapperspb.FloatValue{}, &wrapperspb.Int64Value{}, &wrapperspb.UInt64Value{},
	&wrapperspb.Int32Value{}, &wrapperspb.UInt32Value{}, &wrapperspb.BoolValue{}, &wrapperspb.StringValue{},
	&wrapperspb.BytesValue{},
}

// Words are strings of the domain (API names, versions, type URLs, file
// names), for the generator.
var Words = []string{
	"google.example.library.v1.LibraryService", "CreateBook", "ListShelves", "GetShelf",
	"type.googleapis.com/google.example.library.v1.Book", "type.googleapis.com/google.protobuf.Empty",
	"v1", "v2beta1", "1.0.3", "google/example/library/v1/library.proto", "google.longrunning.Operations",
	"deprecated", "java_package", "com.example.library", "TYPE_STRING", "proto3", "2023", "",
}

// Decode reads a request body into a google.protobuf.Api (an API
// description, whose options carry google.protobuf.Any values) with
// DiscardUnknown set, as lenient JSON gateways configure protojson
// (gRPC-Gateway's JSONPb marshalers commonly do), and writes the message
// back as JSON, the response.
func Decode(body []byte) ([]byte, error) {
	api, err := decodeAPI(body)
	if err != nil {
		return nil, err
	}
	return protojson.Marshal(api)
}

func decodeAPI(body []byte) (*apipb.Api, error) {
	api := new(apipb.Api)
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(body, api); err != nil {
		return nil, err
	}
	return api, nil
}
