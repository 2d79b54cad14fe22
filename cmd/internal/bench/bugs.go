package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gfz-dev/gfz/cmd/internal/build"
	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// Bug mode: gfz-bench -bugs DIR runs every contender on the real-bug suite
// (testdata/bugs, see its README.md) and measures, per bug and contender
// over repeated runs, whether and when the bug was triggered (its module's
// IsBug oracle accepted a failure's stack), when the buggy function was
// first reached, which other crashes were found, and the coverage of the
// buggy package over time.
//
// Contenders:
//   - gfz-<engine> for every engine registered in internal/engine
//     (engine.Engines()), on the module's FuzzGfz, one worker, -seed rep+1;
//   - gfz-native: gfz on the module's FuzzNative, the unmodified f.Fuzz
//     target (gfz-build compiles it as a gfz target), with gfz's default
//     engine for native targets, one worker, -seed rep+1: the same seeds
//     (f.Add and testdata/fuzz) and target as native, gfz's engine;
//   - native: go test -fuzz=FuzzNative (a go test -c -fuzz binary,
//     -test.parallel 1); Go's fuzzer takes no seed, so its repetitions
//     differ by chance only;
//   - go-fuzz: github.com/dvyukov/go-fuzz on FuzzGfz through the plain copy
//     (see plain.go); go-fuzz cannot run a native f.Fuzz target, which
//     needs a Fuzz(data []byte) int written by hand.

// Bug-mode contender names besides gfz-<engine>.
const (
	BugNative    = Native
	BugGoFuzz    = GoFuzz
	BugGfzNative = "gfz-native" // gfz on FuzzNative, its default engine
)

// BugContenders lists the bug-mode contenders: gfz with every registered
// engine, gfz on the native target, then native and go-fuzz.
func BugContenders() []string {
	var cs []string
	for _, e := range engine.Engines() {
		if "gfz-"+e != BugGfzNative {
			cs = append(cs, "gfz-"+e)
		}
	}
	return append(cs, BugGfzNative, BugNative, BugGoFuzz)
}

// ParseBugContender accepts a contender name or a bare engine name
// ("zest" for "gfz-zest") and returns the contender name.
func ParseBugContender(s string) (string, error) {
	all := BugContenders()
	if slices.Contains(all, s) {
		return s, nil
	}
	if slices.Contains(all, "gfz-"+s) {
		return "gfz-" + s, nil
	}
	return "", fmt.Errorf("unknown contender %q (want some of %s; a bare engine name such as zest means gfz-zest)", s, strings.Join(all, ","))
}

// BugConfig configures RunBugs.
type BugConfig struct {
	Root       string        // gfz repository root; default "."
	BugsDir    string        // the suite, e.g. testdata/bugs
	Bugs       []string      // bug directories to run (default: all)
	Contenders []string      // default: gfz-zest, gfz-random, gfz-native, native
	Reps       int           // runs per bug and contender; default 5
	Time       time.Duration // time budget per run; default 5m
	// Results is the JSON-lines file receiving one BugRun per finished
	// run. Runs already in it (same bug, contender, repetition and
	// budget) are not run again: an interrupted evaluation resumes.
	Results   string
	Work      string // scratch directory, kept; default a temporary directory, removed
	KeepGoing bool   // run the whole budget after the bug was triggered (coverage curves over the full budget)
	GoFuzzBin string // directory holding go-fuzz and go-fuzz-build; default: go install them into Work
	Log       io.Writer
	Command   string
}

