// Command gfz-bench benchmarks gfz against Go's native fuzzer, go-fuzz and
// the uninstrumented limit loop on the same fuzz targets, and prints
// markdown tables of medians with min-max and ratios (see package bench and
// docs/BENCHMARKS.md).
//
// Usage, from the repository root:
//
//	gfz-bench [-reps 5] [-time 10s] [-runs N] [-keep-going] [-contenders list] [-overhead rounds] [-results FILE.jsonl] [-target DIR:FuzzName[:pkg,...]]...
//	gfz-bench -target-report FILE.jsonl[,FILE.jsonl...]
//
// Without -target it runs the default set: the trivial speed target and the
// examples of testdata/examples. Every run saves its results as report.json
// in the scratch directory (-work); -render prints such a file again. With
// -results every finished run is saved at once in that JSON-lines file
// (its corpus replayed for coverage first), runs already in it are
// skipped, and -target-report prints the report of such files.
//
// Bug mode runs the real-bug suite instead (see testdata/bugs/README.md):
//
//	gfz-bench -bugs testdata/bugs [-bug NAME]... -results FILE.jsonl [-plots DIR] [-reps 5] [-time 5m] [-contenders zest,random,native,...]
//	gfz-bench -bug-report FILE.jsonl[,FILE.jsonl...] [-plots DIR]
//
// and prints, per bug and contender, found k/n, time to trigger and to
// reach the buggy function, other crashes, coverage, and the statistics of
// every contender against native; -plots draws the coverage curves.
//
// One ranking of the contenders over the bugs and the targets of results
// files of both modes together:
//
//	gfz-bench -rank FILE.jsonl[,FILE.jsonl...]
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/gfz-dev/gfz/cmd/internal/bench"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// defaultTargets are run when no -target is given.
var defaultTargets = []string{
	"testdata/bench/trivial:FuzzTrivial",
	"testdata/examples/bst:FuzzDelete",
	"testdata/examples/havoc:FuzzCheckLTR",
	"testdata/examples/havoc:FuzzCheckRTL",
	"testdata/examples/config:FuzzShares",
}

type targetList []string

