package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gfz-dev/gfz/cmd/internal/build"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// bstReport is a real failure report (gfz-run ./testdata/examples/bst,
// the paths changed).
const bstReport = `gfz failure report
signature: "fatal\ngithub.com/gfz-dev/gfz/testdata/examples/bst.FuzzDelete.func1 bst_test.go:38\n"
target: FuzzDelete
result: FAILURE
kind: t.Fatal
group: 52b8ee6303e8 (fatal at github.com/gfz-dev/gfz/testdata/examples/bst.FuzzDelete.func1 bst_test.go:38)
found at execution: 119424 (over all workers, as of the supervisor's last count; worker 0 at its execution 68161)
found by: worker 0, in its execution 68161
found at: 2026-11-27T00:08:45.711Z (304ms into the run)
reproduce: /home/dev/gfz/gfzwork/bin/bst.gfz -repro /home/dev/gfz/gfzwork/github.com/gfz-dev/gfz/testdata/examples/bst/FuzzDelete/failures/ca37773e907e.input FuzzDelete
shrunk: 17 -> 17 bytes, 17 -> 17 choices, 227 executions in 3ms; no smaller input fails the same way under the shrink passes
original input: /home/dev/gfz/gfzwork/github.com/gfz-dev/gfz/testdata/examples/bst/FuzzDelete/failures/ca37773e907e.original

message:
	bst_test.go:38: after deleting 1 from [0 1 2 3 4]: got keys [0 2 4], want [0 2 3 4]

value:
	Custom = &bst.Node{Key:1, Left:&bst.Node{Key:0, Left:(*bst.Node)(nil), Right:(*bst.Node)(nil)}, Right:&bst.Node{Key:4, Left:&bst.Node{Key:2, Left:(*bst.Node)(nil), Right:&bst.Node{Key:3, Left:(*bst.Node)(nil), Right:(*bst.Node)(nil)}}, Right:(*bst.Node)(nil)}}
	IntRange = 1

original value (before shrinking):
	Custom = &bst.Node{Key:17, Left:&bst.Node{Key:0, Left:(*bst.Node)(nil), Right:(*bst.Node)(nil)}, Right:&bst.Node{Key:42, Left:&bst.Node{Key:20, Left:(*bst.Node)(nil), Right:&bst.Node{Key:37, Left:(*bst.Node)(nil), Right:(*bst.Node)(nil)}}, Right:(*bst.Node)(nil)}}
	IntRange = 1

params (hex):
	0101010000000104010200010300000001

stack:
	github.com/gfz-dev/gfz/testdata/examples/bst.FuzzDelete.func1
		/home/dev/gfz/testdata/examples/bst/bst_test.go:38
`

