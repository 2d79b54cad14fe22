package build

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func fixtureDir(t *testing.T) string {
	t.Helper()
	return filepath.Join(repoRoot(t), "testdata", "instrument", "fixture")
}

var timing = regexp.MustCompile(`\(\d+\.\d+s\)|\t\d+\.\d+s|\t\(cached\)`)

// goTest runs go test in dir, against the instrumented build p if p is not
// nil, and returns its output with timings removed.
func goTest(t *testing.T, p *Prepared, dir string, args ...string) (string, error) {
	t.Helper()
	pre := []string{"test", "-count=1"}
	if p != nil {
		pre = append(pre, p.GoFlags()...)
	}
	cmd := exec.Command("go", append(pre, args...)...)
	cmd.Dir = dir
	if p != nil {
		cmd.Env = append(os.Environ(), p.Env...)
	}
	out, err := cmd.CombinedOutput()
	return timing.ReplaceAllString(string(out), ""), err
}

func prepare(t *testing.T, opts Options) *Prepared {
	t.Helper()
	p, err := Prepare(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Cleanup() })
	return p
}

func TestFixtureBehavesTheSame(t *testing.T) {
	dir := fixtureDir(t)
	for _, tags := range []string{"", "fixturetag"} {
		p := prepare(t, Options{Patterns: []string{"./..."}, Dir: dir, Tags: tags})
		if len(p.Packages) != 3 || p.Probes < 80 {
			t.Fatalf("instrumented %+v, %d probes", p.Packages, p.Probes)
		}
		args := []string{"-v", "-run", "TestBehaviour|TestTrace", "-tags=" + tags, "./..."}
		plain, err := goTest(t, nil, dir, args...)
		if err != nil {
			t.Fatalf("plain go test: %v\n%s", err, plain)
		}
		inst, err := goTest(t, p, dir, args...)
		if err != nil {
			t.Fatalf("instrumented go test: %v\n%s", err, inst)
		}
		if plain != inst {
			t.Errorf("tags %q: instrumented output differs\nplain:\n%s\ninstrumented:\n%s", tags, plain, inst)
		}
		want := "Tag tag off"
		if tags != "" {
			want = "Tag tag on"
		}
		if !strings.Contains(inst, want) || !strings.Contains(inst, "panics.go:24") {
			t.Errorf("tags %q: output lacks %q or the panic line:\n%s", tags, want, inst)
		}
	}
}

func TestFixtureProbesFire(t *testing.T) {
	dir := fixtureDir(t)
	p := prepare(t, Options{Patterns: []string{"."}, Dir: dir})
	out, err := goTest(t, p, dir, "-v", "-run", "TestProbes", ".")
	if err != nil || !strings.Contains(out, "--- PASS: TestProbes") {
		t.Fatalf("TestProbes failed: %v\n%s", err, out)
	}
}

func TestUserTreeUnchanged(t *testing.T) {
	dir := fixtureDir(t)
	before := snapshot(t, dir)
	p := prepare(t, Options{Patterns: []string{"./..."}, Dir: dir})
	if _, err := goTest(t, p, dir, "-run", "TestBehaviour", "./..."); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("the fixture tree changed")
	}
}

func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var sb strings.Builder
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		sb.WriteString(path + "\n" + string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sb.String()
}
