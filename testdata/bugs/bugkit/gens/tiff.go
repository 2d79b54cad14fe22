package gens

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"sort"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// TIFFConfig tunes TIFF.
type TIFFConfig struct {
	MaxSide     int // width and height at most; default 8
	MistakesPer int // per mille of files passed through CorruptBytes; default 0
}

func (c TIFFConfig) withDefaults() TIFFConfig {
	if c.MaxSide <= 0 {
		c.MaxSide = 8
	}
	return c
}

// TIFF field types.
const (
	tiffASCII    = 2
	tiffShort    = 3
	tiffLong     = 4
	tiffRational = 5
)

type tiffEntry struct {
	tag, typ int
	vals     []uint32 // numbers (SHORT, LONG; RATIONAL as pairs)
	raw      []byte   // BYTE and ASCII data
}

type tiffWriter struct {
	t       *gfz.T
	order   tiffOrder
	entries []tiffEntry
}

type tiffOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

func (w *tiffWriter) add(tag, typ int, vals ...uint32) {
	w.entries = append(w.entries, tiffEntry{tag: tag, typ: typ, vals: vals})
}

// short adds a SHORT field, or sometimes a LONG one where TIFF allows
// either.
func (w *tiffWriter) shortOrLong(tag int, vals ...uint32) {
	typ := tiffShort
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		typ = tiffLong
	}
	w.add(tag, typ, vals...)
}

func (w *tiffWriter) pixels(n int) []byte {
	b := make([]byte, n)
	fill := gen.IntRange(0, 3).Draw(w.t)
	for i := range b {
		switch fill {
		case 0: // a constant
			if i == 0 {
				b[0] = byte(gen.IntRange(0, 255).Draw(w.t))
			} else {
				b[i] = b[0]
			}
		case 1: // a ramp
			b[i] = byte(i * 17)
		default:
			b[i] = byte(gen.IntRange(0, 255).Draw(w.t))
		}
	}
	return b
}

// packBits encodes data with PackBits: literal runs of up to 128 bytes,
// and repeat runs where bytes repeat.
func packBits(data []byte) []byte {
	var out []byte
	for i := 0; i < len(data); {
		j := i + 1
		for j < len(data) && j-i < 128 && data[j] == data[i] {
			j++
		}
		if j-i >= 2 {
			out = append(out, byte(1-(j-i)), data[i])
			i = j
			continue
		}
		j = i
		for j < len(data) && j-i < 128 && (j+1 >= len(data) || data[j+1] != data[j]) {
			j++
		}
		if j == i {
			j = i + 1
		}
		out = append(out, byte(j-i-1))
		out = append(out, data[i:j]...)
		i = j
	}
	return out
}