// BugRun is the outcome of one run of one contender on one bug: one line
// of the results file.
type BugRun struct {
	Bug       string
	Contender string
	Rep       int       // 0-based
	Seed      int64     // gfz's -seed (0: the contender takes none)
	BudgetS   float64   // the time budget in seconds
	Start     time.Time // when the run started
	Machine   string
	Command   string `json:",omitempty"`

	Found      bool    // the oracle accepted a failure of this run
	TimeToBugS float64 // seconds from the start to the first failure the oracle accepted; -1 if not found
	FoundExec  int64   `json:",omitempty"` // executions to it (gfz only; 0 unknown)
	// Reached: some input of the run executed the buggy function (the
	// function of the oracle's site), judged by replaying the run's corpus
	// in the order it was saved; TimeToReachS is when the first such input
	// was saved (at most TimeToBugS), -1 if never.
	Reached      bool
	TimeToReachS float64
	Others       []OtherCrash `json:",omitempty"` // failures the oracle rejected

	WallS float64
	Execs int64 // -1 unknown

	CoverPkg     string      // the buggy package, whose statements are counted
	TotalStmts   int         // its statements
	CoveredStmts int         // covered by the run's final corpus
	Coverage     []CovSample `json:",omitempty"` // covered statements over time
	Note         string      `json:",omitempty"` // what could not be measured
	Err          string      `json:",omitempty"` // the run failed: left out of the tables
}

// OtherCrash is a failure that the oracle did not recognise as the bug.
type OtherCrash struct {
	TimeS float64
	Title string // first line of the report or the panic message
	File  string `json:",omitempty"` // the saved report (in the scratch directory)
}

// CovSample is the coverage of the inputs saved up to time T.
type CovSample struct {
	T     float64
	Stmts int
}

func (c *BugConfig) defaults() {
	if c.Root == "" {
		c.Root = "."
	}
	if len(c.Contenders) == 0 {
		c.Contenders = []string{"gfz-zest", "gfz-random", BugGfzNative, BugNative}
	}
	if c.Reps <= 0 {
		c.Reps = 5
	}
	if c.Time <= 0 {
		c.Time = 5 * time.Minute
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}

// FindBugs lists the bug modules of the suite: the directories holding a
// go.mod and a bug.go (bugkit, the shared module, has none).
func FindBugs(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("bug suite: %w", err)
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		_, err1 := os.Stat(filepath.Join(dir, e.Name(), "go.mod"))
		_, err2 := os.Stat(filepath.Join(dir, e.Name(), "bug.go"))
		if err1 == nil && err2 == nil {
			out = append(out, e.Name())
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("bug suite: no bug modules (directories with go.mod and bug.go) in %s", dir)
	}
	return out, nil
}

// bugPrep holds what was built for one bug.
type bugPrep struct {
	name    string
	dir     string // the bug module
	work    string
	gfzBin  string // FuzzGfz's binary (every gfz-ENGINE contender)
	gfzNat  string // FuzzNative's gfz binary (gfz-native), built without the harness
	native  string
	oracle  *oracle
	plain   *plainCopy
	goFuzz  string // go-fuzz zip
	unavail map[string]string
}

type bugRunner struct {
	cfg      BugConfig
	gfzBuild string
	machine  string
	goFuzzOK error
}

func (r *bugRunner) logf(format string, args ...any) {
	fmt.Fprintf(r.cfg.Log, "gfz-bench: "+format+"\n", args...)
}

// bugModulesOutsideWorkspace sets GOWORK=off for this process unless
// GOWORK is set: every bug is a nested module of its own, which the go
// command refuses as "not in the main module" when it finds the
// checkout's go.work above it (gfz-bench run from a gfz checkout). The
// commands that need the workspace (building gfz-build from the
// checkout) set GOWORK explicitly.
func bugModulesOutsideWorkspace() {
	if os.Getenv("GOWORK") == "" {
		os.Setenv("GOWORK", "off")
	}
}

// RunBugs runs the bug evaluation; every finished run is appended to
// cfg.Results at once. It returns every run of the results file, the
// earlier ones included.
func RunBugs(ctx context.Context, cfg BugConfig) ([]BugRun, error) {
	cfg.defaults()
	if cfg.Results == "" {
		return nil, fmt.Errorf("bench: bug mode needs a results file (-results FILE.jsonl)")
	}
	for i, c := range cfg.Contenders {
		n, err := ParseBugContender(c)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		cfg.Contenders[i] = n
	}
	bugModulesOutsideWorkspace()
	var err error
	if cfg.Root, err = filepath.Abs(cfg.Root); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if cfg.BugsDir, err = filepath.Abs(cfg.BugsDir); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	all, err := FindBugs(cfg.BugsDir)
	if err != nil {
		return nil, err
	}
	bugs := all
	if len(cfg.Bugs) > 0 {
		bugs = nil
		for _, b := range cfg.Bugs {
			if !slices.Contains(all, b) {
				return nil, fmt.Errorf("bench: no bug %q in %s (have %s)", b, cfg.BugsDir, strings.Join(all, ", "))
			}
			bugs = append(bugs, b)
		}
	}
	if cfg.Work == "" {
		w, err := os.MkdirTemp("", "gfz-bench-bugs-")
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		defer os.RemoveAll(w)
		cfg.Work = w
	}
	if cfg.Work, err = filepath.Abs(cfg.Work); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	store := &runStore{path: cfg.Results}
	done, err := store.load()
	if err != nil {
		return nil, err
	}
	r := &bugRunner{cfg: cfg, machine: machine()}
	key := func(b, c string, rep int) string { return runKey(b, c, rep, cfg.Time.Seconds()) }
	todo := func(b string) bool {
		for _, c := range cfg.Contenders {
			for rep := range cfg.Reps {
				if !done[key(b, c, rep)] {
					return true
				}
			}
		}
		return false
	}
	preps := map[string]*bugPrep{}
	for _, b := range bugs {
		if !todo(b) {
			r.logf("%s: every run already in %s", b, cfg.Results)
			continue
		}
		p, err := r.prepare(ctx, b)
		if err != nil {
			return nil, err
		}
		preps[b] = p
	}
	for rep := range cfg.Reps {
		for _, b := range bugs {
			p := preps[b]
			if p == nil {
				continue
			}
			n := len(cfg.Contenders)
			for j := range n {
				// Alternate: each repetition starts with the next contender.
				c := cfg.Contenders[(rep+j)%n]
				if done[key(b, c, rep)] {
					continue
				}
				if why := p.unavail[c]; why != "" {
					r.logf("%s %s: unavailable: %s", b, c, why)
					continue
				}
				run := r.runBug(ctx, p, c, rep)
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("bench: interrupted; finished runs are in %s: %w", cfg.Results, err)
				}
				r.logf("%s %s rep %d: %s", b, c, rep+1, run.summary())
				if err := store.add(run); err != nil {
					return nil, err
				}
			}
		}
	}
	if _, err := os.Stat(cfg.Results); errors.Is(err, os.ErrNotExist) {
		return nil, nil // nothing ran (every contender unavailable)
	}
	return ReadBugRuns(cfg.Results)
}

