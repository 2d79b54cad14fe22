// Package driver is the fuzz binary's driver: its command line, the
// supervisor process that starts and watches worker processes, the worker
// side that runs the engine, -repro and -coverprofile.
//
// A fuzz binary is a test binary built by gfz-build with package gfz's
// buildInfo set; gfz's init hands it to Init, which parses the command
// line before the testing package does. Its command line is
//
//	./x.gfz [flags] [FuzzTarget]
//
// The process started by the user parses and checks the flags, handles -h
// and -list, and becomes the supervisor (engine.Supervise): it never runs
// the target itself but starts -workers worker processes, the same
// executable with the same arguments and GFZ_CHILD=1 plus GFZ_WORKER=<the
// worker's assignment> in the environment. In a child, Init rewrites os.Args
// to "-test.run=^FuzzTarget$" so that the testing package runs exactly that
// target; gfz.Fuzz then collects the seed corpus and runs engine.Run in
// worker mode, publishing every input in the shared memory the supervisor
// created before running it, and exits with childExitBase + status. The
// supervisor restarts a worker that dies (whatever the target did to its
// process), records the failure, aggregates the workers' counters and maps
// the outcome to the exit status; a worker that never reaches gfz.Fuzz
// means the target does not call it (exit 2).
//
// With -repro there is no supervisor: the process started by the user runs
// the inputs in one child and watches it (superviseRepro). The child
// streams its progress on a status pipe (descriptor 3; see statusWriter):
// that it reached gfz.Fuzz (so that the parent can tell a target without
// gfz.Fuzz from a crash), which input it runs, the bytes read and the
// values drawn so far. The parent enforces -timeout (SIGQUIT for the
// goroutine stacks, then SIGKILL) and -rss_limit_mb, and when the child
// dies during an input it reports that input as a failure with the values
// drawn until then and what killed the process (signature.CrashKind), then
// runs the remaining files in a new child. The supervisor describes the
// inputs that killed a worker the same way (config.describer).
package driver

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/signature"
)

// Exit statuses of a fuzz binary.
const (
	ExitOK      = 0 // nothing failed
	ExitFailure = 1 // a failure was found (or a -repro input failed)
	ExitUsage   = 2 // usage or setup error
)

// childEnv marks the child process; workerEnv (with childEnv) marks a
// worker process and holds its engine.WorkerSpec; childExitBase offsets
// the child's exit status; childStatusFD is the status pipe's descriptor
// in a -repro child.
const (
	childEnv      = "GFZ_CHILD"
	workerEnv     = "GFZ_WORKER"
	childTestV    = "GFZ_CHILD_TESTV" // (with childEnv) the child runs the testing package with -test.v
	childExitBase = 80                // above 66, the race detector's exit status
	childStatusFD = 3
)

// statusPipe is the child's end of the status pipe.
var statusPipe *os.File

// config is the parsed command line of a fuzz binary.
type config struct {
	info url.Values
	// run holds the run's options, filled by the flags (flags.go) in the
	// engine's terms: it is the Config of every worker's engine.Run and of
	// the supervisor, so a flag the engine reads is one field there and
	// one line in flags.go. (Target is the fuzz target; ReplayOnly is
	// libFuzzer's -runs=0.)
	run          engine.Config
	targets      []string
	list         bool
	repro        []string
	coverprofile string
	report       string // -report DIR
	verbose      bool
	workers      int
	rssLimitMB   int
	regress      string             // -regress: the package directory ("": off)
	seedDirs     dirList            // -seedcorpus directories
	pkgSeeds     string             // the package's seed corpus, added to seedDirs (packageSeedDir; "": none)
	format       string             // -format (format.go)
	seedgen      seedgenFlags       // -seedgen and its companions (flags.go)
	worker       *engine.WorkerSpec // set in a worker process

	// libFuzzer mode (libfuzzer.go): lf is the libFuzzer part of the
	// command line (nil: gfz's own command line); workdirSet tells whether
	// -workdir was given; childArgs (nil: os.Args[1:]) are the workers'
	// arguments, ctx (nil: none) stops the run, onNewFailure is called
	// with each new failure's input as -regress is, and summary is the
	// supervised run's.
	lf         *libFuzzer
	workdirSet bool
	// workdirDefault: -workdir was not given and run.Workdir is the
	// default (workdir.DefaultDir), which the first status line names.
	workdirDefault bool
	childArgs      []string
	ctx            context.Context
	onNewFailure   func(input string) (string, error)
	onInited       func(execs, cov int64, corpus int)
	summary        *engine.Summary

	stdout, stderr io.Writer
	called         bool
	// engineInert tells that a gfz target runs under the default engine
	// and it does not mutate (engine.Mutates): it runs the seeds but never
	// builds on them (parentSetup says so when there are seeds: inertSeeds).
	engineInert bool
}

