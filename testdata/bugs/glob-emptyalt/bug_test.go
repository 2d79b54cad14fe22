package globemptyalt

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/gobwas/glob"
)

// FuzzNative is a plain target (the project has no fuzz target at v0.2.3;
// the v1 rewrite added one over a pattern, a string and separators):
// compile a pattern with separators and match a string, seeded with
// cases like those of the project's glob_test.go.
func FuzzNative(f *testing.F) {
	for _, s := range [][3]string{
		{"* ?at * eyes", "my cat has very bright eyes", ""},
		{"a*c", "a12345c", ""},
		{"a.?.c", "a.b.c", "."},
		{"a.**", "a.b.c", "."},
		{`\*`, "*", ""},
		{"[!a]*", "this is a test3", ""},
		{"{abc,def}ghi", "defghi", ""},
		{"/{rate,[a-z][a-z][a-z]}*", "/usd", ""},
		{"{*.google.*,yandex.*}", "www.google.com", "."},
		{"src/**/*.go", "src/a/b/main.go", "/"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, pattern, subject, separators string) {
		_, _ = Match(pattern, separators, subject)
	})
}

// FuzzGfz is the gfz target: a pattern, its separators and a few strings
// from the glob grammar generator, a tenth of the patterns with near-miss
// edits; a pattern that does not compile is an invalid input. No seeds:
// under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	cases := gens.Glob(gens.GlobConfig{MistakesPer: 100})
	gfz.Fuzz(f, func(t *gfz.T) {
		c := cases.Draw(t)
		if _, err := Match(c.Pattern, c.Separators, c.Subjects...); err != nil {
			t.Skip(err)
		}
	})
}

func TestReproducer(t *testing.T) {
	// Issue #59's case (through Row.Index, under a BTree).
	bugkit.ReproducerPanics(t, func() { _, _ = Match("/{a{*.json{", "/", "/a/b/c/d/e/foo.json") },
		"slice bounds out of range", IsBug)
	// Issue #56's case (through Row.Match): "0{" with '.' and '/'.
	bugkit.ReproducerPanics(t, func() { _, _ = Match("0{", "./", "0") }, "slice bounds out of range", IsBug)
	// A closed empty group and a group of empty alternatives.
	bugkit.ReproducerPanics(t, func() { _, _ = Match("*.{}", "", "x.") }, "slice bounds out of range", IsBug)
	bugkit.ReproducerPanics(t, func() { _, _ = Match("a?{,}", "", "ab") }, "slice bounds out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this bug:
// MustCompile's documented panic on a pattern it rejects, as in
// https://github.com/vale-cli/vale/pull/1145 ("[a-]*.md"); no other panic
// of v0.2.3's matcher is reported.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { glob.MustCompile("[a-]*.md") })
	bugkit.RejectsPanic(t, IsBug, nil)
}
