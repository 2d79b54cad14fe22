package build

import (
	"strings"
	"testing"
)

// TestStdEncodingJSON instruments encoding/json through -cover (the
// //go:linkname scheme) and runs its own tests instrumented and plain.
func TestStdEncodingJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests encoding/json twice")
	}
	dir := fixtureDir(t)
	p := prepare(t, Options{Patterns: []string{"."}, Cover: []string{"encoding/json"}, Dir: dir})
	var std *InstrumentedPackage
	for i := range p.Packages {
		if p.Packages[i].Path == "encoding/json" {
			std = &p.Packages[i]
		}
	}
	if std == nil || !std.Std || std.Probes < 500 {
		t.Fatalf("encoding/json not instrumented as std: %+v", p.Packages)
	}
	plain, err := goTest(t, nil, dir, "encoding/json")
	if err != nil {
		t.Fatalf("plain: %v\n%s", err, plain)
	}
	inst, err := goTest(t, p, dir, "encoding/json")
	if err != nil {
		t.Fatalf("instrumented: %v\n%s", err, inst)
	}
	if plain != inst || !strings.HasPrefix(inst, "ok") {
		t.Errorf("results differ:\nplain: %s\ninstrumented: %s", plain, inst)
	}
}

// TestStdProbesReachRuntime checks that an instrumented std package's
// probes write gfz's map and register its table (fixture TestStdProbes).
func TestStdProbesReachRuntime(t *testing.T) {
	dir := fixtureDir(t)
	p := prepare(t, Options{Patterns: []string{"."}, Cover: []string{"encoding/json"}, Dir: dir})
	out, err := goTest(t, p, dir, "-v", "-run", "TestStdProbes|TestProbes", ".")
	if err != nil || !strings.Contains(out, "--- PASS: TestStdProbes") || !strings.Contains(out, "--- PASS: TestProbes") {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Log(out)
}

// TestCoverTimeWarns: -cover time warns that the engine's own calls of
// package time count as coverage (measured: a stability of 37-39% on the
// trivial target); -cover strconv does not.
func TestCoverTimeWarns(t *testing.T) {
	dir := fixtureDir(t)
	warned := func(p *Prepared, pkg string) bool {
		for _, w := range p.Warnings {
			if strings.HasPrefix(w, "-cover "+pkg+":") {
				return true
			}
		}
		return false
	}
	p := prepare(t, Options{Patterns: []string{"."}, Cover: []string{"time", "strconv"}, Dir: dir})
	if !warned(p, "time") || warned(p, "strconv") {
		t.Errorf("warnings %q: want one for time, none for strconv", p.Warnings)
	}
}
