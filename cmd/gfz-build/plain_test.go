package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// loopTarget is a native fuzz target that fails when its package is
// compiled with per-iteration loop variables (Go 1.22 semantics): in a go
// 1.18 module the closures share one variable.
const loopTarget = `package p

import "testing"

func closures(n int) []func() int {
	var fs []func() int
	for i := 0; i < n; i++ {
		fs = append(fs, func() int { return i })
	}
	return fs
}

func FuzzLoop(f *testing.F) {
	f.Add(3)
	f.Fuzz(func(t *testing.T, n int) {
		n = n%5 + 5
		if fs := closures(n); fs[0]() != n {
			t.Fatalf("closure saw %d, want %d: the package lost its go 1.18 loop semantics", fs[0](), n)
		}
	})
}
`

// TestPlainModule: a module that does not require gfz (native targets
// only) builds as it is: go.mod and go.sum stay byte-identical, the fuzz
// binary links the versions the module's own build list selects, and an
// old go line keeps its language version and GODEBUG defaults although
// the build needs the library's newer go line.
func TestPlainModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fuzz binaries")
	}
	sum, err := os.ReadFile(filepath.Join(testmod.GfzRoot(t), "cmd", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	var syncSum []string
	for _, l := range strings.Split(string(sum), "\n") {
		if strings.HasPrefix(l, "golang.org/x/sync v0.24.0") {
			syncSum = append(syncSum, l)
		}
	}
	if len(syncSum) != 2 {
		t.Fatalf("cmd/go.sum has no golang.org/x/sync v0.24.0 lines: update this test with the tools' x/sync")
	}

	t.Run("deps", func(t *testing.T) {
		dir := t.TempDir()
		testmod.Write(t, dir, map[string]string{
			"go.mod":      "module example.com/plain\n\ngo 1.26.0\n\nrequire golang.org/x/sync v0.24.0\n",
			"go.sum":      strings.Join(syncSum, "\n") + "\n",
			"p/p.go":      "package p\n\nimport \"golang.org/x/sync/errgroup\"\n\nfunc Run(n int) error {\n\tvar g errgroup.Group\n\tfor i := 0; i < n%4; i++ {\n\t\tg.Go(func() error { return nil })\n\t}\n\treturn g.Wait()\n}\n",
			"p/p_test.go": "package p\n\nimport \"testing\"\n\nfunc FuzzRun(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, n int) {\n\t\tif Run(n) != nil {\n\t\t\tt.Fatal(\"error\")\n\t\t}\n\t})\n}\n",
		})
		bin, _ := buildUnchanged(t, dir)
		// go test -c writes no dependency lines into a test binary's build
		// information (go version -m shows none), so the versions linked are
		// read from the binary's file table: module-cache paths carry them.
		if v := goOut(t, dir, "list", "-m", "-f", "{{.Version}}", "golang.org/x/sync"); strings.TrimSpace(v) != "v0.24.0" {
			t.Fatalf("go list -m golang.org/x/sync = %q", v)
		}
		if got := linkedVersions(t, bin, "golang.org/x/sync"); len(got) != 1 || got[0] != "v0.24.0" {
			t.Errorf("fuzz binary links golang.org/x/sync at %v, want only v0.24.0 (the module's own selection)", got)
		}
	})

	t.Run("workspace", func(t *testing.T) {
		t.Setenv("GOWORK", "") // TestMain turned workspaces off; this one's go.work must be found
		root := t.TempDir()
		testmod.Write(t, root, map[string]string{
			"go.work":         "go 1.22\n\nuse (\n\t./app\n\t./lib\n)\n",
			"lib/go.mod":      "module example.com/lib\n\ngo 1.22\n",
			"lib/lib.go":      "package lib\n\nfunc Half(n int) int {\n\tif n > 4 {\n\t\treturn n / 2\n\t}\n\treturn n\n}\n",
			"app/go.mod":      "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n",
			"app/p/p_test.go": "package p\n\nimport (\n\t\"testing\"\n\n\t\"example.com/lib\"\n)\n\nfunc FuzzHalf(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, n int) { lib.Half(n) })\n}\n",
		})
		work, _ := os.ReadFile(filepath.Join(root, "go.work"))
		bin, _ := buildUnchanged(t, filepath.Join(root, "app"))
		if after, _ := os.ReadFile(filepath.Join(root, "go.work")); !bytes.Equal(after, work) {
			t.Errorf("go.work changed:\n%s", after)
		}
		if out, err := exec.Command(bin, "-runs", "500", "-seed", "1", "-workers", "1", "-workdir", t.TempDir(), "FuzzHalf").CombinedOutput(); err != nil {
			t.Fatalf("fuzz binary: %v\n%s", err, out)
		}
	})

	t.Run("go1.18", func(t *testing.T) {
		dir := t.TempDir()
		testmod.Write(t, dir, map[string]string{
			"go.mod":      "module example.com/old\n\ngo 1.18\n",
			"p/p_test.go": loopTarget,
		})
		bin, stdout := buildUnchanged(t, dir)
		if !strings.Contains(stdout, "(1 target: FuzzLoop; ") {
			t.Errorf("gfz-build's line for one target: %q", stdout)
		}
		out, err := exec.Command(bin, "-runs", "2000", "-seed", "1", "-workers", "1", "-workdir", t.TempDir(), "FuzzLoop").CombinedOutput()
		if err != nil {
			t.Fatalf("fuzz binary: %v (a failure means the go 1.18 loop semantics were lost)\n%s", err, out)
		}
		// The same GODEBUG defaults as the module's own test binary.
		plain := filepath.Join(t.TempDir(), "p.test")
		goOut(t, dir, "test", "-c", "-o", plain, "./p")
		if g, w := godebug(t, dir, bin), godebug(t, dir, plain); g != w {
			t.Errorf("fuzz binary's DefaultGODEBUG\n%s\ndiffers from go test -c's\n%s", g, w)
		}
	})
}

// buildUnchanged runs gfz-build -o BIN ./p in dir and checks that go.mod and
// go.sum are byte-identical afterwards (and that none appeared).
func buildUnchanged(t *testing.T, dir string) (bin, stdout string) {
	t.Helper()
	before := map[string][]byte{}
	for _, f := range []string{"go.mod", "go.sum"} {
		before[f], _ = os.ReadFile(filepath.Join(dir, f))
	}
	bin = filepath.Join(t.TempDir(), "p.gfz")
	t.Chdir(dir)
	var out, stderr bytes.Buffer
	if code := run(context.Background(), []string{"-o", bin, "./p"}, &out, &stderr); code != 0 {
		t.Fatalf("gfz-build: exit %d\n%s%s", code, out.String(), stderr.String())
	}
	for f, b := range before {
		after, _ := os.ReadFile(filepath.Join(dir, f))
		if !bytes.Equal(after, b) {
			t.Errorf("%s changed:\nbefore:\n%s\nafter:\n%s", f, b, after)
		}
	}
	return bin, out.String()
}

func goOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func godebug(t *testing.T, dir, bin string) string {
	t.Helper()
	for _, l := range strings.Split(goOut(t, dir, "version", "-m", bin), "\n") {
		if strings.Contains(l, "DefaultGODEBUG=") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// linkedVersions returns the versions of module whose source files the
// binary's file table names (module-cache paths: <path>@<version>/...).
func linkedVersions(t *testing.T, bin, module string) []string {
	t.Helper()
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []string
	for _, m := range regexp.MustCompile(regexp.QuoteMeta(module)+`@(v[0-9A-Za-z.+-]+)/`).FindAllSubmatch(b, -1) {
		if v := string(m[1]); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
