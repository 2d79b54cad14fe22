package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestPlanCI: the budget is divided in rounds of at most GOMAXPROCS
// worker processes; each round's targets share them, the total being
// GOMAXPROCS; rounds differ by at most one target.
func TestPlanCI(t *testing.T) {
	for _, c := range []struct {
		n, procs, workers int
		total             time.Duration
		rounds            [][]int
		ws                []int
		per               time.Duration
		short             bool
	}{
		{1, 8, 0, time.Minute, [][]int{{0}}, []int{8}, time.Minute, false},
		{3, 8, 0, time.Minute, [][]int{{0, 1, 2}}, []int{3, 3, 2}, time.Minute, false},
		{8, 8, 0, time.Minute, [][]int{{0, 1, 2, 3, 4, 5, 6, 7}}, []int{1, 1, 1, 1, 1, 1, 1, 1}, time.Minute, false},
		{3, 2, 0, 5 * time.Minute, [][]int{{0, 2}, {1}}, []int{1, 2, 1}, 150 * time.Second, false},
		{5, 2, 0, 90 * time.Second, [][]int{{0, 3}, {1, 4}, {2}}, []int{1, 1, 2, 1, 1}, 30 * time.Second, false},
		{4, 8, 3, time.Minute, [][]int{{0, 2}, {1, 3}}, []int{3, 3, 3, 3}, 30 * time.Second, false},
		{2, 2, 4, time.Minute, [][]int{{0}, {1}}, []int{4, 4}, 30 * time.Second, false},
		{40, 2, 0, time.Minute, nil, nil, ciMinTime, true},
		{3, 1, 0, 5 * time.Second, [][]int{{0}, {1}, {2}}, []int{1, 1, 1}, 5 * time.Second, true},
		{2, 2, 0, 0, [][]int{{0, 1}}, []int{1, 1}, 0, false},
	} {
		p := planCI(c.n, c.procs, c.workers, c.total)
		if c.rounds != nil && !slices.EqualFunc(p.rounds, c.rounds, slices.Equal) {
			t.Errorf("%+v: rounds %v, want %v", c, p.rounds, c.rounds)
		}
		if c.ws != nil && !slices.Equal(p.workers, c.ws) {
			t.Errorf("%+v: workers %v, want %v", c, p.workers, c.ws)
		}
		if p.per != c.per || p.short != c.short {
			t.Errorf("%+v: per %v short %v, want %v %v", c, p.per, p.short, c.per, c.short)
		}
		// Every target is in exactly one round; without -workers each
		// round uses all the processes (when it has no more targets).
		seen := map[int]int{}
		for _, r := range p.rounds {
			sum := 0
			for _, i := range r {
				seen[i]++
				sum += p.workers[i]
			}
			if c.workers == 0 && len(r) <= c.procs && sum != c.procs {
				t.Errorf("%+v: round %v uses %d workers, want %d", c, r, sum, c.procs)
			}
		}
		for i := range c.n {
			if seen[i] != 1 {
				t.Errorf("%+v: target %d in %d rounds", c, i, seen[i])
			}
		}
	}
}

// TestCIFlags: -ci's defaults, and its usage errors (exit 2).
func TestCIFlags(t *testing.T) {
	o, code := parse([]string{"-ci"}, io.Discard)
	if o == nil {
		t.Fatalf("-ci: exit %d", code)
	}
	if o.workdir != ciWorkdir || o.keep != ciBin || o.ci.failures != ciFailures || o.ci.total != ciDefaultTime ||
		!slices.Equal(o.build.Patterns, []string{"./..."}) || slices.Contains(o.run, "-time") || slices.Contains(o.run, "-workers") {
		t.Errorf("-ci defaults: %+v", o)
	}
	o, _ = parse([]string{"-ci", "-time", "90s", "-workdir", "w", "-o", "b", "-failures", "f", "-seed", "7", "./x"}, io.Discard)
	if o == nil || o.workdir != "w" || o.keep != "b" || o.ci.failures != "f" || o.ci.total != 90*time.Second || o.ci.seed != 7 ||
		!slices.Equal(o.build.Patterns, []string{"./x"}) {
		t.Errorf("-ci with flags: %+v", o)
	}
	for _, args := range [][]string{
		{"-failures", "f", "."},
		{"-ci", "-workers", "-1"},
		{"-ci", "-time", "5"},
	} {
		var errb bytes.Buffer
		if o, code := parse(args, &errb); o != nil || code != 2 {
			t.Errorf("%q: exit %d, want 2 (stderr %q)", args, code, errb.String())
		}
	}
}

