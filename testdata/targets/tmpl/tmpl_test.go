package tmpl

import (
	"testing"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/param"
)

func FuzzTemplate(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		src := templateGen.Draw(t)
		tm, err := Parse(src)
		if err != nil {
			t.Skip(err) // invalid: does not parse
		}
		if err := RoundTrip(tm); err != nil {
			t.Fatal(err)
		}
		_ = Execute(tm) // execution errors are results of a valid template
	})
}

func FuzzHTMLTemplate(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		src := htmlGen.Draw(t)
		tm, err := ParseHTML(src)
		if err != nil {
			t.Skip(err) // invalid: does not parse
		}
		if _, mismatch := ExecuteHTMLTwice(tm); mismatch != nil {
			t.Fatal(mismatch)
		}
	})
}

// TestValidity draws a fixed number of templates from a fixed PRNG stream:
// most must parse (the generator knows the grammar), some must not (its
// mistakes), and every parsed one must round-trip and execute without
// panicking.
func TestValidity(t *testing.T) {
	const n = 500
	parsed, executed := 0, 0
	for i := range n {
		src := templateGen.Draw(gfz.NewT(param.New(nil, uint64(i)+1)))
		tm, err := Parse(src)
		if err != nil {
			continue
		}
		parsed++
		if err := RoundTrip(tm); err != nil {
			t.Errorf("round trip: %v\n%s", err, src)
		}
		if Execute(tm) == nil {
			executed++
		}
	}
	t.Logf("%d templates: %d parse, %d execute without error", n, parsed, executed)
	if parsed < n*50/100 || parsed == n {
		t.Errorf("%d/%d templates parse, want at least half and not all", parsed, n)
	}
	if executed < n*10/100 {
		t.Errorf("only %d/%d templates execute without error, want >= 10%%", executed, n)
	}
}

// TestValidityHTML: most generated HTML templates parse, some do not, some
// execute (escape) without error, and none executes differently twice.
func TestValidityHTML(t *testing.T) {
	const n = 500
	parsed, executed := 0, 0
	for i := range n {
		src := htmlGen.Draw(gfz.NewT(param.New(nil, uint64(i)+1)))
		tm, err := ParseHTML(src)
		if err != nil {
			continue
		}
		parsed++
		err, mismatch := ExecuteHTMLTwice(tm)
		if mismatch != nil {
			t.Errorf("%v\n%s", mismatch, src)
		}
		if err == nil {
			executed++
		}
	}
	t.Logf("%d templates: %d parse, %d execute without error", n, parsed, executed)
	if parsed < n*50/100 || parsed == n {
		t.Errorf("%d/%d templates parse, want at least half and not all", parsed, n)
	}
	if executed < n*5/100 {
		t.Errorf("only %d/%d templates execute without error, want >= 5%%", executed, n)
	}
}
