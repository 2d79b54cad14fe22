package plistgnustepvalue

import (
	"testing"
	"time"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"howett.net/plist"
)

// FuzzNative is the project's go-fuzz target (fuzz.go at v1.0.0: decode
// into an interface{}, any format) turned native, plus writing the value
// back in the format it was read in (Decode). Seeded with property lists
// like those of the project's tests (common_data_for_test.go): OpenStep and
// GNUStep text, a .strings file, XML and binary documents the library
// writes.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		`{Name=Dustin;}`,
		`{CFBundleInfoDictionaryVersion="6.0";"band-size"=8388608;size=4398046511104;}`,
		`{CFBundleInfoDictionaryVersion=6.0;band-size=<*I8388608>;bundle-backingstore-version=<*I1024>;size=<*I4398046511104>;}`,
		`{data=<01020304>;date=<*D2013-11-27 00:34:00 +0000>;floats=(<*R32.5>,<*R-64.25>,);strings=("Hello, ASCII","Hello, \U4e16\U754c",);}`,
		`(<68656c6c 6f>,<576f726c 64>,<[aGVsbG8=]>,)`,
		`({CF$UID=255;},{CF$UID=65535;},)`,
		"/* Localizable.strings */\n\"Open\" = \"Ouvrir\";\n\"Quit\" = \"Quitter\";\n// done\n",
		`{"\a"="\b";"\v"="\f";"\\"="\"";"\310"=wat;"\U0100"=hundred;}`,
	} {
		f.Add([]byte(s))
	}
	for _, v := range []interface{}{
		map[string]interface{}{"CFBundleName": "Demo", "Enabled": true, "Count": uint64(3), "Ratio": 0.5, "Items": []interface{}{"a", "b"}},
		map[string]interface{}{"Modified": time.Date(2013, 11, 27, 0, 34, 0, 0, time.UTC), "Icon": []byte{1, 2, 3, 4}},
	} {
		for _, format := range []int{plist.XMLFormat, plist.BinaryFormat} {
			b, err := plist.Marshal(v, format)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = Decode(data)
	})
}

// FuzzGfz is the gfz target: text property lists (OpenStep and GNUStep
// dialects, .strings files) from the grammar generator, keys from Keys half
// of the time, a fifth of them with near-miss edits; a document Decode
// rejects is an invalid input. No seeds: under plain go test it runs
// nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.Plist(gens.PlistConfig{Keys: Keys, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, _, err := Decode([]byte(doc.Draw(t))); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the pull request's input: an array whose last value is a
// quoted GNUStep boolean with nothing in the quotes.
const reproducer = `(plist versionGetValue<*B"">`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _, _ = Decode([]byte(reproducer)) }, "index out of range [0] with length 0", IsBug)
	// The integer form, which the fix guards too (text_parser.go:449).
	bugkit.ReproducerPanics(t, func() { _, _, _ = Decode([]byte(`{size = <*I"">;}`)) }, "index out of range [0] with length 0", IsBug)
}

// TestOracleRejectsOtherPanics checks that other panics of this version are
// not this bug: the text writer's slice out of range on a character above
// U+FFFF (https://github.com/DHowett/go-plist/pull/66, open, present in every
// release), and the reflect panic of unmarshaling a dictionary into a map
// whose keys are not strings (https://github.com/DHowett/go-plist/issues/44,
// still in v1.0.1, fixed by commit 8423e05 after it).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = plist.Marshal("emoji \U0001F600", plist.GNUStepFormat) })
	bugkit.RejectsPanic(t, IsBug, func() {
		var m map[int]string
		_, _ = plist.Unmarshal([]byte(`{1=a;}`), &m)
	})
	bugkit.RejectsPanic(t, IsBug, nil)
}
