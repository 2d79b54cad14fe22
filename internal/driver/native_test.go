package driver

import (
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/native"
	"github.com/gfz-dev/gfz/internal/userdict"
)

// TestNativeConfig: a native target named in the build info gets its
// codec (its own types), the dictionary and the args engine by default;
// -engine still overrides; a gfz target gets none of these.
func TestNativeConfig(t *testing.T) {
	old := nativeDict
	nativeDict = "BEGIN%3A,42,%3BEND"
	defer func() { nativeDict = old }()
	info := "v=1&mapbits=16&probes=10&targets=FuzzG%2CFuzzN&native.FuzzN=string%2Cint8"
	cfg, code := parseArgs(info, []string{"FuzzN"}, io.Discard, io.Discard)
	if cfg == nil {
		t.Fatalf("parseArgs: exit %d", code)
	}
	if cfg.run.Engine != NativeDefaultEngine || NativeDefaultEngine != "args" {
		t.Errorf("native target engine %q, want %q", cfg.run.Engine, NativeDefaultEngine)
	}
	c, ok := cfg.codec().(native.Codec)
	if !ok || c.Types.String() != "string,int8" {
		t.Fatalf("codec %#v, want the native types", cfg.codec())
	}
	if file := string(cfg.encodeInput([]byte("ab\x05"))); file != "go test fuzz v1\nstring(\"ab\")\nint8(5)\n" {
		t.Errorf("encodeInput = %q", file)
	}
	var toks []string
	for _, tok := range cfg.dictionary() {
		toks = append(toks, string(tok))
	}
	if strings.Join(toks, " ") != "BEGIN: 42 ;END" {
		t.Errorf("dictionary %q", toks)
	}
	// A command-line dictionary (libFuzzer's -dict=FILE) reaches the
	// native target's engine too, after the literals, without duplicates;
	// also when gfz-build linked in no literals.
	userdict.Set([]string{"MAGIC", "42", ""})
	defer userdict.Set(nil)
	toks = toks[:0]
	for _, tok := range cfg.dictionary() {
		toks = append(toks, string(tok))
	}
	if strings.Join(toks, " ") != "BEGIN: 42 ;END MAGIC" {
		t.Errorf("dictionary with -dict %q, want the literals then MAGIC", toks)
	}
	nativeDict = ""
	toks = toks[:0]
	for _, tok := range cfg.dictionary() {
		toks = append(toks, string(tok))
	}
	if strings.Join(toks, " ") != "MAGIC 42" {
		t.Errorf("dictionary with -dict and no literals %q, want MAGIC 42", toks)
	}
	userdict.Set(nil)
	nativeDict = "BEGIN%3A,42,%3BEND"
	cfg, _ = parseArgs(info, []string{"-engine", "zest", "FuzzN"}, io.Discard, io.Discard)
	if cfg.run.Engine != "zest" {
		t.Errorf("-engine zest gave %q", cfg.run.Engine)
	}
	cfg, _ = parseArgs(info, []string{"FuzzG"}, io.Discard, io.Discard)
	if cfg.run.Engine != engine.DefaultEngine || cfg.codec() != nil || cfg.dictionary() != nil {
		t.Errorf("gfz target: engine %q, codec %v, dictionary %q", cfg.run.Engine, cfg.codec(), cfg.dictionary())
	}
}