func deflate(data []byte) []byte {
	var b bytes.Buffer
	zw := zlib.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// TIFF generates baseline TIFF files: little- or big-endian, one image
// of up to MaxSide x MaxSide pixels, bilevel and grayscale (WhiteIsZero,
// BlackIsZero; 1 to 16 bits), RGB (8 or 16 bits, with or without an
// extra alpha sample) or palette color (1 to 8 bits, with the ColorMap
// of 2^bits colors TIFF requires), stored in strips uncompressed, with
// PackBits or with Deflate (and sometimes the horizontal predictor),
// with SHORT or LONG fields, resolution and other informational fields;
// MistakesPer per mille of them go through CorruptBytes.
func TIFF(cfg TIFFConfig) gen.Generator[[]byte] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) []byte {
		w := &tiffWriter{t: t, order: binary.LittleEndian}
		if gen.IntRange(0, 3).Draw(t) == 0 {
			w.order = binary.BigEndian
		}
		bigEndian := w.order == tiffOrder(binary.BigEndian)
		width := gen.IntRange(1, cfg.MaxSide).Draw(t)
		height := gen.IntRange(1, cfg.MaxSide).Draw(t)
		var photometric, spp, bps int
		extra := 0
		switch gen.IntRange(0, 3).Draw(t) {
		case 0:
			photometric, spp = gen.IntRange(0, 1).Draw(t), 1
			bps = gen.SampledFrom(1, 2, 4, 8, 8, 16).Draw(t)
		case 1:
			photometric, spp, bps = 2, 3, gen.SampledFrom(8, 8, 16).Draw(t)
			if gen.IntRange(0, 2).Draw(t) == 0 {
				spp, extra = 4, gen.IntRange(1, 2).Draw(t)
			}
		default:
			photometric, spp = 3, 1
			bps = gen.SampledFrom(1, 2, 4, 8, 8).Draw(t)
		}
		compression := gen.SampledFrom(1, 1, 32773, 8).Draw(t)
		predictor := 1
		if compression == 8 && bps >= 8 && gen.IntRange(0, 2).Draw(t) == 0 {
			predictor = 2
		}
		rowBytes := (width*spp*bps + 7) / 8
		rowsPerStrip := gen.IntRange(1, height).Draw(t)

		// The file: header, strips, out-of-line values, the IFD.
		var out []byte
		if bigEndian {
			out = append(out, 'M', 'M', 0, 42, 0, 0, 0, 0)
		} else {
			out = append(out, 'I', 'I', 42, 0, 0, 0, 0, 0)
		}
		var offsets, counts []uint32
		for y := 0; y < height; y += rowsPerStrip {
			rows := min(rowsPerStrip, height-y)
			data := w.pixels(rowBytes * rows)
			switch compression {
			case 32773:
				data = packBits(data)
			case 8:
				data = deflate(data)
			}
			offsets = append(offsets, uint32(len(out)))
			counts = append(counts, uint32(len(data)))
			out = append(out, data...)
			if len(out)%2 == 1 {
				out = append(out, 0)
			}
		}

		if gen.IntRange(0, 4).Draw(t) == 0 {
			w.add(254, tiffLong, 0) // NewSubfileType
		}
		w.shortOrLong(256, uint32(width))
		w.shortOrLong(257, uint32(height))
		bpsVals := make([]uint32, spp)
		for i := range bpsVals {
			bpsVals[i] = uint32(bps)
		}
		w.add(258, tiffShort, bpsVals...)
		w.add(259, tiffShort, uint32(compression))
		w.add(262, tiffShort, uint32(photometric))
		w.shortOrLong(273, offsets...)
		if gen.IntRange(0, 3).Draw(t) == 0 {
			w.add(274, tiffShort, 1) // Orientation
		}
		w.add(277, tiffShort, uint32(spp))
		w.shortOrLong(278, uint32(rowsPerStrip))
		w.shortOrLong(279, counts...)
		if gen.IntRange(0, 2).Draw(t) == 0 {
			w.add(282, tiffRational, 72, 1) // XResolution
			w.add(283, tiffRational, 72, 1) // YResolution
			w.add(296, tiffShort, uint32(gen.IntRange(1, 3).Draw(t)))
		}
		if gen.IntRange(0, 3).Draw(t) == 0 {
			w.add(284, tiffShort, 1) // PlanarConfiguration: chunky
		}
		if gen.IntRange(0, 4).Draw(t) == 0 {
			w.entries = append(w.entries, tiffEntry{tag: 305, typ: tiffASCII, raw: []byte("gfz\x00")})
		}
		if predictor != 1 {
			w.add(317, tiffShort, uint32(predictor))
		}
		if photometric == 3 {
			// 2^bps red values, then green, then blue; 16 bits each.
			n := 1 << bps
			cm := make([]uint32, 3*n)
			levels := w.pixels(2 * len(cm))
			for i := range cm {
				cm[i] = uint32(levels[2*i])<<8 | uint32(levels[2*i+1])
			}
			w.add(320, tiffShort, cm...)
		}
		if extra > 0 {
			w.add(338, tiffShort, uint32(extra))
		}
		if gen.IntRange(0, 4).Draw(t) == 0 {
			sf := make([]uint32, spp)
			for i := range sf {
				sf[i] = 1
			}
			w.add(339, tiffShort, sf...)
		}
		sort.SliceStable(w.entries, func(i, j int) bool { return w.entries[i].tag < w.entries[j].tag })

		// Encode the values; those over 4 bytes go before the IFD.
		type coded struct {
			e     tiffEntry
			count int
			data  []byte
		}
		codes := make([]coded, len(w.entries))
		for i, e := range w.entries {
			var data []byte
			count := len(e.vals)
			switch e.typ {
			case tiffShort:
				for _, v := range e.vals {
					data = w.order.AppendUint16(data, uint16(v))
				}
			case tiffLong:
				for _, v := range e.vals {
					data = w.order.AppendUint32(data, v)
				}
			case tiffRational:
				for _, v := range e.vals {
					data = w.order.AppendUint32(data, v)
				}
				count = len(e.vals) / 2
			default:
				data, count = e.raw, len(e.raw)
			}
			codes[i] = coded{e, count, data}
		}
		valueAt := make([]uint32, len(codes))
		for i, c := range codes {
			if len(c.data) > 4 {
				valueAt[i] = uint32(len(out))
				out = append(out, c.data...)
				if len(out)%2 == 1 {
					out = append(out, 0)
				}
			}
		}
		w.order.PutUint32(out[4:], uint32(len(out)))
		out = w.order.AppendUint16(out, uint16(len(codes)))
		for i, c := range codes {
			out = w.order.AppendUint16(out, uint16(c.e.tag))
			out = w.order.AppendUint16(out, uint16(c.e.typ))
			out = w.order.AppendUint32(out, uint32(c.count))
			if len(c.data) > 4 {
				out = w.order.AppendUint32(out, valueAt[i])
			} else {
				var v [4]byte
				copy(v[:], c.data)
				out = append(out, v[:]...)
			}
		}
		out = append(out, 0, 0, 0, 0) // no next IFD
		return CorruptBytes(t, out, cfg.MistakesPer)
	})
}
