package driver

// libFuzzer command line: a fuzz binary also accepts the command line of a
// libFuzzer binary, so that ClusterFuzzLite and OSS-Fuzz, which drive
// libFuzzer-style binaries, can run it. See docs/CLI.md, "libFuzzer command
// line", and docs/CLUSTERFUZZ.md.

import (
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/proc"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/userdict"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// libFuzzerMarker is the symbol name OSS-Fuzz's and ClusterFuzzLite's
// helper scripts look for in a file of $OUT to tell a fuzz target from
// other files; a gfz fuzz binary carries it as a string.
var libFuzzerMarker = []byte("LLVMFuzzerTestOneInput")

// libFuzzer's exit statuses (its -error_exitcode and -timeout_exitcode
// defaults, and the fixed status of an out-of-memory report).
const (
	lfErrorExit   = 77
	lfTimeoutExit = 70
	lfOOMExit     = 71
)

// lfOwnFlags are the libFuzzer flags gfz implements that gfz's own command
// line does not have; any of them selects libFuzzer mode.
var lfOwnFlags = map[string]bool{
	"max_total_time": true, "artifact_prefix": true, "exact_artifact_path": true,
	"dict": true, "print_final_stats": true, "close_fd_mask": true, "merge": true,
	"error_exitcode": true, "timeout_exitcode": true, "set_cover_merge": true,
}

// lfIgnoredFlags are the other libFuzzer flags: accepted in -name=value
// form, with a note that they are ignored (ClusterFuzz passes many).
var lfIgnoredFlags = map[string]bool{
	"verbosity": true, "max_len": true, "len_control": true, "seed_inputs": true,
	"keep_seed": true, "cross_over": true, "cross_over_uniform_dist": true,
	"mutate_depth": true, "reduce_depth": true, "shuffle": true, "prefer_small": true,
	"help": true, "fork": true, "fork_corpus_groups": true, "ignore_timeouts": true,
	"ignore_ooms": true, "ignore_crashes": true,
	"stop_file": true, "merge_inner": true, "merge_control_file": true,
	"minimize_crash": true, "cleanse_crash": true, "minimize_crash_internal_step": true,
	"async_crash": true, "features_dir": true, "mutation_graph_file": true,
	"use_counters": true, "use_memmem": true, "use_value_profile": true, "use_cmp": true,
	"shrink": true, "reduce_inputs": true, "jobs": true, "reload": true,
	"report_slow_units": true, "only_ascii": true, "print_pcs": true,
	"print_funcs": true, "print_corpus_stats": true, "print_coverage": true,
	"print_full_coverage": true, "dump_coverage": true, "handle_segv": true,
	"handle_bus": true, "handle_abrt": true, "handle_ill": true, "handle_fpe": true,
	"handle_int": true, "handle_term": true, "handle_xfsz": true, "handle_usr1": true,
	"handle_usr2": true, "handle_winexcept": true, "detect_leaks": true,
	"purge_allocator_interval": true, "trace_malloc": true, "malloc_limit_mb": true,
	"exit_on_src_pos": true, "exit_on_item": true, "ignore_remaining_args": true,
	"focus_function": true, "entropic": true, "entropic_feature_frequency_threshold": true,
	"entropic_number_of_rarest_features": true, "entropic_scale_per_exec_time": true,
	"analyze_dict": true, "use_clang_coverage": true, "data_flow_trace": true,
	"collect_data_flow": true, "create_missing_dirs": true, "lazy_counters": true,
	"shmem": true, "runs_per_input": true, "exit_on_time": true, "handle_trap": true,
}

// libFuzzer is the libFuzzer-style part of a command line.
type libFuzzer struct {
	corpus          []string // positional directories: the first is written to
	inputs          []string // positional files: run each once
	artifactPrefix  string
	exactArtifact   string
	dict            string
	printFinalStats bool
	closeFDMask     int
	merge           bool
	errorExit       int
	timeoutExit     int
	seedZero        bool     // -seed=0 or -seed 0 (or no -seed): a random seed, as libFuzzer
	replayOnly      bool     // -runs=0: replay the seeds and corpus, do not fuzz
	notes           []string // ignored flags
	unknown         []string // -name=value flags neither gfz nor libFuzzer (as gfz knows it) has
	targetByExe     bool     // the target was chosen by the executable's name
	goCover         bool     // OSS-Fuzz's Go coverage run (libfuzzer_gocover.go)
	goCoverTarget   string   // the target its -test.run names

	mu       sync.Mutex
	failKind string // "crash", "timeout" or "oom": the first artefact written
	stop     context.CancelFunc
	// keepWork is set when an artefact could not be written: the
	// temporary work directory holds the only copy of the failing input
	// and is not removed.
	keepWork bool
}

// scanLibFuzzer picks the libFuzzer arguments out of args, given the gfz
// flag set fs (already defined) and the target test isTarget. It returns
// nil when args hold nothing that only libFuzzer's command line means, and
// otherwise the libFuzzer part and the arguments left for fs, translated
// where a name means the same in both (-max_total_time=S becomes -time=Ss,
// -timeout=S -timeout=Ss, -runs=-1 -runs=0).
//
// libFuzzer mode is entered when an argument is one of libFuzzer's own
// flags in -name=value form (lfOwnFlags, lfIgnoredFlags), a "--" argument
// (skipped: OSS-Fuzz's scripts write it before the flags), -timeout=N or
// -runs=N with a bare integer that gfz's flag would refuse (a duration
// without a unit, a negative count) or -runs=0 in that form (libFuzzer's
// replay-only; gfz's no-limit default needs no flag), or a positional argument that is not a
// fuzz target name (a corpus directory or an input file). With -repro
// among the arguments, positional arguments stay -repro files.
func scanLibFuzzer(args []string, fs *flag.FlagSet, isTarget func(string) bool) (*libFuzzer, []string, error) {
	lf := &libFuzzer{errorExit: lfErrorExit, timeoutExit: lfTimeoutExit}
	on := false
	repro := false
	for _, a := range args {
		n := strings.TrimLeft(a, "-")
		if strings.HasPrefix(a, "-") && (n == "repro" || strings.HasPrefix(n, "repro=")) {
			repro = true
		}
	}
	var rest, named []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			// OSS-Fuzz's run_fuzzer and bad_build_check put "--" before
			// the flags (binary -- -runs=4 ...); libFuzzer ignores every
			// argument that starts with "--" and goes on parsing, where
			// Go's flag package would take what follows for positional
			// arguments.
			on = true
			continue
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if repro {
				rest = append(rest, a)
				continue
			}
			if isTarget(a) {
				// After the flags, wherever it was: libFuzzer takes flags
				// and positional arguments in any order.
				named = append(named, a)
				continue
			}
			fi, err := os.Stat(a)
			switch {
			case err != nil:
				if lf.merge || len(lf.corpus) > 0 || !strings.HasPrefix(filepath.Base(a), "Fuzz") {
					return nil, nil, fmt.Errorf("%s: not a fuzz target, corpus directory or input file: %w (create a corpus directory first)", a, err)
				}
				rest = append(rest, a) // the flag checks say it is no target
				continue
			case fi.IsDir():
				lf.corpus = append(lf.corpus, a)
			default:
				lf.inputs = append(lf.inputs, a)
			}
			on = true
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if goCoverFlags[name] {
			if !hasValue {
				if i+1 >= len(args) {
					return nil, nil, fmt.Errorf("-%s needs a value", name)
				}
				i++
				value = args[i]
			}
			on = true
			if err := lf.goCoverFlag(name, value, isTarget); err != nil {
				return nil, nil, err
			}
			if name == "test.coverprofile" {
				rest = append(rest, "-coverprofile="+value)
			}
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if !hasValue {
				// A gfz flag, maybe followed by its value.
				rest = append(rest, a)
				if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !(ok && b.IsBoolFlag()) && i+1 < len(args) {
					i++
					rest = append(rest, args[i])
					if name == "seed" && args[i] == "0" {
						lf.seedZero = true // as -seed=0
					}
				}
				continue
			}
			switch name {
			case "timeout":
				if s, err := strconv.Atoi(value); err == nil {
					if s < 0 {
						s = 0
					}
					on = true
					a = "-timeout=" + strconv.Itoa(s) + "s"
				}
			case "runs":
				if r, err := strconv.ParseInt(value, 10, 64); err == nil && r <= 0 {
					// -1: no limit (gfz's 0); 0: libFuzzer's "run the
					// corpus, do not fuzz" (replayOnly).
					on = true
					lf.replayOnly = r == 0
					a = "-runs=0"
				}
			case "seed":
				if value == "0" {
					lf.seedZero = true
				}
			}
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			rest = append(rest, a) // the flag package names the unknown flag
			continue
		}
		if !lfOwnFlags[name] && !lfIgnoredFlags[name] {
			// In libFuzzer mode a warning, as libFuzzer gives for a flag it
			// does not know (a newer release's); otherwise gfz's error.
			lf.unknown = append(lf.unknown, a)
			continue
		}
		on = true
		if name == "help" && value != "0" {
			rest = append(rest, "-h") // gfz's usage, which names libFuzzer mode
			continue
		}
		if lfIgnoredFlags[name] {
			lf.notes = append(lf.notes, a)
			continue
		}
		intValue := func() (int, error) {
			v, err := strconv.Atoi(value)
			if err != nil {
				return 0, fmt.Errorf("-%s=%s: want an integer", name, value)
			}
			return v, nil
		}
		var err error
		switch name {
		case "max_total_time":
			var s int
			if s, err = intValue(); err == nil {
				rest = append(rest, "-time="+strconv.Itoa(max(s, 0))+"s")
			}
		case "artifact_prefix":
			lf.artifactPrefix = value
		case "exact_artifact_path":
			lf.exactArtifact = value
		case "dict":
			lf.dict = value
		case "print_final_stats":
			var v int
			v, err = intValue()
			lf.printFinalStats = v != 0
		case "close_fd_mask":
			lf.closeFDMask, err = intValue()
		case "merge", "set_cover_merge":
			// -set_cover_merge=1 (a merge that picks a smaller set of IN's
			// inputs) runs gfz's merge: a subset of IN that keeps every
			// feature, not a minimal one.
			var v int
			v, err = intValue()
			lf.merge = lf.merge || v != 0
		case "error_exitcode":
			lf.errorExit, err = intValue()
		case "timeout_exitcode":
			lf.timeoutExit, err = intValue()
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if !on {
		return nil, args, nil
	}
	rest = append(rest, named...)
	if lf.goCover {
		var err error
		if rest, err = lf.goCoverArgs(rest); err != nil {
			return nil, nil, err
		}
	}
	switch {
	case len(lf.inputs) > 0 && len(lf.corpus) > 0:
		return nil, nil, fmt.Errorf("give corpus directories or input files, not both (directories %s; files %s)", strings.Join(lf.corpus, ", "), strings.Join(lf.inputs, ", "))
	case lf.merge && len(lf.corpus) < 2:
		//lint:ignore ST1005 the message ends with the command line it expects
		return nil, nil, errors.New("-merge=1 needs an output corpus directory and at least one input directory: -merge=1 OUT IN...")
	case lf.merge && len(lf.inputs) > 0:
		return nil, nil, fmt.Errorf("-merge=1 takes directories, not files (%s)", strings.Join(lf.inputs, ", "))
	}
	return lf, rest, nil
}

// lfClockSeed is the seed of a libFuzzer-mode run without -seed or with
// -seed=0 (a variable for tests).
var lfClockSeed = func() int64 { return time.Now().UnixNano() & (1<<62 - 1) }

// applyLibFuzzer completes cfg for libFuzzer mode after the flags are
// parsed: set tells which gfz flags the command line gave.
func (c *config) applyLibFuzzer(set map[string]bool) error {
	lf := c.lf
	if !set["workers"] {
		c.workers = 1 // a libFuzzer binary is one process
	}
	if lf.seedZero || !set["seed"] {
		// libFuzzer's default, -seed=0: a new seed per run, printed. With
		// gfz's fixed default every ClusterFuzz bot and every session
		// would fuzz the same corpus the same way.
		c.run.Seed = lfClockSeed()
	}
	c.run.ReplayOnly = lf.replayOnly
	// libFuzzer stops at the first failure (a coverage run goes on past
	// failing inputs): each worker stops at the first it finds, and the
	// supervisor reports it before any later worker's death (a hang found
	// after it would otherwise be the artefact).
	c.run.StopOnFailure = !lf.goCover
	if !lf.goCover && !lf.merge && len(lf.inputs) == 0 {
		// Where the artefact goes is checked before fuzzing, as libFuzzer
		// does: found at the crash, a missing directory left the testcase
		// out of the run's output (ClusterFuzz filed an empty one).
		if err := lf.checkArtifactDir(); err != nil {
			return err
		}
	}
	if !set["workdir"] {
		c.run.Workdir = "" // the parent makes a temporary one
	}
	c.workdirSet = set["workdir"]
	if lf.closeFDMask&1 != 0 {
		c.stdout = io.Discard
	}
	if lf.closeFDMask&2 != 0 {
		c.verbose = false // the workers' stderr is not forwarded
	}
	if lf.dict != "" {
		tokens, err := ReadDictionary(lf.dict)
		if err != nil {
			return err
		}
		// An empty dictionary is not an error (libFuzzer takes it), but
		// a run without the tokens its user meant to give must say so.
		if len(tokens) == 0 {
			fmt.Fprintf(c.stderr, "INFO: gfz: -dict=%s has no entries (only blank lines and comments): fuzzing without a dictionary\n", lf.dict)
		}
		userdict.Set(tokens)
	}
	c.repro = append(c.repro, lf.inputs...)
	// The target is known only after the flags: read with its codec then.
	readInputFile = func(path string) ([]byte, error) { return readNativeOrRaw(c.codec(), path) }
	return nil
}

// runLibFuzzer runs a command line in libFuzzer mode in the process the
// user started and returns the exit status.
func runLibFuzzer(cfg *config) int {
	lf := cfg.lf
	_ = libFuzzerMarker[0]
	for _, n := range lf.notes {
		fmt.Fprintf(cfg.stderr, "INFO: gfz: libFuzzer flag %s ignored\n", n)
	}
	for _, n := range lf.unknown {
		fmt.Fprintf(cfg.stderr, "WARNING: unrecognized flag '%s'; gfz ignores it (gfz -h lists its flags and the libFuzzer flags it takes)\n", n)
	}
	switch {
	case lf.merge:
		return lf.superviseMerge(cfg)
	case len(cfg.repro) > 0:
		return lf.runInputs(cfg)
	}
	return lf.fuzz(cfg)
}

// runInputs runs the positional input files (as -repro) and maps the
// result to libFuzzer's exit statuses.
func (lf *libFuzzer) runInputs(cfg *config) int {
	for _, f := range cfg.repro {
		fmt.Fprintf(cfg.stderr, "Running: %s\n", f)
	}
	code := superviseRepro(cfg)
	if code != ExitFailure {
		return code
	}
	switch lf.kind() {
	case "timeout":
		return lf.timeoutExit
	case "oom":
		return lfOOMExit
	}
	return lf.errorExit
}

func (lf *libFuzzer) kind() string {
	lf.mu.Lock()
	defer lf.mu.Unlock()
	return lf.failKind
}

func (lf *libFuzzer) setKind(k string) {
	lf.mu.Lock()
	if lf.failKind == "" {
		lf.failKind = k
	}
	lf.mu.Unlock()
}

// fuzz runs the campaign: the corpus directories' inputs are imported into
// the work directory's corpus, the run stops at the first failure (whose
// artefact it writes), and the work directory's corpus is written back
// into the first corpus directory.
func (lf *libFuzzer) fuzz(cfg *config) int {
	if !cfg.workdirSet {
		tmp, err := os.MkdirTemp("", "gfz-libfuzzer-")
		if err != nil {
			fmt.Fprintf(cfg.stderr, "gfz: work directory: %v\n", err)
			return ExitUsage
		}
		defer func() {
			lf.mu.Lock()
			keep := lf.keepWork
			lf.mu.Unlock()
			if !keep {
				os.RemoveAll(tmp)
			}
		}()
		cfg.run.Workdir = tmp
		cfg.childArgs = append(cfg.lfChildBase(), "-workdir="+tmp)
	} else {
		cfg.childArgs = cfg.lfChildBase()
	}
	corpusDir := filepath.Join(cfg.run.Workdir, "corpus")
	n, err := importCorpora(lf.corpus, corpusDir, cfg.codec())
	if err != nil {
		fmt.Fprintf(cfg.stderr, "gfz: %v\n", err)
		return ExitUsage
	}
	fmt.Fprintf(cfg.stderr, "INFO: Seed: %d\n", cfg.run.Seed)
	fmt.Fprintf(cfg.stderr, "INFO: gfz %s engine on %s, %d inputs from %d corpus directories\n", cfg.run.Engine, cfg.run.Target, n, len(lf.corpus))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lf.stop = cancel
	cfg.ctx = ctx
	if !lf.goCover {
		// A coverage run goes on past a failing input, as OSS-Fuzz's
		// coverage runner does, and writes no artefact.
		cfg.onNewFailure = func(input string) (string, error) { return "", lf.writeArtifact(cfg, input) }
	}
	start := time.Now()
	cfg.onInited = func(execs, cov int64, corpus int) {
		// libFuzzer's line at the end of the corpus's replay, which
		// ClusterFuzz's statistics look for (without it every session
		// counted as a crash at startup). cov and ft are gfz's covered
		// probes; the corpus's size in bytes is not counted (0b).
		secs := max(time.Since(start).Seconds(), 1)
		fmt.Fprintf(cfg.stderr, "#%d\tINITED cov: %d ft: %d corp: %d/0b exec/s: %d rss: %dMb\n",
			execs, cov, cov, corpus, int64(float64(execs)/secs), proc.RSS(os.Getpid())>>20)
	}
	code := cfg.withReport(superviseWorkers)
	added := 0
	// -runs=0 (a replay) writes nothing into the first corpus directory,
	// as libFuzzer: not even the generated input an empty corpus runs.
	if len(lf.corpus) > 0 && !lf.goCover && !lf.replayOnly {
		if added, err = exportCorpus(corpusDir, lf.corpus[0], cfg.codec()); err != nil {
			fmt.Fprintf(cfg.stderr, "gfz: %v\n", err)
			code = ExitUsage
		}
	}
	if code == ExitOK {
		lf.done(cfg)
	}
	if lf.printFinalStats {
		lf.finalStats(cfg, added)
	}
	if code == ExitFailure {
		switch lf.kind() {
		case "timeout":
			return lf.timeoutExit
		case "oom":
			return lfOOMExit
		}
		return lf.errorExit
	}
	return code
}

// done prints the line libFuzzer ends a run without failure with, "Done N
// runs in S second(s)", which OSS-Fuzz's bad_build_check looks for after
// -runs=4 to tell a working fuzzer from one that crashed or exited at
// startup.
func (lf *libFuzzer) done(cfg *config) {
	var execs int64
	var secs int64
	if s := cfg.summary; s != nil {
		execs, secs = s.Execs, int64(s.Elapsed/time.Second)
	}
	fmt.Fprintf(cfg.stderr, "Done %d runs in %d second(s)\n", execs, secs)
}

// finalStats prints libFuzzer's -print_final_stats=1 lines.
func (lf *libFuzzer) finalStats(cfg *config, added int) {
	var execs int64
	var secs float64
	if s := cfg.summary; s != nil {
		execs, secs = s.Execs, s.Elapsed.Seconds()
	}
	perSec := int64(0)
	if secs > 0 {
		perSec = int64(float64(execs) / secs)
	}
	w := cfg.stderr
	fmt.Fprintf(w, "stat::number_of_executed_units: %d\n", execs)
	fmt.Fprintf(w, "stat::average_exec_per_sec:     %d\n", perSec)
	fmt.Fprintf(w, "stat::new_units_added:          %d\n", added)
	fmt.Fprintf(w, "stat::slowest_unit_time_sec:    0\n")
	fmt.Fprintf(w, "stat::peak_rss_mb:              %d\n", childrenPeakRSSMB())
}

// checkArtifactDir reports an -artifact_prefix or -exact_artifact_path
// whose directory does not exist.
func (lf *libFuzzer) checkArtifactDir() error {
	flag, dir := "-artifact_prefix", ""
	switch {
	case lf.exactArtifact != "":
		flag, dir = "-exact_artifact_path", filepath.Dir(lf.exactArtifact)
	case strings.HasSuffix(lf.artifactPrefix, "/") || strings.HasSuffix(lf.artifactPrefix, string(filepath.Separator)):
		dir = lf.artifactPrefix
	case lf.artifactPrefix != "":
		dir = filepath.Dir(lf.artifactPrefix) // a prefix of file names, "out/run1-"
	default:
		return nil
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		if err == nil {
			err = errors.New("not a directory")
		}
		return fmt.Errorf("%s: the directory %s for the artefacts: %v (create it first)", flag, dir, err)
	}
	return nil
}

// artifactPath is where an artefact of kind ("crash", "timeout", "oom")
// with content data goes: -exact_artifact_path, or -artifact_prefix
// followed by kind-<sha1 of data>, as libFuzzer names it.
func (lf *libFuzzer) artifactPath(kind string, data []byte) string {
	if lf.exactArtifact != "" {
		return lf.exactArtifact
	}
	sum := sha1.Sum(data)
	return lf.artifactPrefix + kind + "-" + hex.EncodeToString(sum[:])
}

// writeArtifact is the supervisor's NewFailure hook in libFuzzer mode: it
// writes the failure's parameter bytes as a libFuzzer artefact, prints the
// report in the form ClusterFuzz's parsers read (the Go panic and stack,
// then libFuzzer's ERROR, SUMMARY and "Test unit written to" lines) and
// stops the run, as libFuzzer stops at its first crash.
func (lf *libFuzzer) writeArtifact(cfg *config, input string) error {
	defer lf.stop()
	if lf.kind() != "" {
		// Found before the run stopped: libFuzzer reports one failure per
		// run. gfz's own report lines above name it.
		return nil
	}
	data, err := readNativeOrRaw(cfg.codec(), input)
	if err != nil {
		return fmt.Errorf("libFuzzer artefact: %w", err)
	}
	rep := readFailureReport(strings.TrimSuffix(input, ".input") + ".txt")
	kind := artifactKind(rep)
	path := lf.artifactPath(kind, data)
	// The crash is reported (and the run exits with its status) whether or
	// not the artefact can be written: an unwritable -artifact_prefix must
	// not turn a crash into a broken fuzzer, and the failing input must
	// not go with the temporary work directory.
	werr := workdir.WriteFileAtomic(path, data)
	lf.setKind(kind)
	var b strings.Builder
	writeCrashBlock(&b, rep, kind, cfg)
	fmt.Fprintf(&b, "MS: 0 ; base unit: 0000000000000000000000000000000000000000\n")
	if werr != nil {
		lf.mu.Lock()
		lf.keepWork = true
		lf.mu.Unlock()
		fmt.Fprintf(&b, "gfz: WARNING: the artefact could not be written (-artifact_prefix %q): %v; the failing input is kept at %s\n", lf.artifactPrefix, werr, input)
	} else {
		fmt.Fprintf(&b, "artifact_prefix='%s'; Test unit written to %s\n", lf.artifactPrefix, path)
	}
	if len(data) <= 4096 {
		fmt.Fprintf(&b, "Base64: %s\n", base64.StdEncoding.EncodeToString(data))
	}
	_, _ = io.WriteString(cfg.stderr, b.String())
	return nil
}

// failureReport holds the fields of a failures/<hash>.txt report that the
// libFuzzer output needs.
type failureReport struct {
	result, kind, message, stack string
}

// readFailureReport parses a gfz failure report leniently (an unreadable
// one gives an empty report: the artefact is still written).
func readFailureReport(path string) failureReport {
	data, err := os.ReadFile(path)
	if err != nil {
		return failureReport{}
	}
	rf, _ := workdir.ParseReport(data)
	if rf == nil {
		return failureReport{}
	}
	get := func(name string) string {
		if s := rf.Sections[name]; strings.TrimSpace(s) != "(none)" {
			return s
		}
		return ""
	}
	return failureReport{result: rf.Get("result"), kind: rf.Get("kind"), message: get("message"), stack: get("stack")}
}

// artifactKind names the artefact of a failure as libFuzzer does.
func artifactKind(r failureReport) string {
	switch {
	case r.result == engine.Timeout.String() || r.kind == signature.KindTimeout:
		return "timeout"
	case r.kind == signature.KindOutOfMemory:
		return "oom"
	}
	return "crash"
}

var mibRE = regexp.MustCompile(`(\d+) MiB`)

// writeCrashBlock writes libFuzzer's ERROR line for kind, the Go-style
// failure (panic line and goroutine stack) and the SUMMARY line, in
// libFuzzer's order: ClusterFuzz's parser takes the crash state from the
// frames after the ERROR line (for a t.Fatal, a hang or a death; a Go
// panic is recognised on either side).
func writeCrashBlock(b *strings.Builder, r failureReport, kind string, cfg *config) {
	pid := os.Getpid()
	switch {
	case kind == "timeout":
		secs := timeoutSeconds(r, cfg)
		fmt.Fprintf(b, "ALARM: working on the last Unit for %d seconds\n       and the timeout value is %d (use -timeout=N to change)\n", secs, secs)
		fmt.Fprintf(b, "==%d== ERROR: libFuzzer: timeout after %d seconds\n", pid, secs)
		writeGoStack(b, r)
		fmt.Fprintf(b, "SUMMARY: libFuzzer: timeout\n")
	case kind == "oom":
		used := cfg.rssLimitMB + 1
		if m := mibRE.FindStringSubmatch(r.message); m != nil {
			used, _ = strconv.Atoi(m[1])
		}
		fmt.Fprintf(b, "==%d== ERROR: libFuzzer: out-of-memory (used: %dMb; exceeds: %dMb)\n", pid, used, cfg.rssLimitMB)
		writeGoStack(b, r)
		fmt.Fprintf(b, "SUMMARY: libFuzzer: out-of-memory\n")
	case strings.HasPrefix(r.kind, "exit status "):
		// os.Exit in the target: libFuzzer's words for a target that
		// exits (ClusterFuzz's type Unexpected-exit, not a signal).
		fmt.Fprintf(b, "==%d== ERROR: libFuzzer: fuzz target exited\n", pid)
		writeGoStack(b, r)
		fmt.Fprintf(b, "SUMMARY: libFuzzer: fuzz target exited\n")
	default:
		fmt.Fprintf(b, "==%d== ERROR: libFuzzer: deadly signal\n", pid)
		writeGoStack(b, r)
		fmt.Fprintf(b, "SUMMARY: libFuzzer: deadly signal\n")
	}
}

// writeGoStack writes the failure as the Go runtime prints a panic: a
// "panic: ..." line (the kind and message), a blank line and the stack
// under a "goroutine N [running]:" header. A stack that is the output of a
// dying process (it has goroutine headers and its own "panic:", "fatal
// error:" or "SIGQUIT:" line) is written as it is, but for the frames'
// argument lists and the goroutines' order (clusterFuzzStack).
func writeGoStack(b *strings.Builder, r failureReport) {
	st := clusterFuzzStack(strings.TrimRight(r.stack, "\n"))
	hasGoroutines := strings.HasPrefix(st, "goroutine ") || strings.Contains(st, "\ngoroutine ")
	if hasGoroutines && goHeadRE.MatchString(st) {
		b.WriteString(st + "\n\n")
		return
	}
	head := r.kind
	if strings.HasPrefix(head, "panic: ") || head == "" {
		head = "panic: " + strings.TrimRight(r.message, "\n")
	} else if r.message != "" {
		head = head + ": " + strings.TrimRight(r.message, "\n")
	}
	b.WriteString(head + "\n\n")
	if !hasGoroutines {
		b.WriteString("goroutine 1 [running]:\n")
	}
	if st != "" {
		b.WriteString(st + "\n")
	}
	b.WriteString("\n")
}

// goHeadRE matches the line by which the Go runtime starts the report of
// a dying process.
var goHeadRE = regexp.MustCompile(`(?m)^(panic: |fatal error: |SIGQUIT: |SIG[A-Z]+: |runtime: )`)

// timeoutSeconds is the per-input timeout of a timeout failure in whole
// seconds (at least 1), as libFuzzer prints it: read from the report's
// message ("ran for more than D"), else -timeout.
func timeoutSeconds(r failureReport, cfg *config) int {
	d := cfg.reproTimeout()
	if m := moreThanRE.FindStringSubmatch(r.message + " " + r.kind); m != nil {
		if v, err := time.ParseDuration(m[1]); err == nil {
			d = v
		}
	}
	return max(1, int(d.Round(time.Second)/time.Second))
}

var moreThanRE = regexp.MustCompile(`more than ([0-9][0-9.]*[a-zµ]+)`)

// reproFailure prints, in libFuzzer mode, the lines ClusterFuzz's parsers
// read after an input run as a file argument failed in the child.
func reproFailure(w io.Writer, fi *engine.FailureInfo, result engine.Result) {
	var b strings.Builder
	r := failureReport{result: result.String(), kind: fi.Kind, message: fi.Message, stack: fi.Stack}
	fmt.Fprintf(&b, "==%d== ERROR: libFuzzer: deadly signal\n", os.Getpid())
	writeGoStack(&b, r)
	fmt.Fprintf(&b, "SUMMARY: libFuzzer: deadly signal\n")
	_, _ = io.WriteString(w, b.String())
}

// reproDeath prints the libFuzzer lines for an input that killed the -repro
// child (a crash, a timeout, memory) and records the kind for the exit
// status.
func (lf *libFuzzer) reproDeath(cfg *config, st *childState) {
	kind := "crash"
	switch st.kill {
	case signature.KindTimeout:
		kind = "timeout"
	case signature.KindOutOfMemory:
		kind = "oom"
	}
	lf.setKind(kind)
	r := failureReport{kind: st.crashKind(), stack: goCrashReport(st.tail)}
	if kind == "oom" {
		r.message = fmt.Sprintf("resident memory %d MiB", st.rss>>20)
	}
	var b strings.Builder
	writeCrashBlock(&b, r, kind, cfg)
	_, _ = io.WriteString(cfg.stderr, b.String())
}

// goCrashReport is the Go runtime's report of a dying process at the end of
// its stderr tail (from its "panic:", "fatal error:" or "SIGQUIT:" line
// on), "" if there is none: the child printed it before the parent's ERROR
// line, and ClusterFuzz's parser takes the crash state from the frames
// after that line (a reproduced timeout's state was NULL).
func goCrashReport(tail string) string {
	// The last such line that goroutine traces follow: an earlier one may
	// be text the target printed, or an earlier input's failure block.
	locs := goHeadRE.FindAllStringIndex(tail, -1)
	for i := len(locs) - 1; i >= 0; i-- {
		if rest := tail[locs[i][0]:]; strings.Contains(rest, "\ngoroutine ") {
			// The report's head line; a SIGQUIT dump's goroutines come
			// after its register lines, a panic's after a blank line.
			return rest
		}
	}
	return ""
}

// readInputFile reads a -repro input in libFuzzer mode: gfz's corpus
// format, or raw bytes (readNativeOrRaw). nil outside libFuzzer mode: the
// target's own file format (readInputFor).
var readInputFile func(path string) ([]byte, error)

// readNativeOrRaw reads an input file: a file in the target's own corpus
// format (codec: a native target's typed lines; nil: none) or in Go's
// native corpus format holding one []byte value is that value; any other
// file is its raw bytes, as libFuzzer's corpora and artefacts hold them.
func readNativeOrRaw(codec workdir.Codec, path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if codec != nil {
		if v, err := codec.DecodeFile(data); err == nil {
			return v, nil
		}
	}
	if v, err := workdir.DecodeInput(data); err == nil {
		return v, nil
	}
	return data, nil
}

// corpusFiles lists the regular files under dirs (recursively, sorted per
// directory).
func corpusFiles(dirs ...string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		// A corpus directory given as a symbolic link is followed (WalkDir
		// does not follow its root), and so is a link to a regular file
		// inside it, as libFuzzer reads them.
		root := d
		if r, err := filepath.EvalSymlinks(d); err == nil {
			root = r
		}
		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if strings.HasPrefix(e.Name(), ".") || e.IsDir() {
				return nil
			}
			regular := e.Type().IsRegular()
			if e.Type()&fs.ModeSymlink != 0 {
				if st, err := os.Stat(p); err == nil {
					regular = st.Mode().IsRegular()
				}
			}
			if regular {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("corpus directory %s: %w", d, err)
		}
	}
	return out, nil
}

// importCorpora copies every input of dirs into the engine's corpus
// directory (native format, named by the SHA-1 of the input), where the
// workers load them as a resumed corpus. It returns how many it read.
func importCorpora(dirs []string, corpusDir string, codec workdir.Codec) (int, error) {
	files, err := corpusFiles(dirs...)
	if err != nil || len(files) == 0 {
		return 0, err
	}
	if err := os.MkdirAll(corpusDir, 0o755); err != nil {
		return 0, fmt.Errorf("work directory: %w", err)
	}
	for _, f := range files {
		data, err := readNativeOrRaw(codec, f)
		if err != nil {
			return 0, fmt.Errorf("corpus input: %w", err)
		}
		sum := sha1.Sum(data)
		dst := filepath.Join(corpusDir, importPrefix+hex.EncodeToString(sum[:]))
		if _, err := os.Stat(dst); err == nil {
			continue
		}
		file := workdir.EncodeInput(data)
		if codec != nil {
			file = codec.EncodeFile(data) // the work directory holds the target's format
		}
		if err := workdir.WriteFileAtomic(dst, file); err != nil {
			return 0, fmt.Errorf("import corpus input %s: %w", f, err)
		}
	}
	return len(files), nil
}

// importPrefix starts the names of the corpus files importCorpora writes.
const importPrefix = "lf-"

// exportCorpus writes every input of the engine's corpus directory but
// those importCorpora wrote (that is, the new units) into dir as raw bytes
// named by their SHA-1 (libFuzzer's corpus layout), unless a file of that
// name is there already, and returns how many it wrote.
func exportCorpus(corpusDir, dir string, codec workdir.Codec) (int, error) {
	files, err := corpusFiles(corpusDir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), importPrefix) {
			continue // read from a corpus directory: not a new unit
		}
		data, err := workdir.ReadFileWith(codec, f)
		if err != nil {
			continue // a file the engine did not write
		}
		written, err := writeUnit(dir, data)
		if err != nil {
			return n, err
		}
		if written {
			n++
		}
	}
	return n, nil
}

