package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gfz-dev/gfz/cmd/internal/build"
)

// cancelWriter collects what it is written and calls cancel at the first
// line that contains trigger.
type cancelWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	trigger string
	cancel  context.CancelFunc
}

func (w *cancelWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.trigger) {
		w.cancel()
	}
	return len(p), nil
}

func (w *cancelWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestInterruptedBuild: an interrupt during the build (here, once the
// first of two packages is built) fuzzes nothing and exits as an
// interrupt does, 0, saying so, with and without -ci: the package the
// interrupt stopped did not fail to build. And -ci on patterns without
// fuzz targets says so, not "fix the build".
func TestInterruptedBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	files := map[string]string{
		"go.mod":          cleanModule["go.mod"],
		"q/q.go":          cleanModule["q/q.go"],
		"q/q_test.go":     cleanModule["q/q_test.go"],
		"r/r.go":          strings.ReplaceAll(cleanModule["q/q.go"], "package q", "package r"),
		"r/r_test.go":     strings.ReplaceAll(cleanModule["q/q_test.go"], "package q", "package r"),
		"plain/plain.go":  "package plain\n\n// Two is 2.\nfunc Two() int { return 2 }\n",
		"plain/p_test.go": "package plain\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(Two())\n\t}\n}\n",
	}
	dir := checkout(t, files)
	t.Chdir(dir)
	for _, args := range [][]string{
		{"-time", "60s", "./q", "./r"},
		{"-runs", "1000", "./q", "./r"},
		{"-ci", "-time", "60s", "./q", "./r"},
	} {
		work := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		// The build warns of each binary's few probes right after
		// building it: the first warning comes between the two
		// packages' builds.
		errw := &cancelWriter{trigger: "has only", cancel: cancel}
		var out bytes.Buffer
		code := run(ctx, append([]string{"-workdir", work, "-workers", "1"}, args...), &out, errw)
		cancel()
		stderr := errw.String()
		if code != 0 || !strings.Contains(stderr, "gfz-run: interrupted during the build: nothing fuzzed") ||
			strings.Contains(stderr, "context canceled") || strings.Contains(stderr, "did not build") ||
			strings.Contains(stderr, "fix the build") || strings.Contains(out.String(), "not run") {
			t.Errorf("%q: exit %d, want 0 and the interrupt said\nstdout:\n%s\nstderr:\n%s", args, code, out.String(), stderr)
		}
		for _, pkg := range []string{"q", "r"} {
			if _, err := os.Stat(filepath.Join(work, "example.com", "clean", pkg, "FuzzG")); err == nil {
				t.Errorf("%q: %s was fuzzed", args, pkg)
			}
		}
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-ci", "-time", "2s", "./plain"}, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "no fuzz target to run") || strings.Contains(errb.String(), "fix the build") {
		t.Errorf("-ci without fuzz targets: exit %d, want 2\nstderr:\n%s", code, errb.String())
	}
}

// TestOutputPathsChecked: a -coverprofile whose directory does not exist
// (the fuzz binaries write FILE.<target> there and do not create it) or
// is a file, and a -report that is a file, are usage errors found before
// the build, naming the flag, with and without -ci.
func TestOutputPathsChecked(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "afile")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// No go.mod here: had gfz-run gone on to the build, it would say so.
	t.Chdir(tmp)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-coverprofile", filepath.Join(tmp, "nodir", "c.out")}, "-coverprofile " + filepath.Join(tmp, "nodir", "c.out") + ": directory " + filepath.Join(tmp, "nodir") + " does not exist"},
		{[]string{"-coverprofile", filepath.Join(file, "c.out")}, "-coverprofile " + filepath.Join(file, "c.out") + ": " + file + " is not a directory"},
		{[]string{"-report", file}, "-report " + file + ": "},
		{[]string{"-report", filepath.Join(file, "sub")}, "-report " + filepath.Join(file, "sub") + ": "},
	} {
		for _, mode := range [][]string{{"-time", "20s"}, {"-runs", "10"}, {"-ci", "-time", "20s"}} {
			args := append(append(append([]string{"-workdir", filepath.Join(tmp, "w")}, mode...), c.args...), "./a", "./b")
			var out, errb bytes.Buffer
			code := run(context.Background(), args, &out, &errb)
			if code != 2 || !strings.Contains(errb.String(), "gfz-run: "+c.want) || strings.Contains(errb.String(), "go.mod") {
				t.Errorf("%q: exit %d, want 2 and %q\nstderr:\n%s", args, code, c.want, errb.String())
			}
		}
	}
	// The checks pass for a directory that exists (-report: or that can
	// be created).
	o, _ := parse([]string{"-coverprofile", filepath.Join(tmp, "c.out"), "-report", filepath.Join(tmp, "rep", "sub"), "."}, io.Discard)
	if o == nil {
		t.Fatal("parse failed")
	}
	var errb bytes.Buffer
	if code := checkOutputs(o, &errb); code >= 0 {
		t.Errorf("writable paths: exit %d\n%s", code, errb.String())
	}
	// A profile path that is a directory, known once the targets are.
	if err := os.Mkdir(filepath.Join(tmp, "c.out.FuzzA"), 0o755); err != nil {
		t.Fatal(err)
	}
	o, _ = parse([]string{"-coverprofile", filepath.Join(tmp, "c.out"), "."}, io.Discard)
	if _, err := o.targetArgs(build.Binary{Package: "example.com/m/a"}, "FuzzA", "/w", false, true); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("profile path a directory: %v", err)
	}
}