// moduleDictionary returns the dictionary gfz-build links into the fuzz
// binary of the package in dir (the literals of the packages it
// instruments).
func moduleDictionary(ctx context.Context, dir string) ([]string, error) {
	var log bytes.Buffer
	prep, err := build.Prepare(ctx, build.Options{Patterns: []string{"."}, Dir: dir, Stdout: &log, Stderr: &log})
	if err != nil {
		return nil, fmt.Errorf("collect the dictionary: %w\n%s", err, log.String())
	}
	defer prep.Cleanup()
	return prep.Dictionary, nil
}

// prepare builds every contender and the oracle for one bug.
func (r *bugRunner) prepare(ctx context.Context, name string) (*bugPrep, error) {
	p := &bugPrep{name: name, dir: filepath.Join(r.cfg.BugsDir, name), work: filepath.Join(r.cfg.Work, "bugs", name), unavail: map[string]string{}}
	if err := os.MkdirAll(p.work, 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	r.logf("preparing %s", name)
	var err error
	dict, err := moduleDictionary(ctx, p.dir)
	if err != nil {
		return nil, fmt.Errorf("bench: bug %s: %w", name, err)
	}
	if p.oracle, err = buildOracle(ctx, p.dir, p.work, dict); err != nil {
		return nil, fmt.Errorf("bench: bug %s: %w", name, err)
	}
	has := func(pred func(string) bool) bool { return slices.ContainsFunc(r.cfg.Contenders, pred) }
	isGfz := func(c string) bool { return strings.HasPrefix(c, "gfz-") }
	off := func(why string, pred func(string) bool) {
		for _, c := range r.cfg.Contenders {
			if pred(c) {
				p.unavail[c] = oneLine(lastLines([]byte(why), 3))
			}
		}
	}
	if has(isGfz) {
		if err := r.buildGfzBuild(ctx); err != nil {
			return nil, err
		}
		isNativeGfz := func(c string) bool { return c == BugGfzNative }
		isEngine := func(c string) bool { return isGfz(c) && !isNativeGfz(c) }
		if has(isEngine) {
			p.gfzBin = filepath.Join(p.work, "gfz.bin")
			if out, err := r.runGfzBuild(ctx, p.dir, "-o", p.gfzBin, "."); err != nil {
				off(fmt.Sprintf("gfz-build failed: %v\n%s", err, out), isEngine)
			}
		}
		if has(isNativeGfz) {
			p.gfzNat = filepath.Join(p.work, "gfz-native.bin")
			if out, err := r.runGfzBuild(ctx, p.dir, "-skip", harnessPackages, "-o", p.gfzNat, "."); err != nil {
				off(fmt.Sprintf("gfz-build failed: %v\n%s", err, out), isNativeGfz)
			}
		}
	}
	if has(func(c string) bool { return c == BugNative }) {
		p.native = filepath.Join(p.work, "native.test")
		if out, err := goCmd(ctx, p.dir, "test", "-c", "-fuzz=^FuzzNative$", "-o", p.native, "."); err != nil {
			off(fmt.Sprintf("go test -c -fuzz failed: %v\n%s", err, out), func(c string) bool { return c == BugNative })
		}
	}
	if has(func(c string) bool { return c == BugGoFuzz }) {
		isGF := func(c string) bool { return c == BugGoFuzz }
		if err := r.installGoFuzz(ctx); err != nil {
			off(err.Error(), isGF)
		} else if p.plain, err = makePlainCopy(ctx, p.dir, r.cfg.Root, filepath.Join(p.work, "plain"), []string{"FuzzGfz"}, nil, r.logf); err != nil {
			off("plain copy: "+err.Error(), isGF)
		} else {
			p.goFuzz = filepath.Join(p.work, "gofuzz.zip")
			if err := goFuzzBuild(ctx, r.cfg.GoFuzzBin, p.plain.Dir, p.plain.PkgPath, "FuzzGfzBench_FuzzGfz", p.goFuzz); err != nil {
				off(err.Error(), isGF)
			}
		}
	}
	return p, nil
}

// buildGfzBuild builds cmd/gfz-build once: it must run inside each nested
// bug module (from the repository root it refuses another module's
// directory).
func (r *bugRunner) buildGfzBuild(ctx context.Context) error {
	if r.gfzBuild != "" {
		return nil
	}
	bin := filepath.Join(r.cfg.Work, "gfz-build")
	root, err := filepath.Abs(r.cfg.Root)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	work := "GOWORK=" + filepath.Join(root, "go.work") // the tools module needs the library beside it
	if out, err := goCmdEnv(ctx, r.cfg.Root, []string{work}, "build", "-o", bin, "./cmd/gfz-build"); err != nil {
		return fmt.Errorf("bench: build gfz-build: %w\n%s", err, out)
	}
	r.gfzBuild = bin
	return nil
}

func (r *bugRunner) installGoFuzz(ctx context.Context) error {
	if r.goFuzzOK != nil || r.cfg.GoFuzzBin != "" {
		return r.goFuzzOK
	}
	rr := &runner{cfg: Config{Work: r.cfg.Work, Log: r.cfg.Log}}
	r.goFuzzOK = rr.installGoFuzz(ctx)
	r.cfg.GoFuzzBin = rr.cfg.GoFuzzBin
	return r.goFuzzOK
}

// runBug runs contender c on bug p once, then measures its corpus.
func (r *bugRunner) runBug(ctx context.Context, p *bugPrep, c string, rep int) BugRun {
	run := BugRun{Bug: p.name, Contender: c, Rep: rep, BudgetS: r.cfg.Time.Seconds(), Machine: r.machine,
		Command: r.cfg.Command, TimeToBugS: -1, TimeToReachS: -1, Execs: -1}
	dir := filepath.Join(r.cfg.Work, "runs", fmt.Sprintf("%s.%s.%d", p.name, c, rep))
	if err := os.RemoveAll(dir); err != nil {
		run.Err = err.Error()
		return run
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		run.Err = err.Error()
		return run
	}
	if err := copyDir(filepath.Join(p.dir, "testdata"), filepath.Join(dir, "testdata")); err != nil {
		run.Err = err.Error()
		return run
	}
	var corpus *corpusSpec
	var err error
	run.Start = time.Now()
	switch {
	case strings.HasPrefix(c, "gfz-"):
		run.Seed = int64(rep + 1)
		corpus, err = r.runGfz(ctx, p, c, dir, &run)
	case c == BugNative:
		corpus, err = r.runNative(ctx, p, dir, &run)
	case c == BugGoFuzz:
		corpus, err = r.runGoFuzz(ctx, p, dir, &run)
	default:
		err = fmt.Errorf("unknown contender %s", c)
	}
	run.WallS = time.Since(run.Start).Seconds()
	if err != nil {
		run.Err = err.Error()
		return run
	}
	if corpus != nil {
		r.measure(ctx, p, dir, corpus, &run)
	}
	return run
}

// classify runs the oracle on new failure reports and records them: the
// first accepted one sets Found and TimeToBugS; the others are other
// crashes. at gives a report's time from the start of the run.
func (r *bugRunner) classify(ctx context.Context, p *bugPrep, run *BugRun, reports []string, at func(string) float64) error {
	if len(reports) == 0 {
		return nil
	}
	verdicts, err := p.oracle.classify(ctx, reports)
	if err != nil {
		return err
	}
	for _, f := range reports {
		t := at(f)
		if verdicts[f] {
			if !run.Found || t < run.TimeToBugS {
				run.Found, run.TimeToBugS = true, t
			}
			continue
		}
		run.Others = append(run.Others, OtherCrash{TimeS: t, Title: reportTitle(f), File: f})
	}
	slices.SortFunc(run.Others, func(a, b OtherCrash) int {
		switch {
		case a.TimeS < b.TimeS:
			return -1
		case a.TimeS > b.TimeS:
			return 1
		}
		return 0
	})
	return nil
}

// reportTitle is a one-line description of a failure report: for a gfz
// report its crash group ("panic: ... at pkg.Func file.go:N"); for a
// traceback its panic message and the first frame below the last panic
// outside the runtime; "not reproduced by plain go test" when a replayed
// crasher passed; else its first non-empty line.
func reportTitle(file string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	lines := strings.Split(string(b), "\n")
	for _, l := range lines {
		if g, ok := strings.CutPrefix(l, "group: "); ok {
			if _, rest, ok := strings.Cut(g, " ("); ok {
				return truncate(strings.TrimSuffix(rest, ")"), 160)
			}
		}
	}
	msg, at := "", ""
	for i, l := range lines {
		switch {
		case msg == "" && (strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ")):
			// Normalised as gfz's signatures are (numbers, quoted
			// text), so that a replayed native crasher or a go-fuzz
			// report groups with the same crash found again.
			kind, text, _ := strings.Cut(strings.TrimSuffix(strings.TrimSuffix(l, " [recovered, repanicked]"), " [recovered]"), ": ")
			msg = kind + ": " + signature.NormalizeMessage(text)
		case strings.HasPrefix(l, "panic(") || strings.HasPrefix(l, "panic({"):
			at = ""
			for k := i + 1; k+1 < len(lines); k++ {
				f := lines[k]
				if f == "" || strings.HasPrefix(f, "\t") || strings.HasPrefix(f, "runtime.") {
					continue
				}
				if j := strings.LastIndexByte(f, '('); j > 0 {
					f = f[:j]
				}
				fl := strings.Fields(strings.TrimSpace(lines[k+1]))
				if len(fl) > 0 {
					at = f + " " + filepath.Base(fl[0])
				}
				break
			}
		}
	}
	if msg != "" {
		if at != "" && !strings.Contains(msg, "test timed out") {
			msg += " at " + at
		}
		return truncate(msg, 160)
	}
	for _, l := range lines {
		if strings.TrimSpace(l) == "PASS" {
			return "not reproduced by plain go test (the crasher passes)"
		}
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			return truncate(l, 160)
		}
	}
	return "empty report"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// sinceStart is a file's modification time in seconds from start
// (clamped at 0).
func sinceStart(start time.Time) func(string) float64 {
	return func(f string) float64 {
		fi, err := os.Stat(f)
		if err != nil {
			return time.Since(start).Seconds()
		}
		return max(0, fi.ModTime().Sub(start).Seconds())
	}
}

// foundSince is sinceStart for gfz failure reports: the time of the
// report's "found at" line, when the failure was first saved; shrinking
// rewrites the report later, which would move its modification time (as
// native's time is that of the fuzzer's first line about the failure,
// before its minimisation).
func foundSince(start time.Time) func(string) float64 {
	mtime := sinceStart(start)
	return func(f string) float64 {
		if b, err := os.ReadFile(f); err == nil {
			if rep, err := workdir.ParseReport(b); err == nil {
				if t, ok := rep.FoundAt(); ok {
					return max(0, t.Sub(start).Seconds())
				}
			}
		}
		return mtime(f)
	}
}

// newFiles returns the files matching pattern that are not in seen, and
// adds them to seen.
func newFiles(pattern string, seen map[string]bool) []string {
	m, _ := workdir.Glob(pattern)
	var out []string
	for _, f := range m {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// harnessPackages are the packages of the suite's shared module (the
// oracles' helpers and the grammar generators of the FuzzGfz targets).
// gfz-native's binary leaves them uninstrumented: FuzzNative never runs
// them, and their literals, in the dictionary of an instrumented
// package, would give the native target tokens of grammars written for
// the suite's bugs, which a user's native target does not have.
const harnessPackages = "example.com/bugkit/..."

// runGfzBuild runs gfz-build in dir, outside any workspace.
func (r *bugRunner) runGfzBuild(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, r.gfzBuild, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), noWorkspace(nil)...)
	return cmd.CombinedOutput()
}

// runGfz runs a gfz binary: with engine c on FuzzGfz, or for gfz-native
// with the native target's default engine on FuzzNative (its own binary,
// harnessPackages uninstrumented).
func (r *bugRunner) runGfz(ctx context.Context, p *bugPrep, c, dir string, run *BugRun) (*corpusSpec, error) {
	wd := filepath.Join(dir, "wd")
	target, bin := "FuzzGfz", p.gfzBin
	var args []string
	if c == BugGfzNative {
		target, bin = "FuzzNative", p.gfzNat
	} else {
		args = []string{"-engine", strings.TrimPrefix(c, "gfz-")}
	}
	args = append(args, "-seed", strconv.FormatInt(run.Seed, 10),
		"-workdir", wd, "-workers", "1", "-time", r.cfg.Time.String(), target)
	reports := filepath.Join(wd, "failures", "*.txt")
	seen := map[string]bool{}
	at := foundSince(run.Start)
	var cerr error
	pr := (&proc{dir: dir, path: bin, args: args, log: filepath.Join(dir, "log"),
		stopAt: r.cfg.Time + grace, keepGoing: r.cfg.KeepGoing,
		found: func() bool {
			if err := r.classify(ctx, p, run, newFiles(reports, seen), at); err != nil && cerr == nil {
				cerr = err
			}
			return run.Found
		},
	}).run(ctx)
	if pr.err != nil {
		return nil, pr.err
	}
	if err := r.classify(ctx, p, run, newFiles(reports, seen), at); err != nil && cerr == nil {
		cerr = err
	}
	if cerr != nil {
		return nil, cerr
	}
	st := readStats(filepath.Join(wd, "stats"))
	if v, ok := st["execs"]; ok {
		run.Execs = int64(v)
	}
	if run.Found {
		// The accepted report's execution count.
		var accepted []string
		for f := range seen {
			if !slices.ContainsFunc(run.Others, func(o OtherCrash) bool { return o.File == f }) {
				accepted = append(accepted, f)
			}
		}
		run.FoundExec = max(0, firstFoundExec(accepted))
	}
	if len(seen) == 0 && pr.exit != 0 {
		b, _ := os.ReadFile(filepath.Join(dir, "log"))
		return nil, fmt.Errorf("gfz exited with status %d and no failure report: %s", pr.exit, oneLine(lastLines(b, 3)))
	}
	// A native target's corpus files are in go test's format, which the
	// replay of FuzzNative reads as they are.
	// gfz's own generator target decodes its inputs with the dictionary
	// gfz-build linked in; the replay must too.
	return &corpusSpec{dir: filepath.Join(wd, "corpus"), target: target, dict: target == "FuzzGfz"}, nil
}

// runNative runs go test -fuzz=FuzzNative. Go's fuzzer stops at its first
// failure; when the oracle rejects it (another crash) and budget is left,
// the crasher is moved aside and the fuzzer restarted on the same cache
// directory (so its corpus carries over), as a developer would go on.
func (r *bugRunner) runNative(ctx context.Context, p *bugPrep, dir string, run *BugRun) (*corpusSpec, error) {
	cache := filepath.Join(dir, "cache")
	crashDir := filepath.Join(dir, "testdata", "fuzz", "FuzzNative")
	aside := filepath.Join(dir, "crashers")
	if err := os.MkdirAll(aside, 0o755); err != nil {
		return nil, fmt.Errorf("native: %w", err)
	}
	own := map[string]bool{} // the module's own testdata/fuzz/FuzzNative files
	if m, _ := workdir.Glob(filepath.Join(crashDir, "*")); len(m) > 0 {
		for _, f := range m {
			own[filepath.Base(f)] = true
		}
	}
	var execs int64
	for seg := 0; ; seg++ {
		elapsed := time.Since(run.Start)
		left := r.cfg.Time - elapsed
		if left < time.Second || ctx.Err() != nil {
			break
		}
		var rt rateTracker
		var failAt time.Duration = -1
		var lastExecs int64
		var grewAt time.Duration
		pr := (&proc{dir: dir, path: p.native, log: filepath.Join(dir, fmt.Sprintf("log.%d", seg)),
			args: []string{"-test.run=^$", "-test.fuzz=^FuzzNative$", "-test.parallel=1",
				"-test.fuzzcachedir=" + cache, "-test.fuzztime=" + left.Round(time.Millisecond).String()},
			stopAt: left + grace/2,
			onLine: func(l string, at time.Duration) {
				rt.line(l, at)
				if rt.execs > lastExecs {
					lastExecs, grewAt = rt.execs, at
				}
				if failAt < 0 && (strings.Contains(l, "minimizing") || strings.HasPrefix(l, "--- FAIL") || strings.Contains(l, "failure while testing seed corpus")) {
					failAt = at
				}
			},
		}).run(ctx)
		if pr.err != nil {
			return nil, pr.err
		}
		execs += rt.execs
		if rt.n > 0 && pr.wall-grewAt > 10*time.Second {
			run.Note = strings.TrimSpace(run.Note + fmt.Sprintf(" go test -fuzz stalled from %.0fs to %.0fs (no new executions: an input hangs, and Go's fuzzer has no per-input timeout).",
				(elapsed+grewAt).Seconds(), (elapsed+pr.wall).Seconds()))
		}
		// New crashers (every file but the module's own: the earlier
		// ones were moved aside, and the same crasher found again has
		// the same name): replay each with the oracle binary (plain go
		// test prints an unindented traceback, which the oracle reads).
		ents, _ := os.ReadDir(crashDir)
		var reports []string
		for _, e := range ents {
			if own[e.Name()] || e.IsDir() {
				continue
			}
			name := fmt.Sprintf("%d.%s", seg, e.Name())
			rep, err := p.oracle.replayCrasher(ctx, dir, "FuzzNative", e.Name(), filepath.Join(aside, name+".output"))
			if err != nil {
				return nil, fmt.Errorf("native: %w", err)
			}
			if err := os.Rename(filepath.Join(crashDir, e.Name()), filepath.Join(aside, name)); err != nil {
				return nil, fmt.Errorf("native: move crasher aside: %w", err)
			}
			reports = append(reports, rep)
		}
		t := (elapsed + failAt).Seconds()
		if failAt < 0 {
			t = (elapsed + pr.wall).Seconds()
		}
		if err := r.classify(ctx, p, run, reports, func(string) float64 { return t }); err != nil {
			return nil, err
		}
		if pr.exit == 0 || len(reports) == 0 {
			if pr.exit != 0 && ctx.Err() == nil {
				b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("log.%d", seg)))
				if rt.n == 0 && seg == 0 {
					return nil, fmt.Errorf("go test -fuzz exited with status %d and no crasher: %s", pr.exit, oneLine(lastLines(b, 3)))
				}
				run.Note = strings.TrimSpace(run.Note + fmt.Sprintf(" go test -fuzz exited with status %d and saved no crasher: %s.", pr.exit, oneLine(lastLines(b, 2))))
			}
			break // the budget is spent
		}
		if run.Found && !r.cfg.KeepGoing {
			break
		}
	}
	if execs > 0 {
		run.Execs = execs
	}
	return &corpusSpec{dir: filepath.Join(cache, "FuzzNative"), target: "FuzzNative"}, nil
}

