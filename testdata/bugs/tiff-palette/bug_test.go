package tiffpalette

import (
	"bytes"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"golang.org/x/image/tiff"
)

// FuzzNative is the project's go-fuzz target at this version
// (tiff/fuzz.go: decode the configuration, decode, encode again) turned
// native, plus reading the pixels (Luminance): encoding a paletted image
// copies its indexes and never looks them up, so the project's target
// cannot see this bug. Seeds: small images of every kind the package's
// test files cover, encoded by tiff.Encode.
func FuzzNative(f *testing.F) {
	for _, img := range seedImages() {
		for _, c := range []tiff.CompressionType{tiff.Uncompressed, tiff.Deflate} {
			var b bytes.Buffer
			if err := tiff.Encode(&b, img, &tiff.Options{Compression: c, Predictor: c == tiff.Deflate}); err != nil {
				f.Fatal(err)
			}
			f.Add(b.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := Decode(data)
		if err != nil {
			return
		}
		var w bytes.Buffer
		if err := tiff.Encode(&w, img, nil); err != nil {
			panic(err)
		}
		_ = Luminance(img)
	})
}

// seedImages are small gray, RGBA, 16-bit and paletted images.
func seedImages() []image.Image {
	r := image.Rect(0, 0, 4, 3)
	gray := image.NewGray(r)
	rgba := image.NewNRGBA(r)
	g16 := image.NewGray16(r)
	pal := image.NewPaletted(r, color.Palette{color.Black, color.White, color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}})
	for i := range gray.Pix {
		gray.Pix[i] = byte(i * 20)
	}
	for i := range rgba.Pix {
		rgba.Pix[i] = byte(i * 5)
	}
	for i := range g16.Pix {
		g16.Pix[i] = byte(i * 7)
	}
	for i := range pal.Pix {
		pal.Pix[i] = byte(i % 4)
	}
	return []image.Image{gray, rgba, g16, pal}
}

// FuzzGfz is the gfz target: TIFF files from the baseline TIFF
// generator, a fifth of them with near-miss byte edits; a file that does
// not decode is an invalid input. No seeds: under plain go test it runs
// nothing.
func FuzzGfz(f *testing.F) {
	file := gens.TIFF(gens.TIFFConfig{MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		img, err := Decode(file.Draw(t))
		if err != nil {
			t.Skip(err)
		}
		_ = Luminance(img)
	})
}

// reproducer is the fix's test file (testdata/invalid-palette-ref.tiff
// of x/image v0.18.0), kept in this module's testdata.
func reproducer(t *testing.T) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", "invalid-palette-ref.tiff"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestReproducer(t *testing.T) {
	data := reproducer(t)
	bugkit.ReproducerPanics(t, func() {
		img, err := Decode(data)
		if err != nil {
			t.Fatalf("the reproducer does not decode: %v", err)
		}
		_ = Luminance(img)
	}, "index out of range", IsBug)
}

// noPalette is a paletted image encoded by tiff.Encode with its ColorMap
// field renamed (tag 321, unknown, which the decoder skips): it decodes
// with an empty palette.
func noPalette(t *testing.T) []byte {
	var b bytes.Buffer
	if err := tiff.Encode(&b, seedImages()[3], nil); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	i := bytes.Index(data, []byte{0x40, 0x01, 3, 0}) // little-endian tag 320, type SHORT
	if i < 0 {
		t.Fatal("no ColorMap field in the encoded image")
	}
	data[i] = 0x41 // tag 321: still in ascending order
	return data
}

// TestOracleRejectsOtherPanics checks that other panics are not this
// bug: the conversion of the nil color of an image without ColorMap
// (see IsBug), and a lookup past the palette of an image that did not
// come from Luminance's loop.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
	data := noPalette(t)
	bugkit.RejectsPanic(t, IsBug, func() {
		img, err := Decode(data)
		if err != nil {
			t.Fatalf("the image without ColorMap does not decode: %v", err)
		}
		_ = Luminance(img)
	})
	bugkit.RejectsPanic(t, IsBug, func() {
		p := image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.Black})
		p.Pix[0] = 3
		_ = p.At(0, 0)
	})
}