// plainTestRun reports whether args run a test of the binary's package as
// a go test binary would: go test's -test.* flags and their values, with
// -test.run naming a Test or Example function, and anything after "--". A
// test that runs its own binary again as a helper process
// (exec.Command(os.Args[0], "-test.run=TestHelperProcess", "--", ...),
// os/exec's idiom) does so from inside a fuzz target; the fuzz binary lets
// the testing package run it instead of taking it for OSS-Fuzz's coverage
// run (-test.run naming a fuzz target) and refusing the name.
func plainTestRun(args []string) bool {
	named := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue // a -test.* flag's value
		}
		if !strings.HasPrefix(a, "-test.") {
			return false // a flag of the fuzz binary
		}
		name, value, ok := strings.Cut(strings.TrimPrefix(a, "-test."), "=")
		if name != "run" {
			continue
		}
		if !ok && i+1 < len(args) {
			i++
			value = args[i]
		}
		fn := strings.TrimPrefix(value, "^")
		named = strings.HasPrefix(fn, "Test") || strings.HasPrefix(fn, "Example")
	}
	return named
}

// mode is non-nil in the child process of a fuzz binary.
var mode *config

// buildInfo is the fuzz binary's build information (see Init).
var buildInfo string

// Init runs the fuzz binary's command line when info, the build
// information gfz-build links into package gfz, is not empty; it does
// nothing otherwise (plain go test). The process the user started never
// returns from Init: it answers -h and -list, runs -repro in a child, or
// supervises the workers, and exits. In a child (a worker or the -repro
// child) Init rewrites os.Args so that the testing package runs exactly
// the named fuzz target, whose gfz.Fuzz call then reaches Fuzz. Init must
// run before the testing package parses its flags: package gfz calls it
// from its init function.
func Init(info string) {
	if info == "" {
		return
	}
	buildInfo = info
	if plainTestRun(os.Args[1:]) {
		return // the testing package runs it, as in a go test binary
	}
	cfg, code := parseArgs(buildInfo, os.Args[1:], os.Stdout, os.Stderr)
	if code >= 0 {
		os.Exit(code)
	}
	// In the supervisor and in every child alike, before any signature.
	signature.SetStdUnderTest(strings.Split(cfg.info.Get(StdCoverInfoKey), ","))
	if os.Getenv(childEnv) == "1" {
		os.Unsetenv(childEnv)
		mode = cfg
		if w := os.Getenv(workerEnv); w != "" {
			os.Unsetenv(workerEnv)
			spec, err := decodeWorkerSpec(w)
			if err != nil {
				fmt.Fprintf(os.Stderr, "gfz: %v\n", err)
				os.Exit(childExitBase + ExitUsage)
			}
			cfg.worker = spec
		} else {
			statusPipe = os.NewFile(childStatusFD, "gfz-status")
		}
		os.Args = []string{os.Args[0], "-test.run=^" + cfg.run.Target + "$", "-test.timeout=0"}
		if os.Getenv(childTestV) == "1" {
			os.Unsetenv(childTestV)
			os.Args = append(os.Args, "-test.v=true") // its "--- SKIP" line says whether the target skipped itself
		}
		return
	}
	if cfg.lf != nil {
		os.Exit(runLibFuzzer(cfg))
	}
	if len(cfg.repro) > 0 {
		os.Exit(superviseRepro(cfg))
	}
	os.Exit(cfg.withReport(superviseWorkers))
}

// Active reports whether this process is the child of a fuzz binary, in
// which gfz.Fuzz must hand its target to Fuzz.
func Active() bool { return mode != nil }

// Target is a fuzz target as the driver runs it; package gfz implements
// it over the function passed to gfz.Fuzz.
type Target interface {
	// Executor returns the executor the engine fuzzes.
	Executor() engine.Executor
	// Repro returns an executor for -repro that formats values when they
	// are drawn and keeps the logs; onRead (if not nil) is called with the
	// number of parameter bytes read after every read, onValue with every
	// top-level value drawn, formatted.
	Repro(onRead func(pos int), onValue func(label, text string)) Repro
}

// Repro runs -repro inputs one at a time.
type Repro interface {
	Exec(params []byte) engine.Outcome
	Values() string // the values of the last execution, one "label = value" line each
	Logs() []string // its Log/Logf lines
}

// Fuzz is gfz.Fuzz in a child process: it collects the seed corpus, runs
// the engine (a worker) or the -repro inputs, and exits.
func Fuzz(f *testing.F, t Target) {
	f.Helper()
	mode.fuzz(f, t)
}

// ExitChild ends a child process of a fuzz binary with the given exit
// status (ExitOK, ExitFailure, ExitUsage), offset as the parent expects.
// For a usage error a worker first tells its supervisor that the exit is
// deliberate (engine.WorkerExiting): in the middle of an execution it ends
// the run with that status instead of being saved as a crash. A failure
// there (the executor's exit for a runtime.Goexit) is the crash the
// supervisor saves.
func ExitChild(status int) {
	if status == ExitUsage {
		engine.WorkerExiting()
	}
	os.Exit(childExitBase + status)
}
