// Package tiffpalette pins golang.org/x/image v0.17.0, where tiff.Decode
// returns, for a palette-color image whose ColorMap has fewer colors than
// its pixels index, an image.Paletted with indexes past its palette:
// reading such a pixel panics (image.(*Paletted).At):
// https://github.com/golang/go/issues/67624 (CVE-2024-24792,
// GO-2024-2937; fixed in v0.18.0, where Decode rejects the index).
//
// A deep bug of a binary format: the file must decode (header, an IFD
// whose fields agree with each other, strips of the right size) as a
// palette-color image whose ColorMap holds fewer than the 2^bits colors
// TIFF requires, and a pixel must index past it.
package tiffpalette

import (
	"bytes"
	"image"
	"image/color"

	"example.com/bugkit"
	"golang.org/x/image/tiff"
)

// Issue is the upstream report.
const Issue = "https://github.com/golang/go/issues/67624"

// Site is the palette lookup of image.(*Paletted).At (the standard
// library's image package) called by Luminance on an image of
// tiff.Decode.
var Site = bugkit.Site{Func: "image.(*Paletted).At", File: "image.go",
	Callers: []string{"example.com/bugs/tiffpalette.Luminance"}}

// IsBug reports whether a failure's stack trace is this bug. A
// palette-color image without a ColorMap decodes too, with an empty
// palette: its At returns nil, as image.Paletted does by design for an
// empty palette, and the panic is the caller's conversion of nil
// (image/color.gray16Model); the fix rejects such files as well, but the
// report is the lookup past a palette in At, so that crash counts as
// another one.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a TIFF file, within the size limit the project's
// go-fuzz target uses.
func Decode(data []byte) (image.Image, error) {
	cfg, err := tiff.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if cfg.Width*cfg.Height > 1e6 {
		return nil, errTooLarge
	}
	return tiff.Decode(bytes.NewReader(data))
}

var errTooLarge = tiff.FormatError("image too large for the target")

// Luminance is the mean gray level of an image, read pixel by pixel, as
// a program making a thumbnail or a histogram does.
func Luminance(img image.Image) float64 {
	b := img.Bounds()
	if b.Empty() {
		return 0
	}
	var sum uint64
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			sum += uint64(color.Gray16Model.Convert(img.At(x, y)).(color.Gray16).Y)
		}
	}
	return float64(sum) / float64(b.Dx()*b.Dy())
}
