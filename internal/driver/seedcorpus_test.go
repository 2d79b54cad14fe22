package driver

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/native"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// TestReadSeedDirs: -seedcorpus reads the files of each directory in name
// order (the same seeds in the same order every run), skips hidden files,
// and skips files the target cannot read with one line per directory.
func TestReadSeedDirs(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write := func(dir, name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(a, "2", workdir.EncodeInput([]byte("two")))
	write(a, "1", workdir.EncodeInput([]byte("one")))
	write(a, ".hidden", workdir.EncodeInput([]byte("hidden")))
	write(a, "bad", []byte("go test fuzz v1\nint(1)\n"))
	if err := os.Mkdir(filepath.Join(a, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(b, "x", workdir.EncodeInput([]byte("three")))
	var warn bytes.Buffer
	seeds, err := readSeedDirs([]string{a, b}, workdir.ReadInputFile, &warn)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range seeds {
		got = append(got, string(s))
	}
	if strings.Join(got, ",") != "one,two,three" {
		t.Errorf("seeds %q, want one,two,three", got)
	}
	if w := warn.String(); strings.Count(w, "\n") != 1 || !strings.Contains(w, "skipped 1 of 3 files") || !strings.Contains(w, a) {
		t.Errorf("warning %q", w)
	}
	if err := checkSeedDirs([]string{a, filepath.Join(a, "missing")}); err == nil || !strings.Contains(err.Error(), "-seedcorpus") {
		t.Errorf("missing directory: %v", err)
	}
	if err := checkSeedDirs([]string{filepath.Join(a, "1")}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file: %v", err)
	}
}

// TestCheckSeedFilesAll: every bad file of a target's seed corpus is
// reported, each with its reason, as go test lists them (only the first
// was).
func TestCheckSeedFilesAll(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	dir := filepath.Join("testdata", "fuzz", "FuzzX")
	if err := os.MkdirAll(filepath.Join(dir, "subdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"a":    "garbage\n",
		"b":    "go test fuzz v1\nint(3)\n",
		"c":    "go test fuzz v1\n[]byte(\"ok\")\n",
		"d":    "go test fuzz v1\n[]byte(\"unterminated)\n",
		"good": "go test fuzz v1\n[]byte(\"fine\")\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err = checkSeedFiles("FuzzX", native.Codec{Types: native.Types{native.Bytes}})
	if err == nil {
		t.Fatal("no error for three bad seed files")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "3 seed files of FuzzX are not inputs of the target (a native target's seed files") {
		t.Errorf("message starts %q", strings.SplitN(msg, "\n", 2)[0])
	}
	for _, f := range []string{"a", "b", "d"} {
		if !strings.Contains(msg, "\n\tseed file "+filepath.Join(dir, f)+": ") {
			t.Errorf("file %s not named:\n%s", f, msg)
		}
	}
	if strings.Contains(msg, filepath.Join(dir, "c")) || strings.Contains(msg, "good") || strings.Count(msg, "\n") != 3 {
		t.Errorf("good files named or lines missing:\n%s", msg)
	}
	// One bad file: one line, as before.
	os.Remove(filepath.Join(dir, "a"))
	os.Remove(filepath.Join(dir, "d"))
	if err := checkSeedFiles("FuzzX", native.Codec{Types: native.Types{native.Bytes}}); err == nil || strings.Contains(err.Error(), "\n") ||
		!strings.HasPrefix(err.Error(), "seed file "+filepath.Join(dir, "b")+": ") {
		t.Errorf("one bad file: %v", err)
	}
}

// TestPackageSeedDir: a binary run outside its package directory (as
// gfz-build recorded it) seeds from the package's testdata/fuzz/<target>,
// which the testing package reads only in the package directory; run in
// it, or under libFuzzer's command line, it does not add the directory.
func TestPackageSeedDir(t *testing.T) {
	pkg, elsewhere := t.TempDir(), t.TempDir()
	seeds := filepath.Join(pkg, "testdata", "fuzz", "FuzzA")
	if err := os.MkdirAll(seeds, 0o755); err != nil {
		t.Fatal(err)
	}
	info := testInfo + "&dir=" + url.QueryEscape(pkg)
	parse := func(args ...string) *config {
		t.Helper()
		var out, errb bytes.Buffer
		cfg, code := parseArgs(info, args, &out, &errb)
		if cfg == nil {
			t.Fatalf("%q: exit %d: %s", args, code, errb.String())
		}
		return cfg
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	chdir := func(dir string) {
		t.Helper()
		if err := os.Chdir(dir); err != nil {
			t.Fatal(err)
		}
	}
	chdir(elsewhere)
	if cfg := parse("FuzzA"); cfg.pkgSeeds != seeds || len(cfg.seedDirs) != 1 || cfg.seedDirs[0] != seeds {
		t.Errorf("elsewhere: seed dirs %q (package's %q), want %q", cfg.seedDirs, cfg.pkgSeeds, seeds)
	}
	if cfg := parse("-seedcorpus", pkg, "FuzzA"); len(cfg.seedDirs) != 2 || cfg.seedDirs[0] != pkg || cfg.seedDirs[1] != seeds {
		t.Errorf("with -seedcorpus: seed dirs %q", cfg.seedDirs)
	}
	if cfg := parse("-max_total_time=1", "FuzzA"); len(cfg.seedDirs) != 0 {
		t.Errorf("libFuzzer's command line: seed dirs %q", cfg.seedDirs)
	}
	chdir(pkg)
	if cfg := parse("FuzzA"); len(cfg.seedDirs) != 0 || cfg.pkgSeeds != "" {
		t.Errorf("in the package directory: seed dirs %q", cfg.seedDirs)
	}
	// A package without a seed corpus for the target: nothing added.
	chdir(elsewhere)
	if err := os.Remove(seeds); err != nil {
		t.Fatal(err)
	}
	if cfg := parse("FuzzA"); len(cfg.seedDirs) != 0 {
		t.Errorf("no seed corpus: seed dirs %q", cfg.seedDirs)
	}
}