// writeUnit writes data into dir as <sha1 of data> unless that file exists.
func writeUnit(dir string, data []byte) (bool, error) {
	sum := sha1.Sum(data)
	dst := filepath.Join(dir, hex.EncodeToString(sum[:]))
	if _, err := os.Stat(dst); err == nil {
		return false, nil
	}
	if err := workdir.WriteFileAtomic(dst, data); err != nil {
		return false, fmt.Errorf("corpus directory %s: %w", dir, err)
	}
	return true, nil
}

// sortedUnique keeps the first file of each content among files.
func sortedUnique(files []string, codec workdir.Codec) ([]string, [][]byte, error) {
	sort.Strings(files)
	seen := map[[20]byte]bool{}
	var names []string
	var datas [][]byte
	for _, f := range files {
		data, err := readNativeOrRaw(codec, f)
		if err != nil {
			return nil, nil, fmt.Errorf("corpus input: %w", err)
		}
		sum := sha1.Sum(data)
		if seen[sum] {
			continue
		}
		seen[sum] = true
		names, datas = append(names, f), append(datas, data)
	}
	return names, datas, nil
}

// flagsSet returns the names of the flags the command line set.
func flagsSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// targetFromExe picks the fuzz target of a binary with several targets
// from the executable's name, as OSS-Fuzz runs one binary per target: the
// target T whose name is the executable's base name, or ends it after '_',
// '-' or '.' (fuzz_FuzzParse, parser-FuzzParse). "" when none or several
// match.
func (c *config) targetFromExe() string {
	if len(os.Args) == 0 {
		return ""
	}
	base := filepath.Base(os.Args[0])
	found := ""
	for _, t := range c.targets {
		if base == t || strings.HasSuffix(base, "_"+t) || strings.HasSuffix(base, "-"+t) || strings.HasSuffix(base, "."+t) {
			if found != "" {
				return ""
			}
			found = t
		}
	}
	return found
}

