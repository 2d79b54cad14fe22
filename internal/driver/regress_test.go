package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// TestRegressFlag: -regress is off by default, alone it takes the package
// directory recorded in the build information, -regress=DIR overrides it,
// and without a recorded directory -regress alone is a usage error.
func TestRegressFlag(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "pkg")
	info := testInfo + "&dir=" + rec
	for _, c := range []struct {
		info string
		args []string
		want string // cfg.regress
		err  string // stderr substring when parsing fails
	}{
		{info, []string{"FuzzA"}, "", ""},
		{info, []string{"-regress", "FuzzA"}, rec, ""},
		{info, []string{"-regress=true", "FuzzA"}, rec, ""},
		{info, []string{"-regress=false", "FuzzA"}, "", ""},
		{info, []string{"-regress=/other/pkg", "FuzzA"}, "/other/pkg", ""},
		{testInfo, []string{"-regress", "FuzzA"}, "", "does not record its package's source directory"},
		{testInfo, []string{"-regress=", "FuzzA"}, "", "empty directory"},
	} {
		var out, errb bytes.Buffer
		cfg, code := parseArgs(c.info, c.args, &out, &errb)
		if c.err != "" {
			if code != ExitUsage || !strings.Contains(errb.String(), c.err) {
				t.Errorf("%q: code %d, stderr %q; want usage error %q", c.args, code, errb.String(), c.err)
			}
			continue
		}
		if code != -1 || cfg.regress != c.want {
			t.Errorf("%q: code %d, regress %q, want %q (stderr %q)", c.args, code, cfg.regress, c.want, errb.String())
		}
	}
	// A relative directory is made absolute (workers run elsewhere).
	cfg, code := parseArgs(testInfo, []string{"-regress=rel", "FuzzA"}, &bytes.Buffer{}, &bytes.Buffer{})
	if code != -1 || !filepath.IsAbs(cfg.regress) || filepath.Base(cfg.regress) != "rel" {
		t.Errorf("-regress=rel: code %d, %q", code, cfg.regress)
	}
}

// TestExportRegression: the saved failure's bytes are copied as they are
// into testdata/fuzz/<target>/<first 16 hex digits of their SHA-256>, the
// note names the file and the go test command, and exporting the same
// input again writes nothing new.
func TestExportRegression(t *testing.T) {
	pkg := filepath.Join(t.TempDir(), "my pkg")
	if err := os.Mkdir(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkRegressDir(pkg, "FuzzA"); err != nil {
		t.Fatalf("checkRegressDir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(pkg, "testdata")); !os.IsNotExist(err) {
		t.Fatalf("the check created testdata (%v)", err)
	}
	data := []byte("go test fuzz v1\nint(7)\nstring(\"x\")\n") // a native target's typed file: not re-encoded
	in := filepath.Join(t.TempDir(), "abc.input")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	note, err := exportRegression(pkg, "FuzzA", in, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	name := hex.EncodeToString(sum[:])[:16]
	path := filepath.Join(pkg, "testdata", "fuzz", "FuzzA", name)
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("%s: %v %q", path, err, got)
	}
	want := "cd '" + pkg + "' && go test -run=FuzzA/" + name + "\n"
	if !strings.Contains(note, "written to "+path) || !strings.HasSuffix(note, want) {
		t.Errorf("note %q, want the path and %q", note, want)
	}
	note, err = exportRegression(pkg, "FuzzA", in, nil)
	files, _ := os.ReadDir(filepath.Dir(path))
	if err != nil || !strings.Contains(note, "already in "+path) || len(files) != 1 {
		t.Errorf("second export: %v, %q, %d files", err, note, len(files))
	}
	if strings.Contains(note, "WARNING") {
		t.Errorf("a warning for a failure that repeats: %q", note)
	}
	// A failure that did not repeat when shrinking ran it again: the file
	// is written, with a warning that go test may pass on it.
	rep := "gfz failure report\nshrunk: not shrunk: " + workdir.NotReproducingText + "\n"
	if err := os.WriteFile(strings.TrimSuffix(in, ".input")+".txt", []byte(rep), 0o644); err != nil {
		t.Fatal(err)
	}
	if note, err = exportRegression(pkg, "FuzzA", in, nil); err != nil || !strings.Contains(note, "WARNING: this failure did not repeat") {
		t.Errorf("flaky failure: %v, %q", err, note)
	}
}

// TestRegressProbeIsADirectory: the writability probe made in an existing
// corpus directory is a directory, which go test skips (a file left there
// by a kill would be read as a malformed input and fail plain go test).
func TestRegressProbeIsADirectory(t *testing.T) {
	pkg := t.TempDir()
	corpus := regressTargetDir(pkg, "FuzzA")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	var probed string
	defer func(f func(string)) { regressProbed = f }(regressProbed)
	regressProbed = func(p string) {
		probed = p
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			t.Errorf("probe %s: %v, want a directory", p, err)
		}
	}
	if err := checkRegressDir(pkg, "FuzzA"); err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(probed) != corpus {
		t.Errorf("probe %q, want one in %s", probed, corpus)
	}
	if files, _ := os.ReadDir(corpus); len(files) != 0 {
		t.Errorf("the probe was left: %v", files)
	}
}

// TestCheckRegressDir: a missing package directory, or a file in its
// place, is refused at start-up with the remedy.
func TestCheckRegressDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(dir, "missing"), "does not exist"},
		{file, "is not a directory"},
	} {
		err := checkRegressDir(c.dir, "FuzzA")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "-regress=DIR") {
			t.Errorf("%s: %v, want %q and the remedy", c.dir, err, c.want)
		}
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		if err := checkRegressDir(ro, "FuzzA"); err == nil || !strings.Contains(err.Error(), "cannot write") {
			t.Errorf("read-only directory: %v", err)
		}
	}
}

