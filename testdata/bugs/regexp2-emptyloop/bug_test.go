package regexp2emptyloop

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/dlclark/regexp2"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is a plain target (the project has no fuzz target of the
// matcher at v1.3.0; its syntax package's go-fuzz target only parses):
// compile a pattern and find every match in a subject, as the reports'
// fuzzing harness did, seeded with patterns and subjects like those of
// the project's tests.
func FuzzNative(f *testing.F) {
	for _, s := range [][2]string{
		{`a+b`, "aaab"},
		{`(\d{3})-(\d{4})`, "555-1234"},
		{`^(?:[a-z]+\.)*[a-z]+$`, "www.example.com"},
		{`(?<word>\w+)\s\k<word>`, "hello hello world"},
		{`[^aeiou\s]+`, "rhythm and blues"},
		{`(?i)abc|def`, "xxABCxxdef"},
		{`a{2,3}?`, "aaaa"},
		{`(?=foo)f\w*`, "a foobar"},
		{`\bcat\b`, "concat cat"},
		{`(a|b)*c\1`, "ababcb"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, subject string) {
		_, _ = FindAll(pattern, subject)
	})
}

// FuzzGfz is the gfz target: a pattern from the regular-expression
// grammar generator, a tenth of them with near-miss edits, and a subject
// over the same alphabet; a pattern that does not compile, or a search
// that times out, is an invalid input. No seeds: under plain go test it
// runs nothing.
func FuzzGfz(f *testing.F) {
	cfg := gens.RegexpConfig{Alphabet: "abc01 -.", MistakesPer: 100}
	pattern, subject := gens.Regexp(cfg), gens.RegexpSubject(cfg)
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := FindAll(pattern.Draw(t), subject.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the report's pattern (an empty non-capturing group
// repeated 40 times; the report matched it against "12").
const reproducer = `(?:){40}`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = FindAll(reproducer, "12") }, "index out of range [-1]", IsBug)
	// Other counts and the lazy loop overflow at other pushes (Site).
	for _, p := range []string{`(?:){17,60}?`, `(?:){17}`, `(?:){18}`, `(?:){100,}?`} {
		bugkit.ReproducerPanics(t, func() { _, _ = FindAll(p, "ab") }, "index out of range [-1]", IsBug)
	}
}

// TestOracleRejectsOtherPanics checks that another panic of v1.3.0 is not
// this bug: the Boyer-Moore prefix scan's index out of range on runes
// above 16 bits (https://github.com/dlclark/regexp2/issues/36, its first
// input, bytes as in the report; fixed in v1.5.0 by 346446b, so still
// present at v1.4.0).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() {
		re, err := regexp2.Compile(string([]byte{0x30, 0xbf, 0x30, 0x2a, 0x30, 0x30}), regexp2.ECMAScript)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = re.FindStringMatch(string([]byte{0xf0, 0xb0, 0x80, 0x91, 0xf7}))
	})
	bugkit.RejectsPanic(t, IsBug, nil)
}
