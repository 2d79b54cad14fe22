package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

func TestExitCodes(t *testing.T) {
	fixture, err := filepath.Abs("../../testdata/instrument/fixture")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(fixture)
	out := filepath.Join(t.TempDir(), "fix.gfz")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-nosuchflag"}, 2, "flag provided but not defined"},
		{[]string{"-mapbits", "40", "."}, 2, "-mapbits must be between"},
		{[]string{"./nosuchdir"}, 1, "gfz-build:"},
		{[]string{"-cover", "runtime", "./target"}, 1, "cannot instrument runtime"},
		{[]string{"."}, 1, "no fuzz targets"},
		{[]string{"-o", out, "-mapbits", "18", "./..."}, 0, "example.com/fixture/target: " + out + " (2 targets: FuzzParse, FuzzNative; 10 probes, and 4 in _test.go files)"},
		{[]string{"-o", out, "./..."}, 0, "gfz-build: instrumented 3 packages, 118 probes: example.com/fixture 118; and 4 probes in _test.go files\n"},
		{[]string{"-skip", "./x", "."}, 2, "import path patterns"},
		{[]string{"-o", out, "-skip", "...", "./target"}, 0, "gfz-build: instrumented 1 package, 10 probes"},
		{[]string{"-o", out, "-testfiles=false", "./..."}, 0, "gfz-build: instrumented 3 packages, 118 probes: example.com/fixture 118\n"},
		{[]string{"-o", out, "-testfiles=false", "./target"}, 0, "(2 targets: FuzzParse, FuzzNative; 10 probes)\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), c.args, &stdout, &stderr)
		all := stdout.String() + stderr.String()
		if code != c.code || !strings.Contains(all, c.want) {
			t.Errorf("gfz-build %v: exit %d, want %d with %q; output:\n%s", c.args, code, c.code, c.want, all)
		}
	}
}

// TestNoModule: outside any module gfz-build says there is no go.mod, names
// the directory and what to do, and exits 2.
func TestNoModule(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GOWORK", "off")
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"."}, &stdout, &stderr)
	if s := stderr.String(); code != 2 || !strings.Contains(s, "no go.mod in "+dir) || !strings.Contains(s, "go mod init") {
		t.Errorf("exit %d, stderr:\n%s", code, s)
	}
}

// TestBrokenPackageListed: ./... with one broken package builds the other,
// lists the binary written, names the broken package with its error and
// exits 1.
func TestBrokenPackageListed(t *testing.T) {
	dir := testmod.BrokenModule(t)
	t.Chdir(dir)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-o", out, "./..."}, &stdout, &stderr)
	good := filepath.Join(out, "good.gfz")
	if _, err := os.Stat(good); err != nil || code != 1 {
		t.Fatalf("exit %d (want 1), good binary: %v\nstdout:\n%s\nstderr:\n%s", code, err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "example.com/m/good: "+good) {
		t.Errorf("the binary written is not listed:\n%s", stdout.String())
	}
	if s := stderr.String(); !strings.Contains(s, "1 package(s) could not be built (1 binaries written)") ||
		!strings.Contains(s, "example.com/m/bad: go test -c:") || !strings.Contains(s, "undefined: undefinedThing") {
		t.Errorf("the broken package is not named with its error:\n%s", s)
	}
}