// TestCISetupErrors: an unwritable -workdir (with and without -ci) and a
// package that does not build are setup errors (exit 2), before any
// fuzzing.
func TestCISetupErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"-ci", "-workdir", filepath.Join(file, "w"), "-time", "1s", "."}, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), "give a writable -workdir") {
		t.Errorf("unwritable -workdir: exit %d\nstderr:\n%s", code, errb.String())
	}
	// Without -ci too, in both schedules, before anything is built.
	for _, args := range [][]string{
		{"-workdir", filepath.Join(file, "w"), "-time", "1s", "."},
		{"-workdir", filepath.Join(file, "w"), "-runs", "10", "."},
	} {
		out.Reset()
		errb.Reset()
		if code := run(context.Background(), args, &out, &errb); code != 2 || !strings.Contains(errb.String(), "give a writable -workdir") {
			t.Errorf("%q: exit %d, want 2\nstderr:\n%s", args, code, errb.String())
		}
	}
	if testing.Short() {
		t.Skip("builds a module")
	}
	dir := testmod.BrokenModule(t)
	t.Chdir(dir)
	out.Reset()
	errb.Reset()
	code := run(context.Background(), []string{"-ci", "-time", "2s"}, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "undefined: undefinedThing") || !strings.Contains(errb.String(), "nothing fuzzed") ||
		strings.Contains(out.String(), "PACKAGE") {
		t.Errorf("broken package: exit %d, want 2\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, ciWorkdir, "example.com", "m", "good", "FuzzF")); err == nil {
		t.Errorf("the package that built was fuzzed")
	}
}

// TestCIBinarySetupError: a fuzz binary that exits 2 (here, a refused
// seed file) makes the run's exit status 2, even when another target found
// a new failure; both are in the summary.
func TestCIBinarySetupError(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes a module")
	}
	files := map[string]string{
		"s/s.go":                    "package s\n\nfunc F(n int) int { return n }\n",
		"s/s_test.go":               strings.ReplaceAll(bugModule["p/p_test.go"], "package p", "package s"),
		"s/testdata/fuzz/FuzzF/bad": "go test fuzz v1\nstring(\"x\")\n",
		"go.mod":                    bugModule["go.mod"],
		"p/p.go":                    bugModule["p/p.go"],
		"p/p_test.go":               bugModule["p/p_test.go"],
	}
	files["s/s_test.go"] = strings.ReplaceAll(files["s/s_test.go"], "Check(", "F(")
	t.Chdir(checkout(t, files))
	// Two worker processes, so that 3s runs both targets on a machine with
	// one CPU too (GOMAXPROCS 1 planned one: s "not run").
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-ci", "-time", "3s"}, &out, &errb)
	if code != 2 || !regexp.MustCompile(`(?m)^example\.com/bug/s +FuzzF +error \(exit status 2\)`).MatchString(out.String()) ||
		!regexp.MustCompile(`(?m)^example\.com/bug/p +FuzzF +NEW FAILURE `).MatchString(out.String()) {
		t.Errorf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
}

// The modules the recipes are tried on: one with a bug that the first
// executions find, one without.
var (
	bugModule = map[string]string{
		"go.mod":      "module example.com/bug\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n",
		"p/p.go":      "package p\n\n// Check panics for 3: the planted bug.\nfunc Check(n int) int {\n\tif n == 3 {\n\t\tpanic(\"planted bug\")\n\t}\n\treturn n\n}\n",
		"p/p_test.go": "package p\n\nimport (\n\t\"testing\"\n\n\t\"github.com/gfz-dev/gfz\"\n)\n\nfunc FuzzF(f *testing.F) {\n\tgfz.Fuzz(f, func(t *gfz.T) { Check(int(t.Source().Range(0, 9, 0))) })\n}\n",
	}
	cleanModule = map[string]string{
		"go.mod":      "module example.com/clean\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n",
		"q/q.go":      "package q\n\n// Half halves n.\nfunc Half(n int) int {\n\tif n > 4 {\n\t\treturn n / 2\n\t}\n\treturn n\n}\n",
		"q/q_test.go": "package q\n\nimport (\n\t\"testing\"\n\n\t\"github.com/gfz-dev/gfz\"\n)\n\nfunc FuzzG(f *testing.F) {\n\tgfz.Fuzz(f, func(t *gfz.T) { Half(int(t.Source().Range(0, 9, 0))) })\n}\n",
	}
)

