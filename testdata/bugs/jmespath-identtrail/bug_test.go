package jmespathidenttrail

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/jmespath/go-jmespath"
)

// FuzzNative is the project's go-fuzz target (fuzz/jmespath.go at v0.4.0:
// NewParser().Parse) turned native, plus running a parsed expression on
// the document through Query, seeded with expressions like those of the
// project's compliance tests and fuzz corpus (all ASCII).
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"foo.bar.baz[1]",
		"people[*].first",
		"people[?age > `28`].{name: first, city: address.city}",
		"locations[?state == 'WA'].name | sort(@) | join(', ', @)",
		"reservations[].instances[].[id, state]",
		"length(people) == `3` && !contains(strings, 'z')",
		"sort_by(people, &age)[-1].last",
		"numbers[::-1]",
		`"foo".name || nothing`,
		"*.baz",
		"max_by(reservations[].instances[], &cpu).type",
		"to_string(`[1, 2]`)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := jmespath.NewParser()
		if _, err := p.Parse(s); err != nil {
			return
		}
		_, _ = Query(s)
	})
}

// FuzzGfz is the gfz target: expressions from the grammar generator over
// the document's keys and typed paths, a fifth of them with near-miss
// edits; an expression that does not compile or fails on the document is
// an invalid input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	expr := gens.JMESPath(gens.JMESPathConfig{
		Keys: Keys, Numbers: Numbers, Strings: Strings, NumArrays: NumArrays, StrArrays: StrArrays,
		ObjArrays: ObjArrays, Objects: Objects, MistakesPer: 200,
	})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Query(expr.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the expression of pull request #101 (issue #97 shows the
// guard's arithmetic on the rune 128 only).
const reproducer = "a\u0080"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Query(reproducer) }, "index out of range [2] with length 2", IsBug)
	// The same identifier read at the end of a longer query.
	bugkit.ReproducerPanics(t, func() { _, _ = Query("locations[?state == 'WA'].name\u0080") }, "index out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic of this version is
// not this bug: merge given an argument that is not an object (issue #72,
// open: the arguments of a variadic function are not type-checked, and
// jpfMerge asserts each one to a map, functions.go:520), as in the report's
// "merge({message: message}, contextMap)", and MustCompile's documented
// panic on an expression that does not parse.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Query("merge({message: foo}, contextMap)") })
	bugkit.RejectsPanic(t, IsBug, func() { jmespath.MustCompile("foo[") })
	bugkit.RejectsPanic(t, IsBug, nil)
}