func (r *bugRunner) runGoFuzz(ctx context.Context, p *bugPrep, dir string, run *BugRun) (*corpusSpec, error) {
	wd := filepath.Join(dir, "gofuzz")
	if err := os.MkdirAll(filepath.Join(wd, "corpus"), 0o755); err != nil {
		return nil, fmt.Errorf("go-fuzz: %w", err)
	}
	rt := rateTracker{skipZero: true}
	crashers := filepath.Join(wd, "crashers", "*.output")
	seen := map[string]bool{}
	at := sinceStart(run.Start)
	var cerr error
	pr := (&proc{dir: dir, path: filepath.Join(r.cfg.GoFuzzBin, "go-fuzz"), log: filepath.Join(dir, "log"),
		args:   []string{"-bin", p.goFuzz, "-workdir", wd, "-procs", "1"},
		stopAt: r.cfg.Time, keepGoing: r.cfg.KeepGoing,
		found: func() bool {
			if err := r.classify(ctx, p, run, newFiles(crashers, seen), at); err != nil && cerr == nil {
				cerr = err
			}
			return run.Found
		},
		onLine: rt.line,
	}).run(ctx)
	if pr.err != nil {
		return nil, pr.err
	}
	// A crasher holding only "signal: interrupt" is go-fuzz's testee
	// stopped at the budget, not a crash.
	var left []string
	for _, f := range newFiles(crashers, seen) {
		if !onlyInterrupted(f) {
			left = append(left, f)
		}
	}
	if err := r.classify(ctx, p, run, left, at); err != nil && cerr == nil {
		cerr = err
	}
	run.Others = slices.DeleteFunc(run.Others, func(o OtherCrash) bool { return onlyInterrupted(o.File) })
	if cerr != nil {
		return nil, cerr
	}
	if rt.n > 0 {
		run.Execs = rt.execs
	}
	return &corpusSpec{dir: filepath.Join(wd, "corpus"), target: "FuzzGfz"}, nil
}

func (run BugRun) summary() string {
	if run.Err != "" {
		return "error: " + run.Err
	}
	s := "bug not found"
	if run.Found {
		s = fmt.Sprintf("bug found at %.1fs", run.TimeToBugS)
	}
	if run.Reached {
		s += fmt.Sprintf(", reached at %.1fs", run.TimeToReachS)
	}
	if len(run.Others) > 0 {
		s += fmt.Sprintf(", %d other crashes", len(run.Others))
	}
	return s + fmt.Sprintf(", %d execs, %d/%d statements of %s", run.Execs, run.CoveredStmts, run.TotalStmts, run.CoverPkg)
}