func (l *targetList) String() string     { return strings.Join(*l, " ") }
func (l *targetList) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gfz-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg bench.Config
	var targets targetList
	contenders := fs.String("contenders", strings.Join(bench.DefaultContenders, ","), "comma-separated contenders: "+strings.Join(bench.AllContenders, ", "))
	fs.Var(&targets, "target", "`DIR:FuzzName[:pkg,...]` to run (repeatable); the packages are also instrumented by gfz and measured for coverage; default: the trivial target and the examples")
	fs.IntVar(&cfg.Reps, "reps", 5, "runs per target and contender")
	fs.DurationVar(&cfg.Time, "time", 0, "time budget per run (default 10s)")
	fs.Int64Var(&cfg.Runs, "runs", 0, "execution budget per run (0: none; go-fuzz has none)")
	fs.BoolVar(&cfg.KeepGoing, "keep-going", false, "let gfz runs and the limit loop go on after the first failure, for speed figures over the whole budget (native and go-fuzz stop at a failure)")
	fs.StringVar(&cfg.Work, "work", "", "scratch directory, kept (default: a temporary directory, removed)")
	fs.StringVar(&cfg.GoFuzzBin, "gofuzz-bin", "", "directory holding go-fuzz and go-fuzz-build (default: go install them into the scratch directory)")
	fs.IntVar(&cfg.Overhead, "overhead", 0, "also run cmd/internal/build/bench/overhead.sh with this many rounds")
	fs.StringVar(&cfg.Root, "root", ".", "gfz repository root")
	out := fs.String("o", "", "write the report to this file (default: standard output)")
	verbose := fs.Bool("v", false, "print progress on standard error")
	render := fs.String("render", "", "do not run: print the report saved in this `report.json` (each run saves one in its scratch directory)")
	var bugs targetList
	bugsDir := fs.String("bugs", "", "bug mode: run the real-bug suite in this `DIR` (e.g. testdata/bugs); default contenders gfz-zest,gfz-random,gfz-native,native, default -time 5m")
	fs.Var(&bugs, "bug", "bug mode: run only this bug `NAME` (a directory of -bugs; repeatable)")
	results := fs.String("results", "", "JSON-lines `file` receiving one line per finished run (target mode: after its corpus is replayed for coverage); runs already in it are skipped (resume); required in bug mode")
	plots := fs.String("plots", "", "bug mode: write one coverage-curve image per bug into this `DIR` (<bug>.svg)")
	plotFormat := fs.String("plot-format", "svg", "bug mode: image format of -plots, svg or png")
	bugReport := fs.String("bug-report", "", "do not run: print the bug tables of these results `files` (comma-separated JSON lines)")
	targetReport := fs.String("target-report", "", "do not run: print the target-mode report of these results `files` (comma-separated JSON lines)")
	rank := fs.String("rank", "", "do not run: rank the contenders over the bugs and the targets of these results `files` together (comma-separated JSON lines of either mode)")
	check := fs.String("check", "", "with -rank: also check `DEFAULT,BASELINE` (two contenders) as a default engine: never significantly worse than the best other contender of a benchmark, the best mean rank, and on the bugs BASELINE takes over a minute on at least the best other's share of runs that found them and more than BASELINE's on a third")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gfz-bench: unexpected arguments %q\n", fs.Args())
		return 2
	}
	modes := 0
	for _, m := range []string{*bugsDir, *bugReport, *targetReport, *rank, *render} {
		if m != "" {
			modes++
		}
	}
	if modes > 1 {
		fmt.Fprintln(stderr, "gfz-bench: -bugs, -bug-report, -target-report, -rank and -render exclude each other")
		return 2
	}
	def, base, _ := strings.Cut(*check, ",")
	if *check != "" && (*rank == "" || def == "" || base == "" || strings.Contains(base, ",")) {
		fmt.Fprintln(stderr, "gfz-bench: -check DEFAULT,BASELINE (two contenders) goes with -rank")
		return 2
	}
	if *results != "" && (*targetReport != "" || *rank != "" || *render != "") {
		fmt.Fprintln(stderr, "gfz-bench: -results is where runs are saved; -target-report, -rank and -render run nothing (they take the files to read)")
		return 2
	}
	if *rank != "" {
		bugRuns, targetRuns, err := bench.ReadResults(strings.Split(*rank, ",")...)
		if err != nil {
			fmt.Fprintln(stderr, "gfz-bench:", err)
			return 1
		}
		var b bytes.Buffer
		if err := bench.RankMarkdown(&b, bugRuns, targetRuns); err != nil {
			fmt.Fprintln(stderr, "gfz-bench:", err)
			return 1
		}
		if *check != "" {
			b.WriteString("\n")
			if err := bench.DefaultCheckMarkdown(&b, bugRuns, targetRuns, def, base); err != nil {
				fmt.Fprintln(stderr, "gfz-bench:", err)
				return 1
			}
		}
		return emit(b.Bytes(), *out, stdout, stderr)
	}
	if *targetReport != "" {
		files := strings.Split(*targetReport, ",")
		runs, err := bench.ReadTargetResults(files...)
		if err == nil && len(runs) == 0 {
			err = fmt.Errorf("no target-mode runs in %s", *targetReport)
		}
		if err != nil {
			fmt.Fprintln(stderr, "gfz-bench:", err)
			return 1
		}
		return markdown(bench.ResultsReport(runs, files...), *out, stdout, stderr)
	}
	if *bugsDir != "" || *bugReport != "" {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		bc := bench.BugConfig{Root: cfg.Root, BugsDir: *bugsDir, Bugs: bugs, Reps: cfg.Reps, Time: cfg.Time,
			Results: *results, Work: cfg.Work, KeepGoing: cfg.KeepGoing, GoFuzzBin: cfg.GoFuzzBin,
			Command: "gfz-bench " + strings.Join(args, " ")}
		if set["contenders"] {
			for _, c := range strings.Split(*contenders, ",") {
				if c = strings.TrimSpace(c); c == "" {
					continue
				}
				n, err := bench.ParseBugContender(c)
				if err != nil {
					fmt.Fprintln(stderr, "gfz-bench:", err)
					return 2
				}
				bc.Contenders = append(bc.Contenders, n)
			}
		}
		if *verbose {
			bc.Log = stderr
		}
		if *plotFormat != "svg" && *plotFormat != "png" {
			fmt.Fprintf(stderr, "gfz-bench: -plot-format %q: want svg or png\n", *plotFormat)
			return 2
		}
		return runBugs(bc, *bugReport, *plots, *plotFormat, *out, stdout, stderr)
	}
	for _, c := range strings.Split(*contenders, ",") {
		if c = strings.TrimSpace(c); c != "" {
			cfg.Contenders = append(cfg.Contenders, c)
		}
	}
	for _, c := range cfg.Contenders {
		if !contains(bench.AllContenders, c) {
			fmt.Fprintf(stderr, "gfz-bench: unknown contender %q (want some of %s)\n", c, strings.Join(bench.AllContenders, ","))
			return 2
		}
	}
	if len(targets) == 0 {
		targets = defaultTargets
	}
	for _, s := range targets {
		t, err := bench.ParseTarget(s)
		if err != nil {
			fmt.Fprintln(stderr, "gfz-bench:", err)
			return 2
		}
		cfg.Targets = append(cfg.Targets, t)
	}
	if *verbose {
		cfg.Log = stderr
	}
	var rep *bench.Report
	var err error
	if *render != "" {
		rep, err = bench.ReadJSON(*render)
		if err == nil {
			rep.FillEngineMetrics()
		}
	} else {
		cfg.Results = *results
		cfg.Command = "gfz-bench " + strings.Join(args, " ")
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		rep, err = bench.Run(ctx, cfg)
	}
	if err != nil {
		fmt.Fprintln(stderr, "gfz-bench:", err)
		return 1
	}
	return markdown(rep, *out, stdout, stderr)
}

