// Package bench is gfz-bench's library: it builds every contender on the
// same fuzz targets and runs them side by side, alternating and repeated,
// then reports medians with min-max and ratios as markdown tables.
//
// The contenders, on one gfz fuzz target (func FuzzXxx(f *testing.F) calling
// gfz.Fuzz):
//
//   - gfz-zest, gfz-bytes, gfz-random: the fuzz binary built by package build,
//     run with -engine zest|bytes|random;
//   - native: Go's own fuzzer (a go test -c -fuzz binary run with
//     -test.fuzz, -test.parallel 1 and a private -test.fuzzcachedir);
//   - go-fuzz: github.com/dvyukov/go-fuzz on a generated
//     Fuzz(data []byte) int wrapper of the same target;
//   - limit: an uninstrumented loop calling the same generator and target on
//     fresh PRNG parameter bytes, with no feedback;
//   - limit-instr: the same loop built against the instrumented sources
//     (the same packages and map size as the gfz binary), whose probes
//     write the map that nothing reads: the limit with the probes' cost,
//     which separates the instrumentation's share of gfz's gap to the
//     limit from the engine's.
//
// The limit loop and the go-fuzz wrapper run a "plain copy" of the target
// package (see plain.go): a temporary module in which the package's
// _test.go files are ordinary files and gfz.Fuzz only hands over the fuzz
// function. Every run happens in a fresh directory holding a copy of the
// package's testdata/, so failing inputs never land in the user's tree.
//
// Coverage is measured independently of gfz: every run's corpus is replayed
// by a go test -c -cover -coverpkg=... binary of the target package, and the
// covered statements are counted per package and per stage.
//
// With a results file (Config.Results; bug mode always has one, see
// bugs.go) every finished run is saved as one JSON line at once, runs
// already saved are skipped, and an evaluation interrupted at any moment
// resumes where it stopped (store.go). ResultsReport renders the runs of
// such files again, and RankMarkdown ranks the contenders over the bugs
// and targets of both modes together (rankall.go).
package bench

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gfz-dev/gfz/cmd/internal/build"
	"github.com/gfz-dev/gfz/internal/engine"
)

// Contender names, in the default order.
const (
	GfzZest   = "gfz-zest"
	GfzBytes  = "gfz-bytes"
	GfzRandom = "gfz-random"
	Native    = "native"
	GoFuzz    = "go-fuzz"
	Limit     = "limit"
	// LimitInstr is the limit loop on the instrumented sources (not run
	// by default).
	LimitInstr = "limit-instr"
)

// overheadScript is Config.Overhead's script, relative to Config.Root.
const overheadScript = "cmd/internal/build/bench/overhead.sh"

// DefaultContenders are the contenders run when none are named.
var DefaultContenders = []string{GfzZest, GfzBytes, GfzRandom, Native, GoFuzz, Limit}

// AllContenders lists every contender: "gfz-" and the name of each
// registered engine (engine.Engines), then native, go-fuzz and limit.
var AllContenders = allContenders()

func allContenders() []string {
	var cs []string
	for _, e := range engine.Engines() {
		cs = append(cs, "gfz-"+e)
	}
	return append(cs, Native, GoFuzz, Limit, LimitInstr)
}

// isGfz reports whether c runs the gfz fuzz binary (gfz-ENGINE).
func isGfz(c string) bool { return strings.HasPrefix(c, "gfz-") }

// Target is one fuzz target to benchmark.
type Target struct {
	Dir   string   // package directory
	Name  string   // FuzzXxx
	Cover []string // extra packages gfz instruments and whose coverage is measured (e.g. go/types)
}

func (t Target) String() string {
	return filepath.Base(t.Dir) + "." + t.Name
}