// TestBinaryFlagsChecked: the fuzz-binary flags gfz-run passes on are
// checked as the binaries check them, before the build: an unknown
// -engine, a negative -seed or -shrinkruns, a -shrinktime without a unit,
// an -rss_limit_mb below the binaries' floor (higher with -mapbits above
// 20) are usage errors.
func TestBinaryFlagsChecked(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // "" : accepted
	}{
		{[]string{"-engine", "zets"}, `-engine "zets": unknown engine`},
		{[]string{"-seed", "-3"}, "-seed -3: the seed must be 0 or more"},
		{[]string{"-ci", "-seed", "-3"}, "-seed -3"},
		{[]string{"-shrinkruns", "-1"}, "must not be negative"},
		{[]string{"-shrinkruns", "x"}, "invalid value"},
		{[]string{"-shrinktime", "5"}, "a duration needs a unit"},
		{[]string{"-rss_limit_mb", "5"}, "-rss_limit_mb 5 is below a worker's own footprint: use at least 32"},
		{[]string{"-rss_limit_mb", "40", "-mapbits", "22"}, "use at least 48"},
		{[]string{"-engine", "ei", "-seed", "0", "-rss_limit_mb", "32", "-shrinkruns", "0", "-shrinktime", "0"}, ""},
		{[]string{"-rss_limit_mb", "0", "-mapbits", "22"}, ""},
		{[]string{"-rss_limit_mb", "48", "-mapbits", "22"}, ""},
	} {
		var errb bytes.Buffer
		o, code := parse(append(c.args, "."), &errb)
		switch {
		case c.want == "" && o == nil:
			t.Errorf("%q: exit %d, want accepted\n%s", c.args, code, errb.String())
		case c.want != "" && (o != nil || code != 2 || !strings.Contains(errb.String(), c.want)):
			t.Errorf("%q: exit %d, want 2 and %q\n%s", c.args, code, c.want, errb.String())
		}
	}
	o, _ := parse([]string{"-shrinktime", "1m30s", "-shrinkruns", "7", "."}, io.Discard)
	if got := strings.Join(o.run, " "); !strings.Contains(got, "-shrinktime 1m30s") || !strings.Contains(got, "-shrinkruns 7") {
		t.Errorf("binary flags %q", got)
	}
}

// TestAllTargetsRefused: when every target's fuzz binary exits 2 before
// fuzzing on an error gfz-run cannot see before the build (here -engine
// rl, which native targets refuse), gfz-run ends with that error (exit
// status 2) instead of a summary of targets that never ran.
func TestAllTargetsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	native := "package n\n\nimport \"testing\"\n\nfunc FuzzN(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, b []byte) {\n\t\tif len(b) > 3 && b[0] == 'x' {\n\t\t\treturn\n\t\t}\n\t})\n}\n"
	dir := checkout(t, map[string]string{
		"go.mod":       "module example.com/n\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n",
		"n/n.go":       "package n\n",
		"n/n_test.go":  native,
		"n2/n.go":      "package n\n",
		"n2/n_test.go": native,
	})
	t.Chdir(dir)
	for _, args := range [][]string{{"-time", "20s"}, {"-ci", "-time", "20s"}} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append(args, "-workers", "1", "-workdir", t.TempDir(), "-engine", "rl", "./..."), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "gfz-run: nothing fuzzed: the fuzz binary of every target exited with status 2 before fuzzing") ||
			!strings.Contains(errb.String(), "-engine rl cannot fuzz the native target FuzzN") || strings.Contains(out.String(), "PACKAGE") {
			t.Errorf("%q: exit %d, want 2\nstdout:\n%s\nstderr:\n%s", args, code, out.String(), errb.String())
		}
	}
}
