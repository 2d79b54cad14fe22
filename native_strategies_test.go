package gfz_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// strategiesModule is a plain module (no gfz in it) with one native
// target over five argument types whose planted failure every engine
// reaches within a few hundred executions: a t.Fatalf, so that one go
// test run replays every saved file as its own failing subtest.
var strategiesModule = map[string]string{
	"go.mod": "module example.com/strat\n\ngo 1.22\n",
	"strat_test.go": `package strat

import "testing"

func FuzzPlanted(f *testing.F) {
	f.Add("{\"a\":1}", []byte("c"), int64(3), false, 1.5)
	f.Fuzz(func(t *testing.T, s string, b []byte, n int64, ok bool, x float64) {
		if len(s)+len(b) > 2 && n%3 != 0 && ok {
			t.Fatalf("planted: %q %q %d %v %v", s, b, n, ok, x)
		}
	})
}
`,
}

// TestNativeReplayEveryStrategy: whatever strategy made it, a failure
// saved for a native target is a corpus file of the target's types that
// plain go test, with no gfz, replays and fails the same way. One run per
// engine (and per feedback or format option that makes children
// differently: cmp tokens, the format mix, none), fixed seed and budget,
// one worker; then every saved file goes to testdata/fuzz and one go test
// run must fail on each of them.
func TestNativeReplayEveryStrategy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a fuzz binary")
	}
	mod := t.TempDir()
	testmod.Write(t, mod, strategiesModule)
	bin := filepath.Join(t.TempDir(), "strat.gfz")
	if log, err := testmod.GfzBuild(mod, "-o", bin, "."); err != nil {
		t.Fatalf("gfz-build: %v\n%s", err, log)
	}
	strategies := []struct {
		name string
		args []string
		env  []string
	}{
		{"args", nil, nil}, // the default: args with cmp feedback
		{"args-nofeedback", []string{"-feedback", "none"}, nil},
		{"args-json", []string{"-format", "json"}, nil}, // children from the JSON generator
		{"args-perf", []string{"-feedback", "cmp,perf"}, nil},
		{"bytes", []string{"-engine", "bytes"}, nil},
		{"bytes-cmp", []string{"-engine", "bytes", "-feedback", "cmp"}, nil},
		{"zest", []string{"-engine", "zest"}, nil},
		{"random", []string{"-engine", "random"}, nil}, // fresh random arguments: the bug needs non-empty ones
		{"ei", []string{"-engine", "ei"}, nil},
		{"bediv", []string{"-engine", "bediv"}, nil},
		{"zeugma", []string{"-engine", "zeugma"}, nil},
		{"fairfuzz", []string{"-engine", "fairfuzz"}, nil},
		{"auto", []string{"-engine", "auto"}, nil},
		// auto's native arms: typed argument edits alone, then with
		// documents of the JSON generator (which replace the string only:
		// the failure also needs edits of the other arguments).
		{"auto-args", []string{"-engine", "auto"}, []string{"GFZ_AUTO_ARMS=args"}},
		{"auto-format", []string{"-engine", "auto", "-format", "json"}, []string{"GFZ_AUTO_ARMS=format,args"}},
		{"seedgen", []string{"-seedgen-runs", "200"}, nil}, // seeds from -seedgen-engine random (rl is refused on native targets)
	}
	seedDir := filepath.Join(mod, "testdata", "fuzz", "FuzzPlanted")
	if err := os.MkdirAll(seedDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range strategies {
		work := t.TempDir()
		args := append([]string{"-workers", "1", "-seed", "1", "-runs", "3000", "-timeout", "0", "-workdir", work}, s.args...)
		cmd := exec.Command(bin, append(args, "FuzzPlanted")...)
		cmd.Env = append(os.Environ(), s.env...)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Errorf("%s: %v, want exit status 1 (the planted failure within 3,000 executions):\n%s", s.name, err, out)
			continue
		}
		inputs, _ := filepath.Glob(filepath.Join(work, "failures", "*.input"))
		if len(inputs) != 1 {
			t.Errorf("%s: failure inputs %v, want one", s.name, inputs)
			continue
		}
		file, err := os.ReadFile(inputs[0])
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(file), "go test fuzz v1\nstring(") {
			t.Errorf("%s: the saved failure is not a native corpus file of the target's types:\n%s", s.name, file)
		}
		if err := os.WriteFile(filepath.Join(seedDir, s.name), file, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gt := exec.Command("go", "test", "-count=1", "-v", "-run", "^FuzzPlanted$", ".")
	gt.Dir, gt.Env = mod, testmod.Env(mod)
	gout, _ := gt.CombinedOutput()
	for _, s := range strategies {
		if _, err := os.Stat(filepath.Join(seedDir, s.name)); err != nil {
			continue // reported above
		}
		if !strings.Contains(string(gout), "--- FAIL: FuzzPlanted/"+s.name+" ") {
			t.Errorf("%s: plain go test does not fail on the saved file", s.name)
		}
	}
	if t.Failed() {
		t.Logf("go test:\n%s", gout)
	}
	if n := strings.Count(string(gout), "planted: "); n < len(strategies) {
		t.Errorf("go test printed the planted failure %d times, want %d (one per strategy)", n, len(strategies))
	}
}
