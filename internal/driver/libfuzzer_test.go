package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/native"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/userdict"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// TestLibFuzzerArgs parses command lines as ClusterFuzzLite's libFuzzer
// runner writes them, and checks the detection rule: gfz's own command
// lines stay in gfz mode.
func TestLibFuzzerArgs(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus")
	seeds := filepath.Join(dir, "seeds")
	for _, d := range []string{corpus, seeds} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	input := filepath.Join(dir, "crash-1234")
	if err := os.WriteFile(input, []byte("raw"), 0o644); err != nil {
		t.Fatal(err)
	}
	dict := filepath.Join(dir, "x.dict")
	if err := os.WriteFile(dict, []byte("# tokens\nkw=\"select\"\n\"a\\x41\\\\\\\"\"\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { userdict.Set(nil); readInputFile = nil })

	var out, errb bytes.Buffer
	cfg, code := parseArgs(testInfo, []string{"-rss_limit_mb=2560", "-timeout=25", "-max_total_time=60", "-runs=-1",
		"-artifact_prefix=" + dir + "/", "-dict=" + dict, "-print_final_stats=1", "-close_fd_mask=3",
		"-use_value_profile=1", "-len_control=0", "-detect_leaks=0", "FuzzB", corpus, seeds}, &out, &errb)
	if code != -1 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	lf := cfg.lf
	if lf == nil {
		t.Fatal("libFuzzer mode not detected")
	}
	if cfg.run.Target != "FuzzB" || cfg.run.Time != 60*time.Second || cfg.run.Timeout != 25*time.Second || cfg.run.Runs != 0 ||
		cfg.rssLimitMB != 2560 || cfg.workers != 1 || cfg.workdirSet || len(cfg.repro) != 0 {
		t.Errorf("config %+v", cfg)
	}
	if cfg.run.ReplayOnly {
		t.Error("-runs=-1 (no limit) taken for -runs=0 (replay only)")
	}
	// libFuzzer's -runs=0: replay the corpus, do not fuzz.
	if c0, code := parseArgs(testInfo, []string{"-runs=0", "FuzzB", corpus}, &out, &errb); code != -1 || c0.lf == nil || !c0.run.ReplayOnly || c0.run.Runs != 0 {
		t.Errorf("-runs=0: code %d, config %+v", code, c0)
	}
	if !reflect.DeepEqual(lf.corpus, []string{corpus, seeds}) || lf.artifactPrefix != dir+"/" || !lf.printFinalStats ||
		lf.closeFDMask != 3 || lf.merge || lf.errorExit != 77 || lf.timeoutExit != 70 {
		t.Errorf("libFuzzer part %+v", lf)
	}
	if want := []string{"-use_value_profile=1", "-len_control=0", "-detect_leaks=0"}; !reflect.DeepEqual(lf.notes, want) {
		t.Errorf("ignored flags %q, want %q", lf.notes, want)
	}
	if got, want := userdict.Tokens(), []string{"select", "aA\\\""}; !reflect.DeepEqual(got, want) {
		t.Errorf("dictionary %q, want %q", got, want)
	}

	// A file argument runs that input; gfz's flags keep their meaning.
	cfg, code = parseArgs(testInfo, []string{"-engine=random", "-workers=3", "-runs=100", input, "FuzzA"}, &out, &errb)
	if code != -1 || cfg.lf == nil || !reflect.DeepEqual(cfg.repro, []string{input}) || cfg.run.Engine != "random" || cfg.workers != 3 || cfg.run.Runs != 100 {
		t.Fatalf("file argument: code %d, config %+v: %s", code, cfg, errb.String())
	}
	// -merge=1 OUT IN.
	cfg, code = parseArgs(testInfo, []string{"-merge=1", corpus, seeds, "FuzzA"}, &out, &errb)
	if code != -1 || cfg.lf == nil || !cfg.lf.merge || !reflect.DeepEqual(cfg.lf.corpus, []string{corpus, seeds}) {
		t.Fatalf("merge: code %d, config %+v: %s", code, cfg, errb.String())
	}

	// -set_cover_merge=1 is a merge too (it fuzzed, writing into OUT).
	cfg, code = parseArgs(testInfo, []string{"-set_cover_merge=1", corpus, seeds, "FuzzA"}, &out, &errb)
	if code != -1 || cfg.lf == nil || !cfg.lf.merge {
		t.Errorf("-set_cover_merge=1: code %d, config %+v: %s", code, cfg, errb.String())
	}

	// In libFuzzer mode a flag gfz does not know is a warning, as in
	// libFuzzer (a newer release's flags): -exit_on_time and -handle_trap
	// were refused.
	cfg, code = parseArgs(testInfo, []string{"-exit_on_time=10", "-handle_trap=1", "-nosuch_flag=1", corpus, "FuzzA"}, &out, &errb)
	if code != -1 || cfg.lf == nil || !reflect.DeepEqual(cfg.lf.notes, []string{"-exit_on_time=10", "-handle_trap=1"}) ||
		!reflect.DeepEqual(cfg.lf.unknown, []string{"-nosuch_flag=1"}) {
		t.Errorf("newer libFuzzer flags: code %d, config %+v: %s", code, cfg, errb.String())
	}

	// gfz's own command lines: no libFuzzer mode.
	for _, args := range [][]string{
		{"-runs=100", "-seed=3", "-timeout=2s", "-rss_limit_mb=512", "FuzzA"},
		{"-time", "10s", "-workers", "2", "FuzzA"},
		{"-repro", input, input, "FuzzA"},
	} {
		cfg, code := parseArgs(testInfo, args, &out, &errb)
		if code != -1 || cfg.lf != nil {
			t.Errorf("%q: code %d, libFuzzer %v: %s", args, code, cfg != nil && cfg.lf != nil, errb.String())
		}
	}

	// -help=1 prints the usage, which names libFuzzer mode.
	out.Reset()
	errb.Reset()
	if _, code := parseArgs(testInfo, []string{"-help=1"}, &out, &errb); code != ExitOK || !strings.Contains(errb.String(), "libFuzzer's command line") {
		t.Errorf("-help=1: code %d, stderr %q", code, errb.String())
	}

	// Errors.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-merge=1", corpus, "FuzzA"}, "-merge=1 needs an output corpus directory and at least one input directory"},
		{[]string{corpus, input, "FuzzA"}, "not both"},
		{[]string{"-max_total_time=ten", corpus, "FuzzA"}, "-max_total_time=ten: want an integer"},
		{[]string{corpus, filepath.Join(dir, "missing"), "FuzzA"}, "missing: not a fuzz target, corpus directory or input file"},
		{[]string{"corpus_dir", "FuzzA"}, "corpus_dir: not a fuzz target, corpus directory or input file"},
		{[]string{"FuzzC"}, `unknown fuzz target "FuzzC"`},
		{[]string{"-nosuch_flag=1", "FuzzA"}, "flag provided but not defined"}, // not libFuzzer mode
	} {
		errb.Reset()
		if _, code := parseArgs(testInfo, c.args, &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%q: code %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// TestReadDictionary checks the AFL/libFuzzer dictionary syntax and that a
// bad line is refused with its file:line.
func TestReadDictionary(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.dict")
	// The last four lines are accepted as libFuzzer accepts them: spaces
	// around '=', any name, an unescaped quote inside the value.
	os.WriteFile(good, []byte("# c\n\n  name=\"v1\"\nkw@2=\"\\x00\\xff\"\n\"quote\\\"back\\\\\"\nkw = \"abc\"\ntag-a=\"<a>\"\n\"a\"b\"\na b=\"x\"\n"), 0o644)
	got, err := ReadDictionary(good)
	if want := []string{"v1", "\x00\xff", "quote\"back\\", "abc", "<a>", "a\"b", "x"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ReadDictionary = %q, %v; want %q", got, err, want)
	}
	for _, c := range []struct{ text, want string }{
		{"\"ok\"\nnoquotes\n", "bad.dict:2: ParseDictionaryFile: error in line 2: no quoted value"},
		{"x=\"open\n", "bad.dict:1: ParseDictionaryFile: error in line 1: the value is not enclosed"},
		{"\"\\q\"\n", "bad.dict:1: ParseDictionaryFile: error in line 1: unknown escape \\q"},
		{"\"\\x4\"\n", "bad.dict:1: ParseDictionaryFile: error in line 1: \\x needs two hex digits"},
	} {
		bad := filepath.Join(dir, "bad.dict")
		os.WriteFile(bad, []byte(c.text), 0o644)
		if _, err := ReadDictionary(bad); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	var out, errb bytes.Buffer
	if _, code := parseArgs(testInfo, []string{"-dict=" + filepath.Join(dir, "bad.dict"), "FuzzA"}, &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), "bad.dict:1") {
		t.Errorf("bad -dict: code %d, %q", code, errb.String())
	}
	// A dictionary of comments only: accepted, with a warning.
	empty := filepath.Join(dir, "empty.dict")
	os.WriteFile(empty, []byte("# nothing yet\n\n"), 0o644)
	t.Cleanup(func() { userdict.Set(nil); readInputFile = nil })
	out.Reset()
	errb.Reset()
	if _, code := parseArgs(testInfo, []string{"-dict=" + empty, "FuzzA"}, &out, &errb); code != -1 || !strings.Contains(errb.String(), "empty.dict has no entries") {
		t.Errorf("empty -dict: code %d, %q; want it accepted with a warning", code, errb.String())
	}
}

// TestArtifactNames checks libFuzzer's artefact names and the kinds gfz's
// failure reports map to.
func TestArtifactNames(t *testing.T) {
	lf := &libFuzzer{artifactPrefix: "/out/"}
	if got, want := lf.artifactPath("crash", []byte("abc")), "/out/crash-a9993e364706816aba3e25717850c26c9cd0d89d"; got != want {
		t.Errorf("artifactPath = %q, want %q", got, want)
	}
	for _, c := range []struct {
		r    failureReport
		want string
	}{
		{failureReport{result: "FAILURE", kind: "panic: boom"}, "crash"},
		{failureReport{result: "TIMEOUT", kind: "timeout"}, "timeout"},
		{failureReport{result: "FAILURE", kind: signature.KindOutOfMemory}, "oom"},
		{failureReport{result: "FAILURE", kind: "fatal error: concurrent map writes"}, "crash"},
	} {
		if got := artifactKind(c.r); got != c.want {
			t.Errorf("artifactKind(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
	lf.exactArtifact = "/tmp/x"
	if got := lf.artifactPath("timeout", nil); got != "/tmp/x" {
		t.Errorf("exact_artifact_path: %q", got)
	}
}

// TestCorpusRoundTrip checks that corpus inputs written for libFuzzer (raw
// bytes named by SHA-1) are read back, as are native-format files.
func TestCorpusRoundTrip(t *testing.T) {
	dir := t.TempDir()
	wd := filepath.Join(dir, "wd", "corpus")
	os.MkdirAll(wd, 0o755)
	os.WriteFile(filepath.Join(wd, "a"), workdir.EncodeInput([]byte("go test fuzz v1 lookalike\x00")), 0o644)
	os.WriteFile(filepath.Join(wd, "b"), workdir.EncodeInput([]byte{1, 2, 3}), 0o644)
	os.WriteFile(filepath.Join(wd, importPrefix+"c"), workdir.EncodeInput([]byte("imported")), 0o644)
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	n, err := exportCorpus(wd, out, nil)
	if err != nil || n != 2 {
		t.Fatalf("exportCorpus = %d, %v", n, err)
	}
	if n, _ := exportCorpus(wd, out, nil); n != 0 {
		t.Errorf("second export wrote %d files", n)
	}
	raw, err := os.ReadFile(filepath.Join(out, "7037807198c22a7d2b0807371d763779a84fdfcf"))
	if err != nil || !bytes.Equal(raw, []byte{1, 2, 3}) {
		t.Fatalf("raw unit: %q, %v", raw, err)
	}
	back := filepath.Join(dir, "back", "corpus")
	if n, err := importCorpora([]string{out}, back, nil); err != nil || n != 2 {
		t.Fatalf("importCorpora = %d, %v", n, err)
	}
	files, _ := corpusFiles(back)
	var got []string
	for _, f := range files {
		d, err := workdir.ReadInputFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(d))
	}
	if want := []string{"\x01\x02\x03", "go test fuzz v1 lookalike\x00"}; !reflect.DeepEqual(got, want) && !reflect.DeepEqual(got, []string{want[1], want[0]}) {
		t.Errorf("imported %q, want %q", got, want)
	}
}

// TestCorpusRoundTripNative: for a native target the work directory holds
// its typed corpus files: libFuzzer corpus directories (raw parameter
// bytes, or files in the target's format) are imported in that format,
// exported back as raw bytes, and an artefact-style raw file and a typed
// file read the same.
func TestCorpusRoundTripNative(t *testing.T) {
	ts, err := native.ParseTypes("string,int8")
	if err != nil {
		t.Fatal(err)
	}
	codec := native.Codec{Types: ts}
	encode := func(vs ...any) []byte {
		t.Helper()
		var args []native.Arg
		for _, v := range vs {
			a, ok := native.ArgOf(v)
			if !ok {
				t.Fatalf("ArgOf(%v)", v)
			}
			args = append(args, a)
		}
		b, err := ts.Encode(args)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	params := encode("go!", int8(-3))
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	os.WriteFile(filepath.Join(in, "raw"), params, 0o644)
	typed := codec.EncodeFile(params)
	os.WriteFile(filepath.Join(in, "typed"), typed, 0o644)
	for _, name := range []string{"raw", "typed"} {
		got, err := readNativeOrRaw(codec, filepath.Join(in, name))
		if err != nil || !bytes.Equal(got, params) {
			t.Errorf("%s: read %q, %v; want the parameter bytes %q", name, got, err, params)
		}
	}
	wd := filepath.Join(dir, "wd", "corpus")
	if n, err := importCorpora([]string{in}, wd, codec); err != nil || n != 2 {
		t.Fatalf("importCorpora = %d, %v", n, err)
	}
	files, _ := corpusFiles(wd)
	if len(files) != 1 { // both files hold the same input
		t.Fatalf("work directory corpus %v, want one file", files)
	}
	if b, _ := os.ReadFile(files[0]); !bytes.Equal(b, typed) {
		t.Errorf("imported as %q, want the target's format %q", b, typed)
	}
	// A unit the engine found (not imported) goes back out raw.
	os.WriteFile(filepath.Join(wd, "found"), codec.EncodeFile(encode("x", int8(1))), 0o644)
	out := t.TempDir()
	if n, err := exportCorpus(wd, out, codec); err != nil || n != 1 {
		t.Fatalf("exportCorpus = %d, %v", n, err)
	}
}

// TestCorpusFilesSymlinks: a corpus directory given as a symbolic link is
// read (WalkDir does not follow its root: it read as empty, so fuzzing and
// -merge=1 started from nothing), and so is a link to a file inside it;
// hidden files are not.
func TestCorpusFilesSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real")
	if err := os.MkdirAll(target, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", ".hidden"} {
		if err := os.WriteFile(filepath.Join(target, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "outside"), []byte("o"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "outside"), filepath.Join(target, "c")); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	files, err := corpusFiles(link)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	if strings.Join(names, ",") != "a,b,c" {
		t.Errorf("corpus files through a link: %v, want a, b and c", names)
	}
}
