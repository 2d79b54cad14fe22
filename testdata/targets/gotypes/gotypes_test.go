package gotypes

import (
	"testing"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gosrc"
	"github.com/gfz-dev/gfz/param"
)

// program is the generator of the target: type-aware, with 2% of variable
// references ignoring types so that some programs fail the semantic stage.
var program = gosrc.File(gosrc.Config{Mistakes: 20, MaxDecls: 10})

func FuzzGoTypes(f *testing.F) {
	f.Add([]byte{3, 5, 0, 1, 2})
	gfz.Fuzz(f, func(t *gfz.T) {
		src := program.Draw(t)
		stage, summary, err := Check(src)
		if stage == SyntaxError {
			t.Skip(err) // invalid: syntax stage
		}
		if stage == TypeError {
			t.Skip(err) // invalid: semantic stage
		}
		if err := RoundTrip(src, summary); err != nil {
			t.Fatal(err)
		}
	})
}

// TestValidity draws a fixed number of programs from a fixed PRNG stream
// and checks the share that parses (all) and type-checks.
func TestValidity(t *testing.T) {
	const n = 300
	counts := map[Stage]int{}
	for i := range n {
		src := program.Draw(gfz.NewT(param.New(nil, uint64(i)+1)))
		stage, summary, err := Check(src)
		counts[stage]++
		if stage == Valid {
			if err := RoundTrip(src, summary); err != nil {
				t.Errorf("round trip: %v\n%s", err, src)
			}
		} else if stage == SyntaxError {
			t.Fatalf("generated program does not parse: %v\n%s", err, src)
		}
	}
	t.Logf("%d programs: %d type-check, %d type errors", n, counts[Valid], counts[TypeError])
	if counts[Valid] < n*30/100 {
		t.Errorf("only %d/%d programs type-check, want >= 30%%", counts[Valid], n)
	}
}