// checkout writes a fresh copy of a module, its gfz requirement replaced
// by this checkout (the library needs no go.sum line: it requires nothing).
func checkout(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	root := testmod.GfzRoot(t)
	m := map[string]string{}
	for k, v := range files {
		m[k] = v
	}
	m["go.mod"] += "\nreplace github.com/gfz-dev/gfz => " + root + "\n"
	testmod.Write(t, dir, m)
	return dir
}

// scriptLines returns a recipe script's commands: its lines but comments
// and blank ones.
func scriptLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}

// githubRunLines returns the commands of a workflow's run: steps (a
// one-line value or a | block).
func githubRunLines(yml string) []string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(yml))
	block := -1 // indentation of the run: key while in a block
	for sc.Scan() {
		l := sc.Text()
		ind := len(l) - len(strings.TrimLeft(l, " "))
		s := strings.TrimSpace(l)
		if block >= 0 {
			if s == "" {
				continue
			}
			if ind > block {
				lines = append(lines, s)
				continue
			}
			block = -1
		}
		key := strings.TrimPrefix(s, "- ")
		if v, ok := strings.CutPrefix(key, "run:"); ok {
			v = strings.TrimSpace(v)
			if v == "|" || v == "|-" {
				block = ind
				continue
			}
			lines = append(lines, v)
		}
	}
	return lines
}

// gitlabScriptLines returns the items of a job's script: list.
func gitlabScriptLines(yml string) []string {
	var lines []string
	in := -1
	for _, l := range strings.Split(yml, "\n") {
		ind := len(l) - len(strings.TrimLeft(l, " "))
		s := strings.TrimSpace(l)
		if s == "" {
			continue
		}
		if in >= 0 {
			if item, ok := strings.CutPrefix(s, "- "); ok && ind >= in {
				lines = append(lines, item)
				continue
			}
			in = -1
		}
		if s == "script:" {
			in = ind
		}
	}
	return lines
}

// TestCIRecipeGitHub runs the GitHub Actions recipe's commands the way
// the workflow does.
func TestCIRecipeGitHub(t *testing.T) {
	testRecipe(t, "github-fuzz.yml", "github.sh", githubRunLines,
		[]string{"path: " + ciWorkdir + "\n", "path: " + ciFailures + "/\n", "if: always()", "if: failure()"}, true)
}

// TestCIRecipeGitLab runs the GitLab CI recipe's commands the way the job
// does.
func TestCIRecipeGitLab(t *testing.T) {
	testRecipe(t, "gitlab-ci.yml", "gitlab.sh", gitlabScriptLines,
		[]string{"- " + ciWorkdir + "/\n", "- " + ciFailures + "/\n", "    when: always\n", "    when: on_failure\n"}, false)
}

var (
	summaryHeader = regexp.MustCompile(`(?m)^PACKAGE +TARGET +RESULT +SHARE +CPU +EXECS +COVERAGE +CORPUS +NEW FAILURES +KNOWN FAILURES$`)
	// The one target has both worker processes, for the budget less the
	// margin for its shutdown.
	oneTarget  = regexp.MustCompile(`-workers 2 -time 4\.[0-9]+s FuzzF\b`)
	goTestLine = regexp.MustCompile(`(?m)^  go test: +go test -run=FuzzF/([0-9a-f]{16}) \./p$`)
)