// lfChildBase is the command line of the worker and merge processes in
// libFuzzer mode: the process's own, and the target when it was chosen by
// the executable's name, which a child does not share (it is started as
// os.Executable(), with symbolic links resolved: a fuzzer run through a
// link or a wrapper script named P_T).
func (c *config) lfChildBase() []string {
	args := append([]string(nil), os.Args[1:]...)
	if c.lf != nil && c.lf.targetByExe {
		args = append(args, c.run.Target)
	}
	return args
}

// chainNewFailure calls a, then b, on each new failure.
func chainNewFailure(a, b func(string) (string, error)) func(string) (string, error) {
	if a == nil {
		return b
	}
	return func(input string) (string, error) {
		note, err := a(input)
		note2, err2 := b(input)
		if note2 != "" {
			if note != "" {
				note += "\n"
			}
			note += note2
		}
		return note, errors.Join(err, err2)
	}
}

// lfChildArgs are the arguments that put a -repro child in libFuzzer mode
// (raw input files, libFuzzer's failure lines) with the same dictionary
// (the generators draw from it); none in gfz mode.
func (c *config) lfChildArgs() []string {
	if c.lf == nil {
		return nil
	}
	args := []string{"-close_fd_mask=" + strconv.Itoa(c.lf.closeFDMask)}
	if c.lf.dict != "" {
		args = append(args, "-dict="+c.lf.dict)
	}
	return args
}
