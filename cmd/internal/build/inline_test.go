package build

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestInliningAndDirectives compiles the instrumented fixture with -m: the
// probe helpers must be inlined into instrumented functions, and
// //go:noinline must still be honoured.
func TestInliningAndDirectives(t *testing.T) {
	dir := fixtureDir(t)
	p := prepare(t, Options{Patterns: []string{"."}, Dir: dir})
	cmd := exec.Command("go", "build", "-overlay", p.Overlay, "-gcflags=-m", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	s := string(out)
	for _, want := range []string{
		"can inline _gfzHit\n", "can inline _gfzHitE\n",
		"inlining call to runtime.Hit\n", "inlining call to runtime.HitE\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("-m output lacks %q", want)
		}
	}
	if !regexp.MustCompile(`basic.go:28:\d+: inlining call to _gfzHitE`).MatchString(s) {
		t.Errorf("the && operand probe on basic.go:28 is not inlined (or not at the user's line)")
	}
	// Every probe of a function that is compiled is inlined: the fixture's
	// only uninstrumented function is the //go:nosplit one.
	// -gcflags without a package pattern applies to the named package only:
	// compare with its own probes, not with its instrumented dependencies'.
	own := probesOf(p, "example.com/fixture")
	if n := strings.Count(s, "inlining call to _gfzHit"); own == 0 || n < own-8 {
		t.Errorf("%d inlined probe calls for %d probes", n, own)
	}
	if strings.Contains(s, "can inline NoInline") {
		t.Errorf("//go:noinline lost: %s", s)
	}
}
