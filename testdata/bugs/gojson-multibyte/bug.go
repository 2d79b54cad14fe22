// Package gojsonmultibyte pins github.com/goccy/go-json v0.7.6, whose
// streaming decoder (json.NewDecoder(r).Decode) panics on valid JSON: when
// stringBytes, the stream's string scanner (used for object keys, and for
// string values of typed targets), steps over a multi-byte UTF-8
// character, it adds the character's length to the stream's data length
// as if it had inserted bytes, so the length runs past the data read so
// far. A \u escape decoded before the next read near the end of the
// buffer then trusts that length: decodeUnicodeRune does not read more
// and slices or indexes the buffer past its end. The report
// (https://github.com/goccy/go-json/issues/278) decodes into an
// interface{} a document with a non-ASCII key followed by a string value
// whose \u escape straddles the first 512-byte buffer. Fixed in v0.7.7 by
// pull request #280 (commit ac41fbe, "fixed buffer length bug on string
// decoder"), released with #279 (multi-byte characters cut by the end of
// the buffer).
//
// A bug of ordinary, valid documents: longer than the first buffer, with
// multi-byte characters in a key and a \u escape after them near the
// buffer's end (as producers that escape non-ASCII text write).
package gojsonmultibyte

import (
	"bytes"
	"errors"
	"io"

	"example.com/bugkit"
	json "github.com/goccy/go-json"
)

// Issue is the upstream report.
const Issue = "https://github.com/goccy/go-json/issues/278"

// Site is decodeUnicodeRune reading the buffer up to the stream's
// over-counted length: the four hex digits of the escape (string.go:107,
// the report's line), the backslash and 'u' of a second escape after a
// high surrogate (113), or the second escape's digits (116); any caller.
// With the length right, 113 and 116 are always inside the buffer;
// 107 is also reached by the one-read defect of
// https://github.com/goccy/go-json/issues/374 when the read after the
// escape brings fewer than its digits (a short read, or the end of the
// input inside the escape).
//
// The over-counted length also surfaces, most of the time, after
// decodeUnicodeRune has returned: in the splicing of the decoded
// character into the buffer (decodeUnicode string.go:133), in the read of
// the escaped character (decodeEscapeString string.go:143), or in the
// interface decoder's string loop ((*Stream).char stream.go:79 from
// decodeStreamEmptyInterface interface.go:236). Those lines are left out:
// #374's defect, still in v0.7.7, panics at each of them, and its
// reproducer at the last one.
var Site = bugkit.Site{Func: "github.com/goccy/go-json/internal/decoder.decodeUnicodeRune", File: "string.go", Lines: []int{107, 113, 116}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode reads every JSON value of a stream (a request body, a JSON Lines
// file, a queue message) with the library's streaming Decoder into
// interface values, as a program decodes an io.Reader it does not hold in
// memory, until the end of the stream; the first error stops it.
func Decode(data []byte) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var values []any
	// Every value takes at least one byte: more calls than bytes means
	// the decoder no longer advances.
	for range len(data) + 1 {
		var v any
		if err := dec.Decode(&v); err != nil {
			if errors.Is(err, io.EOF) {
				return values, nil
			}
			return values, err
		}
		values = append(values, v)
	}
	return values, errors.New("the decoder does not advance")
}