// markdown prints the target-mode report rep (emit).
func markdown(rep *bench.Report, out string, stdout, stderr io.Writer) int {
	var b bytes.Buffer
	if err := rep.Markdown(&b); err != nil {
		fmt.Fprintln(stderr, "gfz-bench:", err)
		return 1
	}
	return emit(b.Bytes(), out, stdout, stderr)
}

// emit writes the report to file out, or to stdout when out is "", and
// returns the exit status.
func emit(report []byte, out string, stdout, stderr io.Writer) int {
	if out == "" {
		_, _ = stdout.Write(report)
		return 0
	}
	if err := workdir.WriteFileAtomic(out, report); err != nil {
		fmt.Fprintln(stderr, "gfz-bench:", err)
		return 1
	}
	return 0
}

// runBugs runs bug mode (or, with report set, only renders the results
// files) and prints the tables.
func runBugs(bc bench.BugConfig, report, plots, format, out string, stdout, stderr io.Writer) int {
	var runs []bench.BugRun
	var err error
	if report != "" {
		runs, err = bench.ReadBugRuns(strings.Split(report, ",")...)
	} else {
		if bc.Results == "" {
			fmt.Fprintln(stderr, "gfz-bench: bug mode needs -results FILE.jsonl, where every finished run is saved (and from which an interrupted evaluation resumes)")
			return 2
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		runs, err = bench.RunBugs(ctx, bc)
	}
	if err != nil {
		fmt.Fprintln(stderr, "gfz-bench:", err)
		return 1
	}
	var images map[string]string
	if plots != "" {
		if err := os.MkdirAll(plots, 0o755); err != nil {
			fmt.Fprintln(stderr, "gfz-bench:", err)
			return 1
		}
		if images, err = bench.PlotBugCoverage(runs, plots, format); err != nil {
			fmt.Fprintln(stderr, "gfz-bench:", err)
			return 1
		}
	}
	var b bytes.Buffer
	if err := bench.BugMarkdown(&b, runs, images); err != nil {
		fmt.Fprintln(stderr, "gfz-bench:", err)
		return 1
	}
	return emit(b.Bytes(), out, stdout, stderr)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