// ParseTarget parses "DIR:FuzzName" or "DIR:FuzzName:pkg1,pkg2" (the
// packages are Target.Cover).
func ParseTarget(spec string) (Target, error) {
	parts := strings.SplitN(spec, ":", 3)
	if len(parts) < 2 || parts[0] == "" || !strings.HasPrefix(parts[1], "Fuzz") {
		return Target{}, fmt.Errorf("target %q: want DIR:FuzzName[:pkg,pkg...]", spec)
	}
	t := Target{Dir: parts[0], Name: parts[1]}
	if len(parts) == 3 {
		for _, p := range strings.Split(parts[2], ",") {
			if p = strings.TrimSpace(p); p != "" {
				t.Cover = append(t.Cover, p)
			}
		}
	}
	return t, nil
}

// Stage groups packages whose covered statements are summed in one column,
// e.g. syntax = go/scanner + go/parser, semantic = go/types.
type Stage struct {
	Name string
	Pkgs []string
}

// DefaultStages are the Zest paper's split for the go/types target.
var DefaultStages = []Stage{
	{"syntax", []string{"go/scanner", "go/parser"}},
	{"semantic", []string{"go/types"}},
}

// Config configures Run.
type Config struct {
	Root       string        // gfz module root (holds internal/build/bench/overhead.sh); default "."
	Targets    []Target      // targets to run
	Contenders []string      // default DefaultContenders
	Reps       int           // runs per (target, contender); default 5
	Time       time.Duration // time budget per run; default 10s
	Runs       int64         // execution budget per run (0: none; go-fuzz has no execution budget)
	// KeepGoing lets gfz runs and the limit loop run their whole budget
	// after the first failure (by default a run stops there), so that
	// targets with a bug get speed figures over the full budget. Native
	// and go-fuzz stop at a failure by themselves.
	KeepGoing bool
	Work      string    // scratch directory; default a new temporary directory, removed at the end
	GoFuzzBin string    // directory holding go-fuzz and go-fuzz-build; default: go install them into Work
	Stages    []Stage   // default DefaultStages
	Overhead  int       // rounds of internal/build/bench/overhead.sh to run (0: skip)
	Log       io.Writer `json:"-"` // progress; default io.Discard
	Command   string    // the command line, printed in the report
	// Results is a JSON-lines file receiving every finished run (a
	// Result) at once, its corpus replayed for coverage right after it;
	// runs already in it (same target, contender, repetition, time and
	// execution budget) are not run again, so an interrupted evaluation
	// resumes. The report then covers every run of the file for these
	// targets, contenders and budget. "": runs are kept in memory and
	// replayed after the last one.
	Results string `json:",omitempty"`
}

// Result is one run of one contender on one target, and one line of a
// target-mode results file (Config.Results, store.go).
type Result struct {
	Target    string
	Contender string
	Rep       int
	Err       string // the run failed to start or crashed unexpectedly

	Execs       int64
	ExecsPerSec float64
	ValidPct    float64 // valid executions in %, -1 when the contender cannot tell
	MaxRSSKiB   int64   // sum of the peak resident sets (VmHWM) of the run's processes, sampled every 100 ms
	Wall        float64 // seconds

	Found     bool    // the target failed (the planted bug)
	FoundS    float64 // seconds from start to the failure
	FoundExec int64   // executions to the failure, -1 when unknown

	CorpusDir      string         // where the run's corpus files are (Go corpus format or raw)
	CorpusSize     int            // inputs in the corpus
	CorpusValidPct float64        // valid inputs of the corpus in %, -1 when not replayed
	Covered        map[string]int // covered statements per package after replaying the corpus

	// Engine is the engine's own measurements from a gfz run's stats file
	// (EngineKeys); nil for other contenders.
	Engine map[string]float64

	// With Config.Results, what the line of the run in the results file
	// needs besides, for the report of the file (ResultsReport):
	TimeS     float64        `json:",omitempty"` // the time budget in seconds
	Runs      int64          `json:",omitempty"` // the execution budget (0: none)
	KeepGoing bool           `json:",omitempty"` // Config.KeepGoing
	Measured  []string       `json:",omitempty"` // the packages whose coverage is measured (Report.Measured)
	Totals    map[string]int `json:",omitempty"` // their statements (Report.Totals)
	Start     time.Time      `json:",omitzero"`  // when the run started
	Machine   string         `json:",omitempty"`
	Command   string         `json:",omitempty"`
}

