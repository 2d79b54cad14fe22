package xzindexcount

import (
	"bytes"
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/ulikunitz/xz"
)

// FuzzNative reads a whole .xz file, seeded with files written by the
// module's own writer, like those of its tests (the fox sentence, an
// empty file, repeated text).
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"The quick brown fox jumps over the lazy dog.\n",
		"",
		"hello, world\nhello, world\nhello, world\nhello, world\n",
	} {
		var buf bytes.Buffer
		w, err := xz.NewWriter(&buf)
		if err != nil {
			f.Fatal(err)
		}
		if _, err := w.Write([]byte(s)); err != nil {
			f.Fatal(err)
		}
		if err := w.Close(); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Decompress(data)
	})
}

// FuzzGfz is the gfz target: .xz files from the grammar generator, a
// fifth of them with byte-level near-miss edits; a file Decompress
// rejects is an invalid input. No seeds: under plain go test it runs
// nothing.
func FuzzGfz(f *testing.F) {
	file := gens.XZ(gens.XZConfig{MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Decompress(file.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the report's input: a stream header (no check), no
// block, the index indicator and a count of about 2^47.
var reproducer = []byte{253, 55, 122, 88, 90, 0, 0, 0, 255, 18, 217, 65, 0, 189, 191, 239, 189, 191, 239, 48}

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Decompress(reproducer) }, "makeslice: len out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this
// bug (no other panic of v0.5.9 is reported).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