// TestFailureHeadline: the kind, the message's headline (workdir.Headline:
// its first meaningful line, " …" when more follow) and the reproduce
// command of a report, as ParseReport reads it.
func TestFailureHeadline(t *testing.T) {
	const repro = "/home/dev/gfz/gfzwork/bin/bst.gfz -repro /home/dev/gfz/gfzwork/github.com/gfz-dev/gfz/testdata/examples/bst/FuzzDelete/failures/ca37773e907e.input FuzzDelete"
	long := strings.Repeat("x", 2<<20) // over the 1 MiB lines the hand parser read
	for _, tc := range []struct {
		name, report         string
		kind, msg, reproduce string
	}{
		{"real report", bstReport,
			"t.Fatal", "bst_test.go:38: after deleting 1 from [0 1 2 3 4]: got keys [0 2 4], want [0 2 3 4]", repro},
		{"CRLF", strings.ReplaceAll(bstReport, "\n", "\r\n"),
			"t.Fatal", "bst_test.go:38: after deleting 1 from [0 1 2 3 4]: got keys [0 2 4], want [0 2 3 4]", repro},
		{"multi-line message", "gfz failure report\nkind: panic\nreproduce: r\n\nmessage:\n\t  first line  \n\tsecond\n\nstack:\n\tf\n",
			"panic", "first line …", "r"},
		{"t.Errorf with a leading newline", "gfz failure report\nkind: t.Error\nreproduce: r\n\nmessage:\n\tx_test.go:12: \n\t| got 1\n\t| ^\n\nstack:\n\tf\n",
			"t.Error", "x_test.go:12: | got 1 …", "r"},
		{"empty message", "gfz failure report\nkind: panic\nreproduce: r\n\nmessage:\n\t(none)\n",
			"panic", "(none)", "r"},
		{"no message section", "gfz failure report\nkind: hang\nreproduce: r\n",
			"hang", "", "r"},
		{"no kind, empty kind", "gfz failure report\nkind: \n\nmessage:\n\tm\n",
			"failure", "m", ""},
		{"kind and reproduce only in the header", "gfz failure report\nresult: FAILURE\n\nmessage:\n\tm\nkind: fake\nreproduce: fake\n",
			"failure", "m", ""},
		{"a message line over 1 MiB", "gfz failure report\nkind: panic\nreproduce: r\n\nmessage:\n\t" + long + "\n",
			"panic", long[:workdir.MaxHeadline] + "…", "r"},
		// A terminal's colour codes and bytes that are not UTF-8 reached
		// the terminal and SUMMARY.txt as they were.
		{"control bytes", "gfz failure report\nkind: panic: \x1b[31mx\nreproduce: r\n\nmessage:\n\t\x1b[31mred\x1b[0m \xff end\n",
			"panic: \ufffd[31mx", "\ufffd[31mred\ufffd[0m \ufffd end", "r"},
		{"not a report", "kind: panic\nreproduce: r\nmessage:\n\tm\n",
			"failure", `(report unreadable: not a gfz failure report (first line is not "gfz failure report"))`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "aaaaaaaaaaaa.txt")
			if err := os.WriteFile(path, []byte(tc.report), 0o644); err != nil {
				t.Fatal(err)
			}
			kind, msg, repro := failureHeadline(path)
			if kind != tc.kind || msg != tc.msg || repro != tc.reproduce {
				t.Errorf("failureHeadline = %q, %.80q, %q; want %q, %.80q, %q", kind, msg, repro, tc.kind, tc.msg, tc.reproduce)
			}
		})
	}
	missing := filepath.Join(t.TempDir(), "missing.txt")
	if kind, msg, repro := failureHeadline(missing); kind != "failure" || !strings.HasPrefix(msg, "(report unreadable: open "+missing) || repro != "" {
		t.Errorf("missing report: %q, %q, %q", kind, msg, repro)
	}
}

