package gfz_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestNativeSubtestPanic: a panic in a subtest of a native target (t.Run
// in its fuzz function: testdata/crashers' FuzzNativeSubtest) ends the
// worker, as under go test (the testing package panics again in the
// subtest's goroutine); the supervisor saves it once, named by the
// panic's own frames (not by the runtime's panic frame the re-panic puts
// above them), shrinks it, -repro reproduces it, and plain go test
// replays the saved file.
func TestNativeSubtestPanic(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	// Enough executions for several deaths whatever the fixture package
	// holds (its probes and literals steer the search: at 500, adding an
	// unrelated target to testdata/crashers left one death).
	const runs = 2000
	out, reports := failingRun(t, bin, wd, "-workers", "1", "-seed", "3", "-runs", strconv.Itoa(runs), "FuzzNativeSubtest")
	if len(reports) != 1 {
		t.Fatalf("%d failure reports, want 1\n%s", len(reports), out)
	}
	b, err := os.ReadFile(reports[0])
	if err != nil {
		t.Fatal(err)
	}
	rep := string(b)
	for _, want := range []string{
		"\nkind: panic: runtime error: index out of range [N] with length N\n",
		`signature: "panic: runtime error: index out of range [N] with length N\ngithub.com/gfz-dev/gfz/testdata/crashers.subtestPanic native_subtest_test.go:`,
		`\ngithub.com/gfz-dev/gfz/testdata/crashers.FuzzNativeSubtest.func1.2 native_subtest_test.go:`,
		"\nvalue:\n\targ0 []byte = []byte(\"pan",
		"testing.tRunner",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%.3000s", want, rep)
		}
	}
	if m := regexp.MustCompile(`shrunk: (\d+) -> 5 bytes`).FindStringSubmatch(rep); m == nil || m[1] == "5" {
		t.Errorf("report does not say the input was shrunk to 5 bytes:\n%.3000s", rep)
	}
	st := readStats(t, wd)
	if r, n, e := statInt(t, st, "restarts"), statInt(t, st, "unique_failures"), statInt(t, st, "execs"); r < 2 || n != 1 || e != runs {
		t.Errorf("restarts %d, unique failures %d, execs %d: want several deaths, one failure, the whole budget", r, n, e)
	}

	input := strings.TrimSuffix(reports[0], ".txt") + ".input"
	out, code := runBin(t, bin, "-repro", input, "FuzzNativeSubtest")
	wantOutput(t, "-repro", out, code, 1, "result: FAILURE", "kind: panic: runtime error: index out of range", "crashed while running the input")

	// Plain go test, in a module of its own holding the target's file
	// (it needs nothing else), with the saved input in its testdata.
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "crashers", "native_subtest_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(input)
	data, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	for path, content := range map[string][]byte{
		"go.mod":                 []byte("module example.com/replay\n\ngo 1.22\n"),
		"native_subtest_test.go": src,
		filepath.Join("testdata", "fuzz", "FuzzNativeSubtest", name): data,
	} {
		p := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, code = run(t, dir, nil, "go", "test", "-run=^FuzzNativeSubtest$/^"+regexp.QuoteMeta(name)+"$", ".")
	wantOutput(t, "go test replaying the saved failure", out, code, 1,
		"--- FAIL: FuzzNativeSubtest/"+name+"/check", "index out of range [5] with length 0", "replay.subtestPanic")
}