// EngineKeys are the stats keys of a gfz run kept in Result.Engine:
// BeDivFuzz's Hill numbers of the branches of unique traces, the share of
// zero mutations, and the mean choice-level mutation distance
// (docs/ENGINE.md, "Metrics").
var EngineKeys = []string{"hill_b0", "hill_b1", "hill_b2", "zero_mutations", "mutation_distance_mean"}

// engineMetrics picks EngineKeys from a gfz stats file's values.
func engineMetrics(st map[string]float64) map[string]float64 {
	m := map[string]float64{}
	for _, k := range EngineKeys {
		if v, ok := st[k]; ok {
			m[k] = v
		}
	}
	// An engine without parents (random) makes no children: no share of
	// zero mutations and no distance to report (n/a, not 0).
	if st["children"] == 0 {
		delete(m, "zero_mutations")
	}
	if st["mutation_distance_samples"] == 0 {
		delete(m, "mutation_distance_mean")
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// FillEngineMetrics sets Result.Engine of the gfz results that have none
// from the stats file next to their corpus, when it is still there (a
// report saved by an older gfz-bench, rendered again).
func (rep *Report) FillEngineMetrics() {
	for i := range rep.Results {
		r := &rep.Results[i]
		if r.Engine != nil || !isGfz(r.Contender) || r.CorpusDir == "" {
			continue
		}
		r.Engine = engineMetrics(readStats(filepath.Join(filepath.Dir(r.CorpusDir), "stats")))
	}
}

// Report is the outcome of Run.
type Report struct {
	Config      Config
	Start       time.Time
	Duration    time.Duration
	Machine     string
	Unavailable map[string]string   // "contender" or "contender target" -> reason
	Totals      map[string]int      // statements per package in the coverage builds
	Measured    map[string][]string // target -> packages whose coverage is measured
	Results     []Result
	Overhead    string // output of overhead.sh
	// Files are the results files the report was made from
	// (ResultsReport; Config.Results): its header then describes the
	// runs, which may come from several sessions, rather than Config.
	Files []string `json:",omitempty"`
}

// prepared holds what was built for one target.
type prepared struct {
	t       Target
	pkgPath string
	gfzBin  string
	dict    []string // the dictionary gfz-build collected (also linked into the limit loop)
	mapBits int      // the gfz binary's map size (limit-instr uses the same)
	native  string
	plain   *plainCopy
	goFuzz  string // go-fuzz zip
	cover   string // coverage test binary
	// coverDict is cover linked with gfz-build's dictionary, for the gfz
	// contenders' corpora ("" when the dictionary is empty): generators
	// that draw dictionary tokens decode the same bytes differently
	// without it, as native and go-fuzz run them.
	coverDict string
	coverPkg  []string
}

// Run builds every contender on every target and runs them. With
// cfg.Results, the runs already in that file are skipped (and the targets
// with none left to do not even built), each new run is saved there as
// soon as its corpus is replayed, and the report covers every run of the
// file for cfg's targets, contenders and budget.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg.defaults()
	rep := &Report{Config: cfg, Start: time.Now(), Machine: machine(), Unavailable: map[string]string{}, Totals: map[string]int{}, Measured: map[string][]string{}}
	if cfg.Work == "" {
		w, err := os.MkdirTemp("", "gfz-bench-")
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		defer os.RemoveAll(w)
		cfg.Work = w
	}
	cfg.Work, _ = filepath.Abs(cfg.Work)
	root, err := filepath.Abs(cfg.Root)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	cfg.Root = root
	r := &runner{cfg: cfg, rep: rep}
	r.do = r.run
	var store *runStore
	done := map[string]bool{}
	if cfg.Results != "" {
		store = &runStore{path: cfg.Results}
		if done, err = store.load(); err != nil {
			return nil, err
		}
	}
	todo := func(t Target, cs ...string) bool {
		for _, c := range cs {
			for i := range cfg.Reps {
				if !done[r.key(t, c, i)] {
					return true
				}
			}
		}
		return false
	}
	if slices.Contains(cfg.Contenders, GoFuzz) && slices.ContainsFunc(cfg.Targets, func(t Target) bool { return todo(t, GoFuzz) }) {
		if err := r.installGoFuzz(ctx); err != nil {
			rep.Unavailable[GoFuzz] = err.Error()
		}
	}
	var preps []*prepared
	for i, t := range cfg.Targets {
		if !todo(t, cfg.Contenders...) {
			r.logf("%s: every run already in %s", t, cfg.Results)
			continue
		}
		p, err := r.prepare(ctx, t, filepath.Join(cfg.Work, fmt.Sprintf("t%d", i)))
		if err != nil {
			return nil, err
		}
		preps = append(preps, p)
		rep.Measured[p.t.String()] = p.coverPkg
	}
	if err := r.runAll(ctx, preps, done, store); err != nil {
		return nil, err
	}
	if store == nil {
		for i := range rep.Results {
			res := &rep.Results[i]
			p := preps[slices.IndexFunc(preps, func(p *prepared) bool { return p.t.String() == res.Target })]
			r.replay(ctx, p, res)
		}
	}
	if cfg.Overhead > 0 {
		r.logf("running %s %d", overheadScript, cfg.Overhead)
		cmd := exec.CommandContext(ctx, "sh", overheadScript, fmt.Sprint(cfg.Overhead))
		cmd.Dir = cfg.Root
		out, err := cmd.CombinedOutput()
		if err != nil {
			rep.Overhead = fmt.Sprintf("overhead.sh failed: %v\n%s", err, lastLines(out, 10))
		} else {
			rep.Overhead = string(out)
		}
	}
	if store != nil {
		if rep, err = r.storedReport(); err != nil {
			return nil, err
		}
	}
	rep.Duration = time.Since(rep.Start)
	if err := rep.WriteJSON(filepath.Join(cfg.Work, "report.json")); err != nil {
		r.logf("%v", err)
	}
	return rep, nil
}

// runAll runs every repetition of every contender on every prepared
// target, but the runs in done and the unavailable contenders: by
// repetition, target after target, each repetition starting with the
// next contender. Without a store the results are added to the report
// as they are; with one, each run's corpus is replayed at once and the
// run saved in the store, so that an interruption loses the run in
// flight alone.
func (r *runner) runAll(ctx context.Context, preps []*prepared, done map[string]bool, store *runStore) error {
	cfg := r.cfg
	for i := range cfg.Reps {
		for _, p := range preps {
			n := len(cfg.Contenders)
			for j := range n {
				c := cfg.Contenders[(i+j)%n]
				if r.unavailable(c, p.t) != "" || done[r.key(p.t, c, i)] {
					continue
				}
				start := time.Now()
				res := r.do(ctx, p, c, i)
				r.logf("%s %s rep %d: %s", p.t, c, i+1, res.summary())
				if store == nil {
					r.rep.Results = append(r.rep.Results, res)
					if err := ctx.Err(); err != nil {
						return fmt.Errorf("bench: %w", err)
					}
					continue
				}
				if ctx.Err() == nil {
					r.replay(ctx, p, &res)
				}
				if err := ctx.Err(); err != nil {
					return fmt.Errorf("bench: interrupted; finished runs are in %s: %w", store.path, err)
				}
				r.describe(&res, p, start)
				if err := store.add(res); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// key is the results-file key (targetKey) of repetition rep of contender
// c on t with the configured budget.
func (r *runner) key(t Target, c string, rep int) string {
	return targetKey(Result{Target: t.String(), Contender: c, Rep: rep, TimeS: r.cfg.Time.Seconds(), Runs: r.cfg.Runs, KeepGoing: r.cfg.KeepGoing})
}

// describe adds to res what its line in the results file needs besides:
// the budget, the measured packages and their statements, and the
// session.
func (r *runner) describe(res *Result, p *prepared, start time.Time) {
	res.TimeS, res.Runs, res.KeepGoing = r.cfg.Time.Seconds(), r.cfg.Runs, r.cfg.KeepGoing
	res.Measured = p.coverPkg
	res.Totals = map[string]int{}
	for _, pkg := range p.coverPkg {
		if n, ok := r.rep.Totals[pkg]; ok {
			res.Totals[pkg] = n
		}
	}
	res.Start, res.Machine, res.Command = start, r.rep.Machine, r.cfg.Command
}

// storedReport is the report of the runs of the results file for the
// configured targets, contenders and budget (ResultsReport: machines and
// measured packages are the runs'), with this session's configuration,
// unavailable contenders and overhead figures.
func (r *runner) storedReport() (*Report, error) {
	all, err := ReadTargetResults(r.cfg.Results)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	var mine []Result
	for _, res := range all {
		if slices.ContainsFunc(r.cfg.Targets, func(t Target) bool { return t.String() == res.Target }) &&
			slices.Contains(r.cfg.Contenders, res.Contender) && res.TimeS == r.cfg.Time.Seconds() && res.Runs == r.cfg.Runs {
			mine = append(mine, res)
		}
	}
	rep := ResultsReport(mine, r.cfg.Results)
	rep.Config, rep.Start = r.rep.Config, r.rep.Start // the session's, for Duration
	rep.Unavailable, rep.Overhead = r.rep.Unavailable, r.rep.Overhead
	return rep, nil
}

// WriteJSON saves the report (atomically) so that ReadJSON and Markdown
// can render it again later.
func (rep *Report) WriteJSON(path string) error {
	b, err := json.MarshalIndent(rep, "", "\t")
	if err != nil {
		return fmt.Errorf("bench: save report: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("bench: save report: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("bench: save report: %w", err)
	}
	return nil
}

// ReadJSON loads a report saved by WriteJSON.
func ReadJSON(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("bench: read report: %w", err)
	}
	rep := &Report{}
	if err := json.Unmarshal(b, rep); err != nil {
		return nil, fmt.Errorf("bench: read report %s: %w", path, err)
	}
	return rep, nil
}

func (c *Config) defaults() {
	if c.Root == "" {
		c.Root = "."
	}
	if len(c.Contenders) == 0 {
		c.Contenders = DefaultContenders
	}
	if c.Reps <= 0 {
		c.Reps = 5
	}
	if c.Time <= 0 {
		c.Time = 10 * time.Second
	}
	if c.Stages == nil {
		c.Stages = DefaultStages
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}

type runner struct {
	cfg Config
	rep *Report
	// do runs contender c on p once: r.run (tests put a fake).
	do func(ctx context.Context, p *prepared, c string, rep int) Result
}

func (r *runner) logf(format string, args ...any) {
	fmt.Fprintf(r.cfg.Log, "gfz-bench: "+format+"\n", args...)
}

func (r *runner) unavailable(c string, t Target) string {
	if s := r.rep.Unavailable[c]; s != "" {
		return s
	}
	return r.rep.Unavailable[c+" "+t.String()]
}

func (r *runner) installGoFuzz(ctx context.Context) error {
	if r.cfg.GoFuzzBin == "" {
		bin := filepath.Join(r.cfg.Work, "gobin")
		r.logf("installing go-fuzz into %s", bin)
		cmd := exec.CommandContext(ctx, "go", "install",
			"github.com/dvyukov/go-fuzz/go-fuzz@"+goFuzzVersion,
			"github.com/dvyukov/go-fuzz/go-fuzz-build@"+goFuzzVersion)
		cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=")
		cmd.Dir = r.cfg.Work
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go install go-fuzz: %v: %s", err, lastLines(out, 3))
		}
		r.cfg.GoFuzzBin = bin
	}
	for _, b := range []string{"go-fuzz", "go-fuzz-build"} {
		if _, err := os.Stat(filepath.Join(r.cfg.GoFuzzBin, b)); err != nil {
			return fmt.Errorf("go-fuzz: %w", err)
		}
	}
	return nil
}

// prepare builds every contender for t in dir.
func (r *runner) prepare(ctx context.Context, t Target, dir string) (*prepared, error) {
	p := &prepared{t: t}
	var err error
	if t.Dir, err = filepath.Abs(t.Dir); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	p.t.Dir = t.Dir
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	out, err := goQuery(ctx, t.Dir, "list", "-f", "{{.ImportPath}}", ".")
	if err != nil {
		return nil, fmt.Errorf("bench: target %s: %w\n%s", t, err, out)
	}
	p.pkgPath = strings.TrimSpace(string(out))
	r.logf("preparing %s (%s)", t, p.pkgPath)
	has := func(c ...string) bool {
		for _, x := range c {
			if slices.Contains(r.cfg.Contenders, x) {
				return true
			}
		}
		return false
	}
	// A contender that cannot be built on this target is reported as
	// unavailable; the others still run.
	off := func(reason string, cs ...string) {
		for _, c := range cs {
			r.rep.Unavailable[c+" "+t.String()] = oneLine(lastLines([]byte(reason), 3))
		}
	}
	gfzs := slices.DeleteFunc(slices.Clone(r.cfg.Contenders), func(c string) bool { return !isGfz(c) })
	if len(gfzs) > 0 {
		var log bytes.Buffer
		bins, err := build.Build(ctx, build.Options{
			Patterns: []string{"."}, Dir: t.Dir, Cover: t.Cover,
			Output: filepath.Join(dir, "gfz.bin"), Stdout: &log, Stderr: &log,
		})
		switch {
		case err != nil:
			off(fmt.Sprintf("gfz-build failed: %v\n%s", err, log.String()), gfzs...)
		case len(bins.Binaries) != 1 || !slices.Contains(bins.Binaries[0].Targets, t.Name):
			off("gfz-build found no gfz target "+t.Name, gfzs...)
		default:
			p.gfzBin = bins.Binaries[0].Output
			p.dict = bins.Dictionary
			p.mapBits = bins.MapBits
		}
		if bins != nil {
			_ = bins.Cleanup()
		}
	}
	if has(Native) {
		p.native = filepath.Join(dir, "native.test")
		if out, err := goCmd(ctx, t.Dir, "test", "-c", "-fuzz=^"+t.Name+"$", "-o", p.native, "."); err != nil {
			off(fmt.Sprintf("go test -c -fuzz failed: %v\n%s", err, out), Native)
		}
	}
	// The plain copy is needed for the limit, go-fuzz and the valid-input
	// count of replayed corpora.
	p.plain, err = makePlainCopy(ctx, t.Dir, r.cfg.Root, filepath.Join(dir, "plain"), []string{t.Name}, p.dict, r.logf)
	if err != nil {
		off("plain copy: "+err.Error(), Limit, LimitInstr, GoFuzz)
		p.plain = nil
	}
	if has(LimitInstr) && p.plain != nil {
		if err := p.plain.buildInstrumented(ctx, t.Cover, p.mapBits, p.dict); err != nil {
			off(err.Error(), LimitInstr)
		} else {
			r.logf("built instrumented limit loop %s", p.plain.LimitInstr)
		}
	}
	if has(GoFuzz) && r.unavailable(GoFuzz, t) == "" {
		p.goFuzz = filepath.Join(dir, "gofuzz.zip")
		if err := goFuzzBuild(ctx, r.cfg.GoFuzzBin, p.plain.Dir, p.plain.PkgPath, "FuzzGfzBench_"+t.Name, p.goFuzz); err != nil {
			off(err.Error(), GoFuzz)
		}
	}
	p.coverPkg = append([]string{p.pkgPath}, t.Cover...)
	p.cover = filepath.Join(dir, "cover.test")
	if out, err := goCmd(ctx, t.Dir, "test", "-c", "-cover", "-covermode=set", "-coverpkg="+strings.Join(p.coverPkg, ","), "-o", p.cover, "."); err != nil {
		r.logf("%s: no coverage measurement: %v\n%s", t, err, out)
		p.cover = ""
	} else if f := build.DictionaryLdflag(p.dict); f != "" {
		p.coverDict = filepath.Join(dir, "cover-dict.test")
		if out, err := goCmd(ctx, t.Dir, "test", "-c", "-cover", "-covermode=set", "-coverpkg="+strings.Join(p.coverPkg, ","), "-ldflags", f, "-o", p.coverDict, "."); err != nil {
			r.logf("%s: no coverage measurement: %v\n%s", t, err, out)
			p.cover, p.coverDict = "", ""
		}
	}
	return p, nil
}

// goCmd runs the go command in dir and returns its combined output.
func goCmd(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return goCmdEnv(ctx, dir, nil, args...)
}

// plainEnv lets the go command complete the plain copy's go.mod and go.sum
// (never used in the user's module).
func plainEnv() []string {
	return []string{"GOFLAGS=-mod=mod " + os.Getenv("GOFLAGS")}
}

// goFuzzBuild builds the go-fuzz archive out of function fn of package pkg
// (a plain copy in dir) with go-fuzz-build from directory bin. gfz's own
// packages (the generator library, the user API and what it imports) are
// passed to -preserve, not instrumented: gfz-build does not instrument
// them either, so both fuzzers get feedback from the same code (go-fuzz
// also instruments the standard library, its default), and go-fuzz's
// source rewriting misplaces //go:embed directives (it cannot build
// gfz's internal/report).
func goFuzzBuild(ctx context.Context, bin, dir, pkg, fn, out string) error {
	deps, err := goQueryEnv(ctx, dir, plainEnv(), "list", "-deps", "-f", "{{.ImportPath}}", pkg)
	if err != nil {
		return fmt.Errorf("go-fuzz-build: %v: %s", err, lastLines(deps, 3))
	}
	var preserve []string
	for _, d := range strings.Fields(string(deps)) {
		if isGfzPackage(d) {
			preserve = append(preserve, d)
		}
	}
	args := []string{"-func", fn, "-o", out}
	if len(preserve) > 0 {
		args = append(args, "-preserve", strings.Join(preserve, ","))
	}
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "go-fuzz-build"), append(args, pkg)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), plainEnv()...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go-fuzz-build failed: %v: %s", err, b)
	}
	return nil
}

// isGfzPackage tells whether import path p is one of gfz's own packages
// (not its testdata, which holds user code).
func isGfzPackage(p string) bool {
	const mod = "github.com/gfz-dev/gfz"
	return (p == mod || strings.HasPrefix(p, mod+"/")) && !strings.Contains(p+"/", "/testdata/")
}

// goQuery runs a go command whose standard output is an answer (go list,
// go env) and returns that output alone: progress the go command prints
// on standard error ("go: downloading ...", on a fresh module cache) is
// not part of it. On failure the error carries the standard error.
func goQuery(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return goQueryEnv(ctx, dir, nil, args...)
}

// goQueryEnv is goQuery with env added to the go command's environment.
func goQueryEnv(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), noWorkspace(env)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return stderr.Bytes(), fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return out, nil
}

func goCmdEnv(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), noWorkspace(env)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return out, nil
}

func machine() string {
	model := ""
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s/%s, %d CPUs (%s), %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cmp.Or(model, "unknown CPU"), runtime.Version())
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// noWorkspace adds GOWORK=off to env unless env sets GOWORK: the modules
// the benchmarks build (the examples, the nested bug modules under
// testdata/bugs, plain copies) are each their own main module, while a
// checkout of gfz has a go.work (joining the library and the tools) that
// the go command would otherwise find above them and refuse them for.
func noWorkspace(env []string) []string {
	for _, e := range env {
		if strings.HasPrefix(e, "GOWORK=") {
			return env
		}
	}
	return append(env[:len(env):len(env)], "GOWORK=off")
}