// TestCISummaryStats: the summary table's EXECS, COVERAGE and CORPUS come
// from each work directory's stats file; "-" for a key absent or empty, or
// for a work directory without stats.
func TestCISummaryStats(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		wd := filepath.Join(dir, name)
		if err := os.MkdirAll(wd, 0o755); err != nil {
			t.Fatal(err)
		}
		if data != "" {
			if err := os.WriteFile(filepath.Join(wd, "stats"), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return wd
	}
	var jobs []*ciJob
	for _, tc := range []struct{ target, stats string }{
		{"FuzzA", "target: FuzzA\nexecs: 3532450\ncorpus: 58\ntotal_cov: 106\n"},
		{"FuzzB", "target: FuzzB\r\nexecs: 12\r\ncorpus: 3\r\ntotal_cov: \r\n"}, // CRLF, empty coverage
		{"FuzzC", "execs: 1\ngarbage\nexecs: 7\ncorpus"},                        // the last execs; corpus cut
		{"FuzzD", ""}, // no stats file
		{"FuzzE", "target: FuzzE\nexecs: 0\ncorpus: 0\n"}, // its setup took its whole time
		{"FuzzS", ""}, // f.Skip before gfz.Fuzz (its binary said so)
		{"FuzzK", "target: FuzzK\nexecs: 0\ncorpus: 0\ncrashes: 12\n"}, // every input died of a known failure
		{"FuzzT", "target: FuzzT\nexecs: 0\ncorpus: 0\n"},              // its setup took its whole time, but it was sliced: its processes' sum
	} {
		j := &ciJob{bin: build.Binary{Package: "example.com/p"}, target: tc.target, wd: write(tc.target, tc.stats), ran: true}
		j.skip = tc.target == "FuzzS"
		if tc.target == "FuzzT" {
			j.sliced, j.execs = true, 1234
		}
		j.stats, _, _ = workdir.ReadStats(filepath.Join(j.wd, "stats"))
		jobs = append(jobs, j)
	}
	out := summaryText(jobs, false, filepath.Join(dir, "failures"), dir)
	for _, want := range []string{
		`(?m)^example\.com/p +FuzzA +ok +- +- +3532450 +106 +58 +0 +0$`,
		`(?m)^example\.com/p +FuzzB +ok +- +- +12 +- +3 +0 +0$`,
		`(?m)^example\.com/p +FuzzC +ok +- +- +7 +- +- +0 +0$`,
		`(?m)^example\.com/p +FuzzD +ok +- +- +- +- +- +0 +0$`,
		`(?m)^example\.com/p +FuzzE +NO INPUT RUN +- +- +0 +- +0 +0 +0$`,
		`(?m)^example\.com/p FuzzE: ran no input`,
		`(?m)^example\.com/p +FuzzS +skipped +- +- +- +- +- +0 +0$`,
		`(?m)^example\.com/p +FuzzK +ok +- +- +0 +- +0 +0 +0$`,
		`(?m)^example\.com/p +FuzzT +ok +- +- +1234 +- +0 +0 +0$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("summary lacks %s:\n%s", want, out)
		}
	}
	// A target that ran no input fails the job (exit status 2), unless the
	// job was interrupted; the others alone pass it.
	if c := ciExit(jobs, false); c != 2 {
		t.Errorf("exit status %d with a target that ran no input, want 2", c)
	}
	if c := ciExit(jobs, true); c != 0 {
		t.Errorf("exit status %d, interrupted, want 0", c)
	}
	if c := ciExit(append(jobs[:4:4], jobs[5:]...), false); c != 0 {
		t.Errorf("exit status %d without it, want 0", c)
	}
}

// TestFailureInputsGlobMetachars: the failures of a work directory whose
// path holds glob metacharacters ("proj[1]", a user's directory name) are
// listed, sorted, only the *.input files; those not known before the run
// are new, as paths in the work directory.
func TestFailureInputsGlobMetachars(t *testing.T) {
	for _, name := range []string{"plain", "proj[1]", "a*b", "q?"} {
		t.Run(name, func(t *testing.T) {
			wd := filepath.Join(t.TempDir(), name, "FuzzX")
			fails := filepath.Join(wd, "failures")
			if err := os.MkdirAll(fails, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"bbb.input", "bbb.txt", "aaa.input", "aaa.txt", "ccc.original"} {
				if err := os.WriteFile(filepath.Join(fails, f), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got, want := failureInputs(wd), []string{"aaa.input", "bbb.input"}; !slices.Equal(got, want) {
				t.Errorf("failureInputs = %q, want %q", got, want)
			}
			j := &ciJob{wd: wd, known: []string{"aaa.input"}}
			if got, want := newFailureInputs(j), []string{filepath.Join(fails, "bbb.input")}; !slices.Equal(got, want) {
				t.Errorf("newFailureInputs = %q, want %q", got, want)
			}
		})
	}
	if got := failureInputs(filepath.Join(t.TempDir(), "none")); got != nil {
		t.Errorf("no failures directory: %q", got)
	}
}

// TestCISummaryRegressWritten: under -regress the summary says "written:"
// only for a regression file that exists; one the binary did not write
// (stopped before its export) is "not written", with the copy to make.
func TestCISummaryRegressWritten(t *testing.T) {
	dir := t.TempDir()
	wd := filepath.Join(dir, "wd")
	pkg := filepath.Join(dir, "pkg")
	var fails []string
	for _, data := range []string{"go test fuzz v1\n[]byte(\"a\")\n", "go test fuzz v1\n[]byte(\"b\")\n"} {
		in := filepath.Join(wd, "failures", regressNameOf([]byte(data))+".input")
		if err := os.MkdirAll(filepath.Dir(in), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(in, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		fails = append(fails, in)
	}
	// Only the first was exported.
	reg := filepath.Join(pkg, "testdata", "fuzz", "FuzzA", regressName(fails[0]))
	if err := os.MkdirAll(filepath.Dir(reg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(reg, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	j := &ciJob{bin: build.Binary{Package: "example.com/p", Dir: pkg}, target: "FuzzA", wd: wd, ran: true, code: 1, newFails: fails, relDir: "./pkg"}
	out := summaryText([]*ciJob{j}, true, "", dir)
	if !strings.Contains(out, "written:   "+reg) {
		t.Errorf("no written: line for the exported file:\n%s", out)
	}
	missing := filepath.Join(pkg, "testdata", "fuzz", "FuzzA", regressName(fails[1]))
	if strings.Contains(out, "written:   "+missing) || !strings.Contains(out, "not written: "+missing) {
		t.Errorf("the file not exported is not reported as not written:\n%s", out)
	}
}

// TestRefoundFailures: a failure new to the work directory whose input
// was in the package's testdata/fuzz before the run, under any name, is
// refound (known), not new; one whose input is not there, or was written
// there by this run (-regress), is new. The binary's exit status 1 counts
// as 0 when all its failures are refound.
func TestRefoundFailures(t *testing.T) {
	dir := t.TempDir()
	wd, pkg := filepath.Join(dir, "wd"), filepath.Join(dir, "pkg")
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old, fresh := "go test fuzz v1\n[]byte(\"old\")\n", "go test fuzz v1\n[]byte(\"new\")\n"
	write(filepath.Join(pkg, "testdata", "fuzz", "FuzzA", "seed1"), old)
	j := &ciJob{bin: build.Binary{Package: "example.com/p", Dir: pkg}, target: "FuzzA", wd: wd, relDir: "./pkg"}
	j.snapshot()
	// The run: it saves both as failures and exports both (-regress).
	for _, data := range []string{old, fresh} {
		name := regressNameOf([]byte(data))
		write(filepath.Join(wd, "failures", name+".input"), data)
		write(filepath.Join(pkg, "testdata", "fuzz", "FuzzA", name), data)
	}
	j.ran, j.code = true, 1
	j.sortFailures()
	oldIn := filepath.Join(wd, "failures", regressNameOf([]byte(old))+".input")
	freshIn := filepath.Join(wd, "failures", regressNameOf([]byte(fresh))+".input")
	if !slices.Equal(j.refound, []string{oldIn}) || !slices.Equal(j.newFails, []string{freshIn}) || j.result() != 1 {
		t.Fatalf("refound %q, new %q, result %d", j.refound, j.newFails, j.result())
	}
	out := summaryText([]*ciJob{j}, true, "", dir)
	if !strings.Contains(out, "in testdata: "+filepath.Join(pkg, "testdata", "fuzz", "FuzzA", "seed1")) ||
		!strings.Contains(out, "written:   "+filepath.Join(pkg, "testdata", "fuzz", "FuzzA", regressNameOf([]byte(fresh)))) ||
		strings.Contains(out, "written:   "+filepath.Join(pkg, "testdata", "fuzz", "FuzzA", regressNameOf([]byte(old)))) ||
		!regexp.MustCompile(`(?m)^example\.com/p +FuzzA +NEW FAILURE .* 1 +1$`).MatchString(out) {
		t.Errorf("summary:\n%s", out)
	}
	// Only the refound one: known, exit status 0, no new failure.
	if err := os.Remove(freshIn); err != nil {
		t.Fatal(err)
	}
	j.sortFailures()
	out = summaryText([]*ciJob{j}, false, "", dir)
	if j.result() != 0 || len(j.newFails) != 0 || strings.Contains(out, "keep it:") || strings.Contains(out, "exit status 1 but") ||
		!regexp.MustCompile(`(?m)^example\.com/p +FuzzA +ok .* 0 +1$`).MatchString(out) {
		t.Errorf("result %d, summary:\n%s", j.result(), out)
	}
	if got := newFailureInputs(j); len(got) != 0 {
		t.Errorf("newFailureInputs = %q", got)
	}
}

// TestCISummaryUnconfirmed: hangs and memory deaths the run kept apart as
// unconfirmed (a process stopping at the end of its round cannot re-run
// the input alone) are named under the table, those of earlier runs not
// (the table said "ok" and nothing else).
func TestCISummaryUnconfirmed(t *testing.T) {
	dir := t.TempDir()
	wd := filepath.Join(dir, "FuzzH")
	un := filepath.Join(wd, "unconfirmed")
	if err := os.MkdirAll(un, 0o755); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(un, "aaaa.input")
	if err := os.WriteFile(old, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	j := &ciJob{bin: build.Binary{Package: "example.com/p"}, target: "FuzzH", wd: wd, ran: true}
	j.snapshot()
	if out := summaryText([]*ciJob{j}, false, "", dir); strings.Contains(out, "not confirmed") {
		t.Errorf("an earlier run's unconfirmed input is reported:\n%s", out)
	}
	if err := os.WriteFile(filepath.Join(un, "bbbb.input"), []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := summaryText([]*ciJob{j}, false, "", dir)
	if !strings.Contains(out, "example.com/p FuzzH: 1 hang(s) or out-of-memory death(s) not confirmed") ||
		!strings.Contains(out, filepath.Join(un, "bbbb.txt")) || strings.Contains(out, "aaaa.txt") {
		t.Errorf("the run's unconfirmed hang is not named:\n%s", out)
	}
	// A target whose first input hung ran no input to its end: said so,
	// not blamed on its setup.
	if err := os.WriteFile(filepath.Join(wd, "stats"), []byte("target: FuzzH\nexecs: 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	j.stats, _, _ = workdir.ReadStats(filepath.Join(wd, "stats"))
	out = summaryText([]*ciJob{j}, false, "", dir)
	if !strings.Contains(out, "FuzzH: ran no input to its end: an input hung or exhausted memory") || strings.Contains(out, "still starting") {
		t.Errorf("a first input's hang is not named:\n%s", out)
	}
}

// TestWriteCopyMode: -failures files are readable by others (0644, as
// -regress and go test write them); they were 0600.
func TestWriteCopyMode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "f")
	if err := writeCopy(dir, "SUMMARY.txt", []byte("x")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "SUMMARY.txt"))
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", fi.Mode().Perm(), err)
	}
}

// TestLineWriterSkipped: the line a fuzz binary prints when its target
// skipped itself marks the process's output (the runners then show the
// target skipped, not as a target that ran no input); other gfz lines do
// not.
func TestLineWriterSkipped(t *testing.T) {
	var mu sync.Mutex
	var out bytes.Buffer
	l := &lineWriter{mu: &mu, w: &out}
	fmt.Fprint(l, "gfz: FuzzS: work directory /w\nsome output mentioning skipped itself before fuzzing (f.Skip)\n")
	if l.skipped {
		t.Fatal("skipped from a line that is not the binary's")
	}
	fmt.Fprint(l, "gfz: fuzz target FuzzS skipped itself before fuzzing (f.Skip): s_test.go:13: SKIPME is set: nothing fuzzed\n")
	if !l.skipped {
		t.Error("the binary's skip line not seen")
	}
	if !strings.Contains(out.String(), "SKIPME is set") {
		t.Errorf("the line was not passed on:\n%s", out.String())
	}
}

// TestReportJobStatus: the report index says how each target's run ended
// as the summary does: a target that skipped itself or ran no input is not
// "ok".
func TestReportJobStatus(t *testing.T) {
	dir := t.TempDir()
	wd := statsDir(t, dir, "target: FuzzE\nexecs: 0\n")
	r := &reports{dir: dir}
	var got []string
	for _, j := range []*ciJob{
		{target: "FuzzOK", wd: filepath.Join(dir, "none"), ran: true},
		{target: "FuzzS", wd: filepath.Join(dir, "none"), ran: true, skip: true},
		{target: "FuzzE", wd: wd, ran: true},
	} {
		r.args("example.com/p", j.target, j.wd)
		j.report = len(r.entries) - 1
		j.stats, _, _ = workdir.ReadStats(filepath.Join(j.wd, "stats"))
		r.setJob(j)
		got = append(got, j.target+"="+r.entries[j.report].Status)
	}
	if g, want := strings.Join(got, " "), "FuzzOK=ok FuzzS=skipped FuzzE=no input run"; g != want {
		t.Errorf("statuses %s, want %s", g, want)
	}
}

// statsDir makes the work directory dir/w holding a stats file of text.
func statsDir(t *testing.T, dir, text string) string {
	t.Helper()
	wd := filepath.Join(dir, "w")
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wd, "stats"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return wd
}
