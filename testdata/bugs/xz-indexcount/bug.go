// Package xzindexcount pins github.com/ulikunitz/xz v0.5.9, where
// reading an .xz file panics (makeslice: len out of range) when the
// number of records in a stream's index is huge: readIndexBody reads the
// count as a variable-length integer and allocates the records with it,
// unchecked. Found by fuzzing: https://github.com/ulikunitz/xz/issues/40
// (fixed in v0.5.10 by 51328d4, which checks the count against the
// number of blocks read).
//
// The index comes after the stream header (with its CRC32) and the
// blocks; the count must be a variable-length integer of at least seven
// bytes (more than 2^44 records of 16 bytes).
package xzindexcount

import (
	"bytes"
	"io"

	"example.com/bugkit"
	"github.com/ulikunitz/xz"
)

// Issue is the upstream report.
const Issue = "https://github.com/ulikunitz/xz/issues/40"

// Site is the allocation of the index records in readIndexBody.
var Site = bugkit.Site{Func: "github.com/ulikunitz/xz.readIndexBody", File: "format.go", Lines: []int{684}}

// IsBug reports whether a failure's stack trace is this bug: the
// makeslice panic or, for a count that passes makeslice's check but not
// the machine's memory (2^31 to 2^44 records), the runtime's fatal "out
// of memory" error thrown by the same allocation.
func IsBug(stack string) bool {
	if Site.MatchPanic(stack) {
		return true
	}
	// The runtime spells it two ways: "runtime: out of memory" when the
	// heap cannot grow, "out of memory" when it cannot reserve the
	// address space (a count of 2^43 or more, or under a ulimit).
	oom := bytes.Contains([]byte(stack), []byte("fatal error: runtime: out of memory")) ||
		bytes.Contains([]byte(stack), []byte("fatal error: out of memory"))
	return oom && Site.MatchHang(stack)
}

// Decompress reads a whole .xz file, as an archive tool or a package
// loader does.
func Decompress(data []byte) ([]byte, error) {
	r, err := xz.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}