// TestExportRegressionDictionary: with a non-empty generators' dictionary,
// -regress also writes it to testdata/gfzdict/<target>/<name>, in the
// -dict format, giving back the same tokens in the same order (a drawn
// token is an index); with an empty one it writes none.
func TestExportRegressionDictionary(t *testing.T) {
	tokens := []string{"if", "quo\"te", `back\slash`, "new\nline", "\x00\xff", "", " padded ", "#hash", "ünï"}
	for _, dict := range [][]string{tokens, nil} {
		pkg := t.TempDir()
		data := []byte("go test fuzz v1\n[]byte(\"\\x01\\x02\")\n")
		in := filepath.Join(t.TempDir(), "f.input")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := exportRegression(pkg, "FuzzD", in, dict); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(pkg, "testdata", "gfzdict", "FuzzD", regressName(data))
		got, err := ReadDictionary(path)
		if dict == nil {
			if _, serr := os.Stat(filepath.Join(pkg, "testdata", "gfzdict")); !os.IsNotExist(serr) {
				t.Errorf("empty dictionary: testdata/gfzdict exists (%v)", serr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tokens) {
			t.Errorf("written dictionary = %q, %v; want %q", got, err, tokens)
		}
	}
}

// TestExportRegressionDictionaryNeeded: the dictionary is written beside a
// regression input only when the input's report says its values drew
// from it (or the report cannot tell: it is missing or describes another
// input); an input that drew no token gets no dictionary file. (Every
// input got one whenever the binary had a dictionary.)
func TestExportRegressionDictionaryNeeded(t *testing.T) {
	params := []byte{1, 2, 3}
	for _, c := range []struct {
		name   string
		report *workdir.Report // nil: no report
		want   bool
	}{
		{"drew no token", &workdir.Report{Input: params}, false},
		{"drew tokens", &workdir.Report{Input: params, Info: workdir.FailureInfo{Dictionary: true}}, true},
		{"no report", nil, true},
		{"report of another input", &workdir.Report{Input: []byte{1, 2}}, true},
	} {
		pkg, wd := t.TempDir(), t.TempDir()
		data := workdir.EncodeInput(params)
		in := filepath.Join(wd, "f.input")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if c.report != nil {
			if err := os.WriteFile(filepath.Join(wd, "f.txt"), c.report.Format(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := exportRegression(pkg, "FuzzD", in, []string{"tok"}); err != nil {
			t.Fatal(err)
		}
		_, err := os.Stat(filepath.Join(pkg, "testdata", "gfzdict", "FuzzD", regressName(data)))
		if got := err == nil; got != c.want {
			t.Errorf("%s: dictionary file written %v, want %v", c.name, got, c.want)
		}
		if _, err := os.Stat(filepath.Join(pkg, "testdata", "fuzz", "FuzzD", regressName(data))); err != nil {
			t.Errorf("%s: regression input not written: %v", c.name, err)
		}
	}
}
