package build

import (
	"strings"
	"testing"
)

// TestCmpFixtureAndStd builds the fixture with comparison probes, in its
// own packages and in encoding/json (std, linkname scheme): the fixture's
// behaviour tests print the same as a plain build (probes compiled in,
// off), and TestCmpProbes finds encoding/json's comparisons recorded when
// the probes are on.
func TestCmpFixtureAndStd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fixture and encoding/json with comparison probes")
	}
	dir := fixtureDir(t)
	p := prepare(t, Options{Patterns: []string{"./..."}, Cover: []string{"encoding/json"}, Dir: dir, Cmp: true})
	args := []string{"-v", "-run", "TestBehaviour|TestTrace", "./..."}
	plain, err := goTest(t, nil, dir, args...)
	if err != nil {
		t.Fatalf("plain go test: %v\n%s", err, plain)
	}
	inst, err := goTest(t, p, dir, args...)
	if err != nil {
		t.Fatalf("instrumented go test: %v\n%s", err, inst)
	}
	if plain != inst {
		t.Errorf("instrumented output differs\nplain:\n%s\ninstrumented:\n%s", plain, inst)
	}
	out, err := goTest(t, p, dir, "-v", "-run", "TestCmpProbes", ".")
	if err != nil || !strings.Contains(out, "--- PASS: TestCmpProbes") {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Log(out)
}
