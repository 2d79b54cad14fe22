// Package magic is the planted example of the cmp feedback domain: a
// packet is accepted only with a 4-byte magic number in its header, and
// one command keyword reaches a bug. Plain coverage gives no gradient
// towards either (one edge for "wrong magic", one for "right magic"); the
// comparison probes of gfz-build -cmp report how many bits and prefix
// bytes match, and feed the operands back as mutation tokens.
//
// Neither the magic nor the keyword is a literal of the code, so
// gfz-build's literal dictionary does not hold them: the magic is
// computed at init, the keyword is a constant expression of two literals.
package magic

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// magic is 0xdeadbeef, computed so that it is not a literal.
var magic = uint32(0x6f56df77)*2 + 1

const keyword = "frob" + "nicate"

// Errors of Handle.
var (
	ErrShort = errors.New("short header")
	ErrMagic = errors.New("bad magic")
	ErrCmd   = errors.New("unknown command")
)

// Handle processes a packet: a 4-byte little-endian magic header, then a
// command. It returns an error for a malformed packet. The keyword
// command has a planted bug: it reads past the payload, which has at
// most 4 bytes.
func Handle(header []byte, cmd string, payload []byte) (string, error) {
	if len(header) < 4 {
		return "", ErrShort
	}
	if binary.LittleEndian.Uint32(header) != magic {
		return "", ErrMagic
	}
	switch cmd {
	case "ping":
		return "pong", nil
	case "echo":
		return string(payload), nil
	case keyword:
		return fmt.Sprint(payload[4]), nil // bug: payloads have at most 4 bytes
	}
	return "", ErrCmd
}
