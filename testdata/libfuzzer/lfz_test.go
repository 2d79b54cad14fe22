package lfz

import (
	"fmt"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// FuzzCrash panics (in the target's goroutine) when k is 7: 1 in 32.
func FuzzCrash(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		k := gen.IntRange(0, 31).Named("k").Draw(t)
		Classify(gen.Byte().Draw(t))
		if k == 7 {
			fmt.Println("lfz: stdout of the target")
			panic("lfz: boom")
		}
	})
}

// FuzzCover never fails; its coverage depends on two bytes.
func FuzzCover(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		a := Classify(gen.Byte().Draw(t))
		if a > 13 {
			Classify(gen.Byte().Draw(t) + 1)
		}
	})
}

// FuzzHang hangs when k is 7; its coverage depends on k % 8.
func FuzzHang(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		k := gen.IntRange(0, 31).Draw(t)
		if k == 7 {
			Spin()
		}
		Classify(byte(k))
	})
}

// FuzzDict fails only on a token no literal of the package spells out:
// reached through gen.DictionaryOr when the fuzz binary is given a -dict
// file holding it.
func FuzzDict(f *testing.F) {
	magic := string([]byte{'z', 'q', 'x', 'j', 'v', 'k'})
	gfz.Fuzz(f, func(t *gfz.T) {
		s := gen.DictionaryOr(gen.String()).Draw(t)
		if s == magic {
			panic("lfz: dictionary token " + s)
		}
	})
}

// FuzzAlloc allocates without bound when k is 7.
func FuzzAlloc(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if gen.IntRange(0, 31).Draw(t) == 7 {
			Hog()
		}
	})
}

// FuzzCrashThenHang panics on an input starting with 'C' and hangs on one
// starting with 'H'.
func FuzzCrashThenHang(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		switch gen.Byte().Draw(t) {
		case 'C':
			panic("lfz: crash input")
		case 'H':
			Spin()
		}
	})
}
