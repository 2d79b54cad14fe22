package inimissingref

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"gopkg.in/ini.v1"
)

// readAll reads every value of every section of f.
func readAll(f *ini.File) {
	for _, s := range f.Sections() {
		for _, k := range s.Keys() {
			_ = k.String()
		}
	}
}

// FuzzNative: the project has no fuzz target; this is the one proposed
// for OSS-Fuzz in pull request #343 (FuzzLoad, closed unmerged: Load,
// LooseLoad, InsensitiveLoad and ShadowLoad of the input), already
// native, plus reading every value of what loads (the proposed target
// never reads a value, so it cannot reach the bug), seeded with documents
// in the style of the project's testdata (full.ini, minimal.ini) but
// without recursive values, since "%(NAME)s" is one edit away from the
// bug.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"[author]\nE-MAIL = u@example.org\n",
		"; Package name\nNAME        = app\n; Package version\nVERSION     = v2\n\n[server]\nHOST = 127.0.0.1\nPORT = 8080\n",
		"# Bio can be written in multiple lines.\n[author]\nNAME = Gopher\nBIO  = \"\"\"Writes Go.\nReads INI files.\n\"\"\"  # after the value\n",
		"[features]\n-: read comments\n-: auto-increment keys\n-: multiple files\n",
		"[types]\nSTRING = str\nBOOL = true\nFLOAT64 = 1.25\nINT = 10\nTIME = 2015-01-01T20:17:05Z\nDURATION = 2h45m\n\n[array]\nINTS = 1, 2, 3\n",
		"[comments] ; about the section\nkey  = \"value\"\nkey2 = 'value2' ; about key2\nkey3 = `my#password`\n\"1+1=2\" = true\n",
		"[note]\nlong = first part \\\n  second part\n\n[parent]\nname = p\n\n[parent.child]\nage = 3\n",
		"\xef\xbb\xbf[bom]\nkey: value\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, load := range []func(any, ...any) (*ini.File, error){ini.Load, ini.LooseLoad, ini.InsensitiveLoad, ini.ShadowLoad} {
			if file, err := load(data); err == nil {
				readAll(file)
			}
		}
	})
}

// FuzzGfz is the gfz target: INI documents from the grammar generator, a
// tenth of them with near-miss edits; a document Dump rejects is an
// invalid input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.INI(gens.INIConfig{MistakesPer: 100})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Dump([]byte(doc.Draw(t))); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the document of the fix's test ("Recursive value with no
// target found"), the shape issue #191 describes.
const reproducer = "\n[foo]\nbar = %(missing)s\n"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Dump([]byte(reproducer)) }, "nil pointer dereference", IsBug)
	// A key that refers to itself outside DEFAULT: the first lookup finds
	// the key itself, so the second looks in DEFAULT, which lacks it.
	bugkit.ReproducerPanics(t, func() { _, _ = Dump([]byte("[server]\nport = %(port)s\n")) }, "nil pointer dereference", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic of this version
// is not this bug: Section.Key with an empty name returns a nil key, whose
// String method dereferences it (issue #358, open).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() {
		f, err := ini.Load([]byte("[s]\na = 1\n"))
		if err != nil {
			panic(err)
		}
		_ = f.Section("s").Key("").String()
	})
	bugkit.RejectsPanic(t, IsBug, nil)
}
