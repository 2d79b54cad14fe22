package build

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestNativeCmpByDefault: a build with native targets gets comparison
// probes without -cmp (and says so), and its native targets run with the
// cmp domain without -feedback (the final summary's cmp line, no warning);
// -feedback none turns the domain off; gfz-build -cmp=false (NoCmp) leaves
// the probes out, and then the native target runs without cmp and without
// a warning. A build with gfz targets only gets no probes by default.
func TestNativeCmpByDefault(t *testing.T) {
	dir := nativeModule(t)
	bin := map[bool]string{}
	for _, noCmp := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "nat.gfz")
		var stderr bytes.Buffer
		res, err := Build(context.Background(), Options{Patterns: []string{"./nat"}, Dir: dir, Output: out, NoCmp: noCmp, Stderr: &stderr})
		if err != nil {
			t.Fatalf("NoCmp %v: %v\n%s", noCmp, err, stderr.String())
		}
		said := strings.Contains(stderr.String(), CmpDefaultLine)
		if res.Cmp == noCmp || res.CmpDefault == noCmp || said == noCmp {
			t.Errorf("NoCmp %v: Cmp %v, CmpDefault %v, line printed %v:\n%s", noCmp, res.Cmp, res.CmpDefault, said, stderr.String())
		}
		bin[noCmp] = out
	}
	run := func(bin string, args ...string) string {
		args = append([]string{"-runs", "300", "-seed", "1", "-workers", "1", "-workdir", t.TempDir()}, args...)
		cmd := exec.Command(bin, append(args, "FuzzCheck")...)
		cmd.Dir = filepath.Join(dir, "nat")
		o, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
			t.Fatalf("%s %v: %v\n%s", bin, args, err, o)
		}
		return string(o)
	}
	const cmpLine = "gfz: cmp: "
	if o := run(bin[false]); !strings.Contains(o, cmpLine) || strings.Contains(o, "WARNING") {
		t.Errorf("default build, no -feedback: want the cmp domain's summary and no warning:\n%s", o)
	}
	if o := run(bin[false], "-feedback", "none"); strings.Contains(o, cmpLine) {
		t.Errorf("-feedback none: the cmp domain ran:\n%s", o)
	}
	if o := run(bin[true]); strings.Contains(o, cmpLine) || strings.Contains(o, "WARNING") {
		t.Errorf("-cmp=false build: want no cmp domain and no warning:\n%s", o)
	}

	gfzOnly := t.TempDir()
	testmod.Write(t, gfzOnly, map[string]string{
		"go.mod": "module example.com/g\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n",
		"g.go":   "package g\n\nfunc Less(a, b int) bool { return a < b }\n",
		"g_test.go": `package g

import (
	"testing"

	"github.com/gfz-dev/gfz"
)

func FuzzLess(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) { Less(int(t.Source().Range(0, 9, 0)), 3) })
}
`,
	})
	p := prepare(t, Options{Patterns: []string{"./..."}, Dir: gfzOnly, Cache: "off"})
	if p.Cmp || p.CmpDefault {
		t.Errorf("gfz targets only: Cmp %v, CmpDefault %v, want no comparison probes by default", p.Cmp, p.CmpDefault)
	}
}
