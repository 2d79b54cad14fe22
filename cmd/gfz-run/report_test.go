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

// TestRunReport: gfz-run -report DIR has each fuzz binary write its report
// to DIR/<import path>/<FuzzTarget> and writes an index linking to them.
func TestRunReport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes two packages")
	}
	gfz, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	test := "package %s\n\nimport (\n\t\"testing\"\n\n\t\"github.com/gfz-dev/gfz\"\n)\n\nfunc FuzzF(f *testing.F) {\n\tgfz.Fuzz(f, func(t *gfz.T) { F(int(t.Source().Range(0, 9, 0))) })\n}\n"
	testmod.Write(t, dir, map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + gfz + "\n",
		"a/a.go":      "package a\n\nfunc F(n int) int {\n\tif n > 3 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n",
		"a/a_test.go": strings.Replace(test, "%s", "a", 1),
		"b/b.go":      "package b\n\nfunc F(n int) int {\n\tswitch n {\n\tcase 1:\n\t\treturn 2\n\t}\n\treturn 0\n}\n",
		"b/b_test.go": strings.Replace(test, "%s", "b", 1),
	})
	t.Chdir(dir)
	work, rep := t.TempDir(), filepath.Join(t.TempDir(), "rep")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"-workdir", work, "-workers", "1", "-runs", "200", "-report", rep, "./..."}, &out, &errb); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	index := filepath.Join(rep, "index.html")
	if !strings.Contains(out.String(), "gfz-run: report: "+index) {
		t.Errorf("gfz-run does not say where the report is:\n%s", out.String())
	}
	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"a", "b"} {
		page, err := os.ReadFile(filepath.Join(rep, "example.com", "m", pkg, "FuzzF", "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		// The target's own source, with its coverage.
		if src := filepath.Join(dir, pkg, pkg+".go"); !strings.Contains(string(page), src) || !strings.Contains(string(page), "func F(n int) int {") {
			t.Errorf("report of %s lacks the source %s", pkg, src)
		}
		if link := `href="example.com/m/` + pkg + `/FuzzF/index.html"`; !strings.Contains(string(data), link) {
			t.Errorf("index lacks %s:\n%s", link, data)
		}
		if wd := filepath.Join(work, "example.com", "m", pkg, "FuzzF"); !strings.Contains(string(data), wd) {
			t.Errorf("index lacks the work directory %s", wd)
		}
	}
}