// TestFeedbackEngine: a gfz target given -feedback, -seedgen or
// -seedgen-runs and no -engine runs zest (the default engine, random,
// would follow none of it); -feedback none, or -engine given, leaves the
// engine alone; a native target keeps its own default.
func TestFeedbackEngine(t *testing.T) {
	info := "v=1&mapbits=16&probes=10&targets=FuzzG%2CFuzzN&native.FuzzN=string%2Cint8"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"FuzzG"}, engine.DefaultEngine},
		{[]string{"-feedback", "perf", "FuzzG"}, FeedbackEngine},
		{[]string{"-feedback", "none", "FuzzG"}, engine.DefaultEngine},
		{[]string{"-feedback", "mem", "-engine", "random", "FuzzG"}, "random"},
		{[]string{"-feedback", "mem", "-engine", "ei", "FuzzG"}, "ei"},
		{[]string{"-feedback", "perf", "FuzzN"}, NativeDefaultEngine},
		{[]string{"-seedgen-runs", "100", "-runs", "1000", "FuzzG"}, FeedbackEngine},
		{[]string{"-seedgen", "1s", "-time", "5s", "FuzzG"}, FeedbackEngine},
		{[]string{"-seedgen-runs", "100", "-runs", "1000", "-engine", "bytes", "FuzzG"}, "bytes"},
	} {
		cfg, code := parseArgs(info, c.args, io.Discard, io.Discard)
		if cfg == nil {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		if cfg.run.Engine != c.want {
			t.Errorf("%v: engine %q, want %q", c.args, cfg.run.Engine, c.want)
		}
	}
	// Seeds under the default engine are noted (parentSetup, inertSeeds):
	// -seedcorpus, and the package's seed corpus when it holds a file;
	// not under a named engine, nor on a native target, nor without seeds.
	pkg := t.TempDir()
	seeds := filepath.Join(pkg, "testdata", "fuzz", "FuzzG")
	if err := os.MkdirAll(seeds, 0o755); err != nil {
		t.Fatal(err)
	}
	withPkg := "dir=" + url.QueryEscape(pkg) + "&" + info
	inert := engine.DefaultEngine == "random"
	for _, c := range []struct {
		info string
		args []string
		want string
	}{
		{info, []string{"-seedcorpus", t.TempDir(), "FuzzG"}, "-seedcorpus"},
		{info, []string{"-seedcorpus", t.TempDir(), "-engine", "random", "FuzzG"}, ""},
		{info, []string{"-seedcorpus", t.TempDir(), "-engine", "zest", "FuzzG"}, ""},
		{info, []string{"-seedcorpus", t.TempDir(), "FuzzN"}, ""},
		{info, []string{"FuzzG"}, ""},
		{withPkg, []string{"FuzzG"}, ""}, // the package's seed directory is empty
	} {
		if !inert {
			c.want = ""
		}
		cfg, code := parseArgs(c.info, c.args, io.Discard, io.Discard)
		if cfg == nil {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		if got := cfg.inertSeeds(); got != c.want {
			t.Errorf("%v: inert seeds %q, want %q", c.args, got, c.want)
		}
	}
	if err := os.WriteFile(filepath.Join(seeds, "s1"), []byte("go test fuzz v1\n[]byte(\"\")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"FuzzG"}, seeds},
		{[]string{"-seedcorpus", t.TempDir(), "FuzzG"}, "-seedcorpus and " + seeds},
		{[]string{"-engine", "zeugma", "FuzzG"}, ""},
	} {
		if !inert {
			c.want = ""
		}
		cfg, code := parseArgs(withPkg, c.args, io.Discard, io.Discard)
		if cfg == nil {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		if got := cfg.inertSeeds(); got != c.want {
			t.Errorf("package seeds, %v: inert seeds %q, want %q", c.args, got, c.want)
		}
	}
	if FeedbackEngine == engine.DefaultEngine {
		t.Errorf("FeedbackEngine %q is the default engine: the rule is moot", FeedbackEngine)
	}
}

// TestNativeDefaultFeedback: a native target under its default engine
// runs with -feedback cmp when its binary has comparison probes (gfz-build
// inserts them by default for native targets); -feedback given (a list,
// none, or empty) replaces it; another engine, a gfz target or a binary
// without probes gets no feedback by default (and so no warning).
func TestNativeDefaultFeedback(t *testing.T) {
	old := cmpBuilt
	defer func() { cmpBuilt = old }()
	info := "v=1&mapbits=16&probes=10&targets=FuzzG%2CFuzzN&native.FuzzN=string%2Cint8"
	for _, c := range []struct {
		probes bool
		args   []string
		want   string
	}{
		{true, []string{"FuzzN"}, "cmp"},
		{true, []string{"-engine", "args", "FuzzN"}, "cmp"},
		{true, []string{"-feedback", "perf", "FuzzN"}, "perf"},
		{true, []string{"-feedback", "mem,cmp", "FuzzN"}, "mem,cmp"},
		{true, []string{"-feedback", "none", "FuzzN"}, ""},
		{true, []string{"-feedback=", "FuzzN"}, ""},
		{true, []string{"-engine", "zest", "FuzzN"}, ""},
		{true, []string{"FuzzG"}, ""},
		{false, []string{"FuzzN"}, ""},
	} {
		cmpBuilt = func() bool { return c.probes }
		cfg, code := parseArgs(info, c.args, io.Discard, io.Discard)
		if cfg == nil {
			t.Fatalf("%v: parseArgs: exit %d", c.args, code)
		}
		if got := strings.Join(cfg.run.Feedback, ","); got != c.want {
			t.Errorf("probes %v, %v: feedback %q, want %q", c.probes, c.args, got, c.want)
		}
	}
	if _, code := parseArgs(info, []string{"-feedback", "none,cmp", "FuzzN"}, io.Discard, io.Discard); code != ExitUsage {
		t.Errorf("-feedback none,cmp: exit %d, want %d", code, ExitUsage)
	}
}

// TestNativeRL: rl has nothing to learn on a native target: -engine rl and
// -seedgen-engine rl are refused with a message naming the target and
// what to use, seed generation on a native target defaults to random, and
// a gfz target keeps rl for both.
func TestNativeRL(t *testing.T) {
	info := "v=1&mapbits=16&probes=10&targets=FuzzG%2CFuzzN&native.FuzzN=string%2Cint8"
	for _, c := range []struct {
		args []string
		want string // in the message; "" means accepted
	}{
		{[]string{"-engine", "rl", "FuzzN"}, "-engine rl cannot fuzz the native target FuzzN"},
		{[]string{"-seedgen-runs", "10", "-runs", "100", "-seedgen-engine", "rl", "FuzzN"}, "-seedgen-engine rl cannot make seeds for the native target FuzzN"},
		{[]string{"-seedgen-runs", "10", "-runs", "100", "FuzzN"}, ""},
		{[]string{"-engine", "rl", "FuzzG"}, ""},
		{[]string{"-seedgen-runs", "10", "-runs", "100", "-seedgen-engine", "rl", "FuzzG"}, ""},
	} {
		var errb strings.Builder
		cfg, code := parseArgs(info, c.args, io.Discard, &errb)
		if c.want != "" {
			if cfg != nil || code != ExitUsage || !strings.Contains(errb.String(), c.want) || !strings.Contains(errb.String(), "random") {
				t.Errorf("%q: exit %d, stderr %q; want exit %d and %q naming random", c.args, code, errb.String(), ExitUsage, c.want)
			}
			continue
		}
		if cfg == nil {
			t.Errorf("%q: refused (exit %d): %s", c.args, code, errb.String())
			continue
		}
		want := "rl"
		if c.args[len(c.args)-1] == "FuzzN" {
			want = "random"
		}
		if cfg.seedgen.engine != want {
			t.Errorf("%q: seed generation engine %q, want %q", c.args, cfg.seedgen.engine, want)
		}
	}
}