// testRecipe checks that the YAML runs exactly the script's commands and
// names the cache and artefact directories gfz-run -ci uses (want), then
// runs the script as CI would: on a module with a planted bug (exit 1, the
// failure in the summary and in the artefact directory, and with
// -regress in testdata/fuzz), again on a fresh checkout with the first
// run's cache restored (the failure is known: exit 0, the corpus
// resumed), and on a module without a bug (exit 0).
func testRecipe(t *testing.T, yml, script string, runLines func(string) []string, want []string, replay bool) {
	ciDir, err := filepath.Abs(filepath.Join("..", "..", "docs", "ci"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(ciDir, yml))
	if err != nil {
		t.Fatal(err)
	}
	cmds := scriptLines(t, filepath.Join(ciDir, script))
	if got := runLines(string(data)); len(cmds) == 0 || !slices.Equal(got, cmds) {
		t.Fatalf("%s runs %q; %s has %q", yml, got, script, cmds)
	}
	for _, w := range want {
		if !strings.Contains(string(data), w) {
			t.Errorf("%s lacks %q", yml, w)
		}
	}
	if testing.Short() {
		t.Skip("builds and fuzzes three modules")
	}
	t.Setenv("GOWORK", "off")
	// The recipe runs gfz-run as released (go run ...@VERSION, outside the
	// module); here, the gfz-run of this checkout stands in for it.
	gfzRun, err := testmod.Tool("gfz-run")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(ciDir, script))
	if err != nil {
		t.Fatal(err)
	}
	const released = `go run github.com/gfz-dev/gfz/cmd/gfz-run@"${GFZ_VERSION:-latest}" `
	if !strings.Contains(string(src), released) {
		t.Fatalf("%s does not run %q", script, released)
	}
	local := filepath.Join(t.TempDir(), script)
	if err := os.WriteFile(local, []byte(strings.ReplaceAll(string(src), released, gfzRun+" ")), 0o755); err != nil {
		t.Fatal(err)
	}
	runScript := func(dir string) (int, string) {
		t.Helper()
		cmd := exec.Command("bash", "-e", local)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GFZ_TIME=5s", "GOMAXPROCS=2")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		return code, string(out)
	}

	// First run: the planted bug is a new failure.
	a := checkout(t, bugModule)
	code, out := runScript(a)
	if code != 1 {
		t.Fatalf("first run: exit %d, want 1\n%s", code, out)
	}
	row := regexp.MustCompile(`(?m)^example\.com/bug/p +FuzzF +NEW FAILURE +100\.0% +\S+ +\d+ +\d+ +\d+ +1 +0$`)
	m := goTestLine.FindStringSubmatch(out)
	if !summaryHeader.MatchString(out) || !row.MatchString(out) || m == nil || !oneTarget.MatchString(out) {
		t.Fatalf("first run: summary lacks the table, the new failure or its go test command, or the target did not get both processes and the budget:\n%s", out)
	}
	name := m[1]
	inputs, _ := filepath.Glob(filepath.Join(a, ciWorkdir, "example.com", "bug", "p", "FuzzF", "failures", "*.input"))
	if len(inputs) != 1 {
		t.Fatalf("failures in the cache: %v\n%s", inputs, out)
	}
	saved, _ := os.ReadFile(inputs[0])
	regress, err1 := os.ReadFile(filepath.Join(a, "p", "testdata", "fuzz", "FuzzF", name))
	artefact, err2 := os.ReadFile(filepath.Join(a, ciFailures, "p", "testdata", "fuzz", "FuzzF", name))
	summary, err3 := os.ReadFile(filepath.Join(a, ciFailures, ciSummary))
	if err1 != nil || err2 != nil || err3 != nil || !bytes.Equal(saved, regress) || !bytes.Equal(saved, artefact) {
		t.Fatalf("regression file %v, artefact %v, summary %v; saved %q, regression %q, artefact %q", err1, err2, err3, saved, regress, artefact)
	}
	// The fuzz binary has a dictionary (gfz-build's literals: "planted
	// bug" and the numbers), but FuzzF's values never draw from it: neither
	// -regress nor the artefact writes a testdata/gfzdict file for the input.
	dict, err1 := os.ReadFile(filepath.Join(a, ciWorkdir, "example.com", "bug", "p", "FuzzF", "dictionary"))
	_, err2 = os.Stat(filepath.Join(a, "p", "testdata", "gfzdict", "FuzzF", name))
	_, err3 = os.Stat(filepath.Join(a, ciFailures, "p", "testdata", "gfzdict", "FuzzF", name))
	if err1 != nil || !strings.Contains(string(dict), "\"planted bug\"\n") || !errors.Is(err2, fs.ErrNotExist) || !errors.Is(err3, fs.ErrNotExist) {
		t.Errorf("dictionary: work directory %v (%q); -regress's gfzdict file %v, the artefact's %v: want none", err1, dict, err2, err3)
	}
	if !summaryHeader.Match(summary) || !row.Match(summary) || !strings.Contains(string(summary), "planted bug") {
		t.Errorf("%s:\n%s", ciSummary, summary)
	}
	if replay {
		// The summary's go test command replays the failure with plain
		// go test.
		cmd := exec.Command("go", "test", "-run=FuzzF/"+name, "./p")
		cmd.Dir = a
		b, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(b), "planted bug") {
			t.Errorf("go test -run=FuzzF/%s ./p: %v, want exit status 1 and the panic\n%s", name, err, b)
		}
	}

	// The CI cache saves the work directories; a later job on a fresh
	// checkout restores them. The failure is known: exit 0.
	store := filepath.Join(t.TempDir(), "cache")
	if err := os.CopyFS(store, os.DirFS(filepath.Join(a, ciWorkdir))); err != nil {
		t.Fatal(err)
	}
	b := checkout(t, bugModule)
	if err := os.CopyFS(filepath.Join(b, ciWorkdir), os.DirFS(store)); err != nil {
		t.Fatal(err)
	}
	code, out = runScript(b)
	known := regexp.MustCompile(`(?m)^example\.com/bug/p +FuzzF +ok +100\.0% +\S+ +\d+ +\d+ +\d+ +0 +1$`)
	if code != 0 || !known.MatchString(out) || !strings.Contains(out, "resuming from") || !strings.Contains(out, "1 failure(s) known from earlier runs") {
		t.Fatalf("run on the restored cache: exit %d, want 0 with the failure known and the corpus resumed\n%s", code, out)
	}
	if left, _ := filepath.Glob(filepath.Join(b, "p", "testdata", "fuzz", "FuzzF", "*")); len(left) != 0 {
		t.Errorf("a known failure was written to testdata: %v", left)
	}

	// A module without a bug: exit 0.
	c := checkout(t, cleanModule)
	code, out = runScript(c)
	clean := regexp.MustCompile(`(?m)^example\.com/clean/q +FuzzG +ok +100\.0% +\S+ +\d+ +\d+ +\d+ +0 +0$`)
	if code != 0 || !clean.MatchString(out) {
		t.Fatalf("clean module: exit %d, want 0\n%s", code, out)
	}
	if entries, _ := os.ReadDir(filepath.Join(c, ciFailures)); len(entries) != 1 || entries[0].Name() != ciSummary {
		t.Errorf("clean module: %s holds %v, want only %s", ciFailures, entries, ciSummary)
	}
}

