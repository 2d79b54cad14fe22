package gens

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"hash/crc32"
	"hash/crc64"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// XZConfig tunes XZ.
type XZConfig struct {
	MaxBlocks   int // blocks per stream; default 3
	MaxChunks   int // LZMA2 chunks per block; default 3
	MistakesPer int // per mille of files passed through CorruptBytes; default 0
}

func (c XZConfig) withDefaults() XZConfig {
	if c.MaxBlocks <= 0 {
		c.MaxBlocks = 3
	}
	if c.MaxChunks <= 0 {
		c.MaxChunks = 3
	}
	return c
}

var (
	xzCRC64Table = crc64.MakeTable(crc64.ECMA)
	// xzCheck is the check type of a stream's flags: none, CRC32, CRC64,
	// SHA-256, and rarely a reserved one.
	xzCheck = gen.OneOfWeighted(
		gen.W(8, gen.SampledFrom[byte](0x00, 0x01, 0x04, 0x0a)),
		gen.W(1, gen.Map(gen.IntRange(0, 15), func(n int) byte { return byte(n) })),
	)
	// xzDictProp is the LZMA2 dictionary-size property: 4 KiB to 8 MiB
	// (the reader allocates the whole dictionary), small ones mostly.
	xzDictProp = gen.OneOfWeighted(
		gen.W(4, gen.Map(gen.IntRange(0, 12), func(n int) byte { return byte(n) })),
		gen.W(1, gen.Map(gen.IntRange(13, 22), func(n int) byte { return byte(n) })),
	)
	xzText = gen.OneOfWeighted(
		gen.W(4, gen.Tokens("The quick brown fox jumps over the lazy dog.\n", "hello, world\n", "aaaaaaaaaaaaaaaa", "0123456789", "\x00\x01\x02\xff", "")),
		gen.W(2, gen.StringFrom("abc xyz\n\x00\xff", 0, 40)),
		gen.W(1, gen.Map(gen.IntRange(0, 300), func(n int) string {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte('a' + i%26)
			}
			return string(b)
		})),
	)
)

type xzWriter struct {
	t   *gfz.T
	cfg XZConfig
	b   []byte
}

func xzUvarint(b []byte, x uint64) []byte { return binary.AppendUvarint(b, x) }

