// Package engine runs gfz's fuzzing loop: the engines that make each input
// (random, the default: fresh generation; zest; bytes; rl; fairfuzz; the
// structure-aware ei, bediv and zeugma, which mutate the call tree of
// generator draws; and auto, which chooses among the others' ways by
// bandits), coverage and its map scan, the feedback domains beside
// coverage (perf, mem, cmp, diff, the target's waypoints), seed
// generation, the stability recheck, the per-input timeout, the shrinking
// of failures, and, in a fuzz binary, the supervisor of worker processes
// that restarts crashed or hung workers and saves what killed them.
//
// The engine knows nothing about generators or the testing package: it
// mutates parameter sequences, hands them to an Executor, and reads the edge
// coverage of each execution from gfz's probe runtime. Its files are written
// through package workdir, its failures named by package signature.
package engine

import (
	"io"
	"time"

	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// Result classifies one execution.
type Result uint8

const (
	Valid   Result = iota // ran to completion
	Invalid               // an assumption was violated (t.Assume, t.Skip)
	Failure               // t.Fatal/t.Error, or a panic
	Timeout               // exceeded the per-input timeout
)

func (r Result) String() string {
	switch r {
	case Valid:
		return "VALID"
	case Invalid:
		return "INVALID"
	case Failure:
		return "FAILURE"
	case Timeout:
		return "TIMEOUT"
	}
	return "UNKNOWN"
}

// FailureInfo describes a failing execution (as its report records it).
type FailureInfo = workdir.FailureInfo

// Outcome is what an Executor reports for one execution.
type Outcome struct {
	Result Result
	// Consumed is the parameter sequence the execution actually read,
	// including PRNG extension bytes: saving it (trimmed input) replays
	// identically. It may alias executor storage until the next Exec.
	Consumed []byte
	// Record is the draw/span record of the execution (may be nil). It
	// aliases executor storage until the next Exec.
	Record *param.Record
	// Failure is set when Result is Failure or Timeout.
	Failure *FailureInfo
	// Waypoints are the values the target reported for the feedback
	// domains (T.Maximize, T.Minimize, T.DiffWithin), in call order. It
	// may alias executor storage until the next Exec.
	Waypoints []Waypoint
}

// A Waypoint is one value a target reported under a key in one execution
// (domain.go, waypoint.go): an input whose value improves the best value
// seen for its key is saved.
type Waypoint struct {
	Key   string
	Value float64
	Kind  WaypointKind
}

// WaypointKind tells how a Waypoint's values are compared.
type WaypointKind uint8

const (
	Maximize WaypointKind = iota // T.Maximize: larger is better
	Minimize                     // T.Minimize: smaller is better
	Diverge                      // T.DiffWithin: larger is better, only with -feedback diff
)

// Executor runs the fuzz target on one parameter sequence. extSeed seeds
// the PRNG that extends the sequence when the target reads past its end.
// The engine resets the coverage map before calling Exec and reads it after.
type Executor interface {
	Exec(params []byte, extSeed uint64) Outcome
}

// ValueDescriber is implemented by executors that can describe a failing
// input's generated values as they were drawn, before the target could
// modify them. The engine calls it once per new unique failure (not for
// every failing execution) and, when ok, reports that description instead
// of FailureInfo.Value. It re-runs the input; sig is the failure's
// signature, and ok is false when the re-run did not fail the same way.
type ValueDescriber interface {
	DescribeValues(params []byte, extSeed uint64, sig string) (values string, ok bool)
}

// BriefRepeater is implemented by executors that can skip formatting a
// failure whose signature they already reported in full (message, stack):
// a repeat then carries only its Kind and Signature. Run turns it on at
// its start, because it handles every failure it receives (saving the
// first of each signature, counting the others as known) and never needs
// a repeat's details.
type BriefRepeater interface {
	SetBriefRepeats(on bool)
}

// Config configures one fuzzing run. The zero value of every field selects
// its documented default.
type Config struct {
	Target string // fuzz target name (e.g. "FuzzModel"), used in messages and the stats file
	Engine string // a name from Engines(); "" is DefaultEngine ("random")
	Seed   int64  // seeds every random decision of the run; same Seed + same binary + same Runs => same corpus
	Runs   int64  // stop after this many executions (0: no limit)
	Time   time.Duration
	// Timeout is the per-input timeout: a hang is saved as a TIMEOUT
	// failure. 0 selects the calibrated default (see CalibratedTimeout);
	// NoTimeout turns it off.
	Timeout time.Duration
	Workdir string // holds corpus/, failures/, plot_data and stats; created if missing; resumed if present
	// Seeds are initial parameter sequences (f.Add seeds, testdata/fuzz files).
	Seeds [][]byte
	// Dictionary holds tokens (the code's literals) for the bytes engine's
	// dictionary mutations (see dict.go); a fuzz binary sets it for native
	// targets, whose arguments are raw bytes (gfz targets' generators use
	// the dictionary themselves).
	Dictionary [][]byte
	// Grimoire makes the engine args generalise the short []byte and
	// string arguments of the inputs it queues and make one kind of child
	// from their generalised forms (args_grimoire.go; the fuzz binary's
	// -grimoire).
	Grimoire bool
	// Restarted tells that the worker replaces one of its slot that died
	// (a later incarnation): args does not generalise its seeds again
	// (the same candidates in the same order would meet the same death).
	Restarted bool
	// SkipInputs are the SHA-256 sums (lower-case hex) of inputs that are
	// not replayed at start, among the seeds and the corpus: the
	// supervisor lists those a worker died on twice in a row as it
	// replayed them (killerInput), so that the slot does not die on them
	// again and again.
	SkipInputs []string
	// AvoidInputs are inputs (parameter bytes) that killed a worker with a
	// failure already saved: the engine does not run a child equal to one
	// (up to killerStreakLimit in a row), which would only cost a restart.
	AvoidInputs [][]byte
	// ResumeAfter, if not 0, is the trace hash (entry.trace) of the
	// parent the worker's previous incarnation was making children of
	// when it ended: the round robin over the queue starts after it
	// rather than at the queue's start (resume.go, resumeTurns). Without
	// it a worker restarted every few seconds (a target that hangs or
	// crashes often) would give the parents at the start of the replayed
	// corpus's order every turn and the others none.
	ResumeAfter uint64
	// MaxInputSize caps parameter sequences (0: param.DefaultMaxSize). For
	// a native target it grows to its longest seed, up to MaxNativeInput.
	MaxInputSize int
	// QuietSetup leaves the warnings about the run's setup (the same in
	// every worker: -feedback perf without exact counts, an oversized
	// seed) to another process: a fuzz binary sets it in every worker but
	// slot 0's first process, so that they are printed once, not once per
	// worker and again at every restart.
	QuietSetup bool
	// RecordBudget caps the bytes of call-tree records (tree.go) the
	// queue keeps for the whole run; past it a queued input's record is
	// made again, by one more execution, whenever the input is a parent.
	// 0: DefaultRecordBudget; negative: none kept.
	RecordBudget int64
	// StackLimitMB, if positive, limits every goroutine's stack in the
	// process to this many MiB (debug.SetMaxStack, process-wide; Run sets
	// it at its start, a fuzz binary in all its children). An endless
	// recursion then dies as a stack overflow within milliseconds, where
	// Go's default (1 GB on 64-bit systems) takes seconds and gigabytes and
	// loses the race with the per-input timeout or the memory limit. The
	// supervisor names the limit in a stack overflow's report. 0: Go's
	// default.
	StackLimitMB int
	// Status receives a status line every StatusInterval (default 3s) and a
	// final summary; nil disables status output.
	Status         io.Writer
	StatusInterval time.Duration
	// ReplayOnly ends the run once the seeds and the corpus are replayed
	// (libFuzzer's -runs=0): nothing is mutated.
	ReplayOnly bool
	// StopOnFailure ends the run at the first unique failure.
	StopOnFailure bool
	// NoRecheck disables the stability check: by default every input about
	// to be saved is executed a second time with the same extension seed,
	// and the edges whose hit-count class differs between the two runs are
	// counted as unstable (Summary.Stability).
	NoRecheck bool
	// ShrinkRuns and ShrinkTime bound the shrinking of each new failure
	// (shrink.go): candidate executions (0: DefaultShrinkRuns) and time
	// (0: DefaultShrinkTime). NoShrink in either turns shrinking off.
	ShrinkRuns int64
	ShrinkTime time.Duration
	// Feedback names the feedback domains used beside coverage (a subset
	// of FeedbackNames(): "perf", "mem", "cmp", "diff"; ParseFeedback
	// parses the fuzz binary's -feedback). The target's own waypoints
	// (T.Maximize, T.Minimize) are always used. cmp saves inputs that raise
	// a comparison site's matching bits and mutates with comparison
	// operands (cmp.go).
	Feedback []string

	// Worker mode (set by a fuzz binary's worker process, see Supervise).
	// SharedMem is the path of the shared-memory file the supervisor
	// created for this worker: the input of every execution is published
	// there before it runs, together with the worker's counters. In worker
	// mode the engine writes neither stats nor plot_data nor status lines
	// (the supervisor aggregates them), does not watch for timeouts (the
	// supervisor kills hung workers), and treats failures already saved
	// by another worker as known.
	SharedMem string
	// Sync makes the engine import, about once a second, the corpus
	// entries other workers wrote to corpus/ (executing each once, keeping
	// it if it adds coverage).
	Sync bool

	// Seed generation (seedgen.go): with SeedGen or SeedGenRuns set, the
	// run starts with a phase of SeedGenEngine ("rl" or "random"; "":
	// DefaultSeedGenEngine) that lasts until SeedGen has passed since the
	// start of the run, or for SeedGenRuns executions if that is set
	// (both count in Time and Runs); SeedFilter ("rnd", "par", "cho",
	// "cov"; "": DefaultSeedFilter) picks seeds among its valid inputs,
	// and Engine starts from them (after Seeds).
	SeedGen       time.Duration
	SeedGenRuns   int64
	SeedGenEngine string
	SeedFilter    string
}

// NoTimeout, as Config.Timeout or SupervisorConfig.Timeout, turns the
// per-input timeout off.
const NoTimeout time.Duration = -1

// Summary reports a finished run.
type Summary struct {
	Execs          int64
	Valid, Invalid int64
	Corpus         int // saved inputs
	TotalCov       int // (edge, bucket) keys covered by any input
	ValidCov       int // keys covered by valid inputs
	Failures       int // unique failures (by signature), including ones found by earlier runs in the work directory
	NewFailures    int // unique failures first found by this run
	Elapsed        time.Duration
	FailureFiles   []string // paths of the saved failures of this run
	// Stability is the percentage of covered edges whose hit-count class
	// was the same in both executions of every rechecked input (100 when
	// nothing was rechecked).
	Stability float64
	// Partial: the run stopped before it ran all of its seeds and its
	// work directory's corpus (a budget shorter than their replay, or an
	// interrupt): its coverage figures, and a coverage profile written
	// from it, stand for part of the corpus only. In a supervised run:
	// no worker ran all of them.
	Partial bool
	// Restarts counts worker processes restarted after a crash, a hang or
	// running out of memory (Supervise only).
	Restarts int
	// Errors lists problems that made the run incomplete (a failure or
	// corpus entry that could not be saved, a worker ending with an
	// error); a fuzz binary exits non-zero when it is not empty.
	Errors []string
}

// Recorder is implemented by executors that can keep the draw/span record
// of their executions (param.Record) in Outcome.Record. Engines that read
// records (the structure-aware ones) turn it on where they need it.
type Recorder interface {
	SetRecording(on bool)
}

// GuidedExecutor is implemented by executors that can run a guided
// execution (param.Source.ResetGuided): every draw takes its bytes from g
// by execution index. The outcome's Consumed is the sequence so drawn
// (replaying it as ordinary parameters decodes the same way) and Record
// is set.
type GuidedExecutor interface {
	ExecGuided(g param.Guide, extSeed uint64) Outcome
}

// MaxNativeInput bounds the inputs of a native target: its children's
// size limit grows to its longest seed up to this (1 MiB), and the
// supervisor keeps this much room for each worker's input in flight.
const MaxNativeInput = 1 << 20