// TestCIRecipeDocs: docs/ci/README.md shows each recipe file verbatim.
func TestCIRecipeDocs(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "ci")
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ name, lang string }{
		{"github-fuzz.yml", "yaml"}, {"github.sh", "sh"}, {"gitlab-ci.yml", "yaml"}, {"gitlab.sh", "sh"},
	} {
		data, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			t.Fatal(err)
		}
		if block := "```" + f.lang + "\n" + string(data) + "```\n"; !strings.Contains(string(readme), block) {
			t.Errorf("docs/ci/README.md does not show %s verbatim", f.name)
		}
	}
}

// TestCommittedFailureKnown: a failure whose regression input was already
// in the package's testdata/fuzz before the run (committed; found again
// here from a fresh work directory, as from a CI job without its cache)
// is known, not new: not "written" nor "keep it", not NEW FAILURE, counted
// under KNOWN FAILURES, and the exit status is 0, with -ci (its shared
// schedule and its rounds) and without.
func TestCommittedFailureKnown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes a module")
	}
	t.Chdir(checkout(t, bugModule))
	var out, errb bytes.Buffer
	// The first run finds the bug and writes its regression file.
	if code := run(context.Background(), []string{"-ci", "-runs", "3000", "-workers", "1", "-workdir", t.TempDir(), "-regress", "./p"}, &out, &errb); code != 1 ||
		!strings.Contains(out.String(), "written:") {
		t.Fatalf("first run: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	reg, _ := filepath.Glob(filepath.Join("p", "testdata", "fuzz", "FuzzF", "*"))
	if len(reg) != 1 {
		t.Fatalf("regression files %v, want one", reg)
	}
	abs, _ := filepath.Abs(reg[0])
	for _, args := range [][]string{
		{"-ci", "-time", "2s", "-regress"},
		{"-ci", "-runs", "3000", "-regress"},
		{"-time", "2s"},
		{"-runs", "3000"},
	} {
		out.Reset()
		errb.Reset()
		code := run(context.Background(), append(args, "-workers", "1", "-workdir", t.TempDir(), "./p"), &out, &errb)
		all := out.String() + errb.String()
		if code != 0 || regexp.MustCompile(`FuzzF +NEW FAILURE`).MatchString(all) || strings.Contains(all, "written:") || strings.Contains(all, "keep it:") ||
			strings.Contains(all, "new failure(s):") || !strings.Contains(all, abs) {
			t.Errorf("%q: exit %d, want 0 and the failure known\nstdout:\n%s\nstderr:\n%s", args, code, out.String(), errb.String())
		}
		if args[1] == "-time" && !regexp.MustCompile(`(?m)^example\.com/bug/p +FuzzF +ok .* 0 +1$`).MatchString(out.String()) {
			t.Errorf("%q: the row does not count the failure as known:\n%s", args, out.String())
		}
	}
}