func xzPad4(b []byte, from int) []byte {
	for (len(b)-from)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

func xzNewCheck(check byte) hash.Hash {
	switch check {
	case 0x01:
		return crc32.NewIEEE()
	case 0x04:
		return crc64.New(xzCRC64Table)
	case 0x0a:
		return sha256.New()
	}
	return nil
}

// lzma2 writes LZMA2 data of stored (uncompressed) chunks, the first
// one resetting the dictionary, and the end marker; it returns the
// uncompressed bytes.
func (w *xzWriter) lzma2() (out []byte, data []byte) {
	n := gen.IntRange(0, w.cfg.MaxChunks).Draw(w.t)
	for i := range n {
		chunk := []byte(xzText.Draw(w.t))
		if len(chunk) == 0 {
			chunk = []byte{'x'}
		}
		ctrl := byte(0x02)
		if i == 0 || gen.IntRange(0, 5).Draw(w.t) == 0 {
			ctrl = 0x01 // dictionary reset
		}
		out = append(out, ctrl, byte((len(chunk)-1)>>8), byte(len(chunk)-1))
		out = append(out, chunk...)
		data = append(data, chunk...)
	}
	return append(out, 0x00), data
}

// block writes a block (header with its filter flags and optional
// sizes, LZMA2 data, padding, check) and returns its index record.
func (w *xzWriter) block(check byte, checkLen int) (unpadded, uncompressed uint64) {
	comp, data := w.lzma2()
	flags := byte(0)
	var fields []byte
	if gen.Bool().Draw(w.t) {
		flags |= 0x40
		fields = xzUvarint(fields, uint64(len(comp)))
	}
	if gen.Bool().Draw(w.t) {
		flags |= 0x80
		fields = xzUvarint(fields, uint64(len(data)))
	}
	var filters []byte
	nf := 1
	if gen.IntRange(0, 9).Draw(w.t) == 0 { // a delta or BCJ filter before LZMA2
		nf = 2
		switch gen.IntRange(0, 1).Draw(w.t) {
		case 0:
			filters = append(filters, 0x03, 0x01, byte(gen.IntRange(0, 255).Draw(w.t)))
		default:
			filters = append(filters, 0x04, 0x00)
		}
	}
	filters = append(filters, 0x21, 0x01, xzDictProp.Draw(w.t)) // LZMA2, dictionary size
	flags |= byte(nf - 1)
	hdr := []byte{0, flags}
	hdr = append(hdr, fields...)
	hdr = append(hdr, filters...)
	hdr = xzPad4(hdr, -4) // the CRC32 follows: header size is a multiple of 4
	hdr[0] = byte((len(hdr)+4)/4 - 1)
	hdr = binary.LittleEndian.AppendUint32(hdr, crc32.ChecksumIEEE(hdr))
	w.b = append(w.b, hdr...)
	w.b = append(w.b, comp...)
	start := len(w.b) - len(comp)
	w.b = xzPad4(w.b, start)
	if h := xzNewCheck(check); h != nil {
		h.Write(data)
		w.b = h.Sum(w.b)
	} else {
		w.b = append(w.b, make([]byte, checkLen)...)
	}
	return uint64(len(hdr) + len(comp) + checkLen), uint64(len(data))
}

func xzCheckLen(check byte) int {
	switch {
	case check == 0:
		return 0
	case check <= 3:
		return 4
	case check <= 6:
		return 8
	case check <= 9:
		return 16
	case check <= 12:
		return 32
	}
	return 64
}

// stream writes one xz stream: header, blocks, index and footer.
func (w *xzWriter) stream() {
	check := xzCheck.Draw(w.t)
	flags := []byte{0, check}
	w.b = append(w.b, 0xfd, '7', 'z', 'X', 'Z', 0x00)
	w.b = append(w.b, flags...)
	w.b = binary.LittleEndian.AppendUint32(w.b, crc32.ChecksumIEEE(flags))
	type record struct{ unpadded, uncompressed uint64 }
	var records []record
	for range gen.IntRange(0, w.cfg.MaxBlocks).Draw(w.t) {
		u, n := w.block(check, xzCheckLen(check))
		records = append(records, record{u, n})
	}
	start := len(w.b)
	w.b = append(w.b, 0x00) // index indicator
	w.b = xzUvarint(w.b, uint64(len(records)))
	for _, r := range records {
		w.b = xzUvarint(w.b, r.unpadded)
		w.b = xzUvarint(w.b, r.uncompressed)
	}
	w.b = xzPad4(w.b, start)
	w.b = binary.LittleEndian.AppendUint32(w.b, crc32.ChecksumIEEE(w.b[start:]))
	indexSize := len(w.b) - start
	foot := binary.LittleEndian.AppendUint32(nil, uint32(indexSize/4-1))
	foot = append(foot, flags...)
	w.b = binary.LittleEndian.AppendUint32(w.b, crc32.ChecksumIEEE(foot))
	w.b = append(w.b, foot...)
	w.b = append(w.b, 'Y', 'Z')
}

// XZ draws .xz files: one stream or, an eighth of the time, two streams
// with stream padding between them; each stream has a header with a
// check type (none, CRC32, CRC64, SHA-256, rarely a reserved one),
// blocks (block header with optional compressed and uncompressed sizes,
// the LZMA2 filter with a drawn dictionary size of 4 KiB to 8 MiB, sometimes a delta or
// BCJ filter before it; LZMA2 data in stored chunks with and without
// dictionary reset and the end marker; block padding; the check of the
// data), the index of the blocks' sizes, and the footer, every CRC32
// computed. MistakesPer per mille of them go through CorruptBytes.
func XZ(cfg XZConfig) gen.Generator[[]byte] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) []byte {
		w := &xzWriter{t: t, cfg: cfg}
		w.stream()
		if gen.IntRange(0, 7).Draw(t) == 0 {
			w.b = append(w.b, make([]byte, 4*gen.IntRange(0, 2).Draw(t))...)
			w.stream()
		}
		return CorruptBytes(t, w.b, cfg.MistakesPer)
	}).Named("xz")
}
