package engine

import (
	"context"
	"errors"
	"os/exec"
	"time"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// SupervisorConfig configures Supervise. Its Config holds the run's
// options, the same value every worker's Run gets (the fuzz binary's flags
// fill it once): Supervise reads Target, Engine, Seed (worker 0's first
// process; the others derive theirs from it), Runs (total over all
// workers), Time, Timeout (a worker stuck in one execution this long is
// killed and its input saved as a TIMEOUT failure; 0: calibrated;
// NoTimeout: none), Workdir (shared by all workers), MaxInputSize (the
// workers' cap too), Status (status
// lines, failure reports, warnings, the final summary and the workers'
// "gfz:" messages; nil: none), StatusInterval, and ShrinkRuns and
// ShrinkTime for the failures that kill a worker (each candidate one
// -repro process, through Probe; ShrinkRuns 0 there means
// DefaultDeathShrinkRuns, not DefaultShrinkRuns). The other fields of
// Config are the workers' alone.
type SupervisorConfig struct {
	Config
	// DictionaryFile, if not empty, is written to WORKDIR/dictionary
	// (workdir.DictionaryFileName) once the run holds the work directory: the
	// generators' dictionary in the -dict format, which a failure's input
	// needs to decode into the same values under plain go test.
	DictionaryFile []byte
	// RSSLimitMB kills a worker whose resident set exceeds this many MiB
	// (0: no limit); the input it was running is saved as an "out of
	// memory" failure.
	RSSLimitMB int
	Workers    int // number of worker processes (0: 1)
	// Verbose forwards everything workers write on stderr, not only their
	// "gfz:" messages.
	Verbose bool
	// Command returns the (not yet started) command of one worker process.
	// Supervise sets its Stderr (and, on Linux, a parent-death signal).
	Command func(w WorkerSpec) *exec.Cmd
	// ErrorExit is the exit status by which a worker reports a usage or
	// setup error or a failed run (for example a failure it could not
	// save); Supervise then stops and returns an error.
	ErrorExit int
	// Describe, when set, re-runs one input in a fresh process the way
	// -repro does, with the per-input timeout, and returns what it found
	// (Rerun): the generated values as they were drawn (report text,
	// possibly partial when the process died mid-execution), how many
	// bytes of input the execution had read when it ended, crashed or hung,
	// and whether it ran past the timeout. The supervisor uses it for each
	// new failure that killed a worker: the report shows the values, the
	// input is saved trimmed to the bytes read, and a timeout or an
	// out-of-memory death that the re-run does not repeat is kept aside as
	// unconfirmed instead of being reported (see docs/ENGINE.md, "Timeouts"
	// and "What a worker can die of"). nil: such reports have no values,
	// inputs are saved as published (extended to the size cap) and every
	// timeout and out-of-memory death is reported.
	Describe func(ctx context.Context, input []byte, timeout time.Duration) (Rerun, error)
	// NewFailure, when set, is called (in the supervisor's goroutine) with
	// the path of each new failure's saved input, failures/<hash>.input,
	// once the failure is saved: at once for a worker's death the
	// supervisor saves; for a failure a worker saved, once the worker has
	// shrunk it (or it is not one the worker shrinks), or at the end of
	// the run. The supervisor prints the note it
	// returns (if not empty) and records an error as a problem of the run.
	// The fuzz binary's -regress uses it.
	NewFailure func(input string) (note string, err error)
	// Inited, when set, is called once (in the supervisor's goroutine),
	// at the first status tick after a worker has run all of its seeds
	// and corpus entries, with the executions, coverage and corpus
	// entries of the run so far. libFuzzer mode prints its INITED line.
	Inited func(execs, cov int64, corpus int)
	// Codec writes and reads the input files of the work directory (nil:
	// workdir.BytesCodec); it must be the codec of the workers' executor (see
	// CodecExecutor).
	Codec workdir.Codec
	// Probe, when set, runs one input in a fresh -repro process as Describe
	// does and returns the signature of the death it ended in
	// (signature.DeathSignature; "" if it did not kill the process), the
	// end of its output when it died (for a hang, the goroutine stacks it
	// printed on SIGQUIT, which tell the hang's loop however its
	// interruption fell: shrink_crash.go) and the bytes it had read. The supervisor shrinks each new failure that killed a
	// worker with it (shrink_crash.go), each candidate one process, within
	// ShrinkRuns candidates (0: DefaultDeathShrinkRuns) and ShrinkTime
	// (0: DefaultShrinkTime); NoShrink in either turns it off.
	Probe func(ctx context.Context, input []byte, timeout time.Duration) (sig, trace string, consumed int, err error)
}

// Rerun is what re-running one input in a fresh process found
// (SupervisorConfig.Describe).
type Rerun struct {
	// Values are the generated values as drawn, in the report's format.
	Values string
	// Consumed is how many bytes of input the execution had read when it
	// ended (-1: unknown).
	Consumed int
	// TimedOut tells that the execution ran for more than the timeout and
	// was stopped.
	TimedOut bool
	// Signature is the signature of the death the re-run ended in, as
	// signature.DeathSignature gives it ("" if the input ran to its end, or unknown).
	Signature string
	// Trace is the end of the re-run's output when it timed out: the
	// goroutine stacks it printed on SIGQUIT (signature.HangOf compares
	// them with the worker's).
	Trace string
	// Dictionary tells that the values drew from the fuzz binary's
	// dictionary (FailureInfo.Dictionary).
	Dictionary bool
	// Kind and Stack are the death of a re-run that died without timing
	// out (signature.Classify of its output): a worker stopped as hung
	// whose input, run alone, died otherwise is reported as that death.
	Kind, Stack string
	// Failed tells that the input, run alone, ran to its end and failed
	// (a recoverable failure: a panic, t.Fatal).
	Failed bool
}

// WorkerSpec tells a worker process what to do (passed by
// SupervisorConfig.Command, typically through the environment).
type WorkerSpec struct {
	ID          int           // worker slot, 0..Workers-1
	Incarnation int           // 0 for the slot's first process, +1 per restart
	SharedMem   string        // Config.SharedMem
	Seed        int64         // Config.Seed
	Runs        int64         // Config.Runs (0: no limit)
	Time        time.Duration // Config.Time (0: no limit)
	Sync        bool          // Config.Sync
	Skip        []string      // Config.SkipInputs
	Avoid       [][]byte      // Config.AvoidInputs
	Resume      uint64        // Config.ResumeAfter
}

// ErrNoEngine is returned by Supervise when the first worker ended without
// reaching the engine (a fuzz target that does not call gfz.Fuzz, or one
// failing before that).
var ErrNoEngine = errors.New("the worker ended without running the engine")

// SkippedText is what a fuzz binary says, after "gfz: fuzz target
// <FuzzTarget> ", of a target that skipped itself (f.Skip) before gfz.Fuzz:
// gfz-run reads it to show the target skipped.
const SkippedText = "skipped itself before fuzzing (f.Skip)"

// NoEngineError is the ErrNoEngine of a run (errors.Is(err, ErrNoEngine)
// holds): Output is the end of what the worker wrote on stderr (a panic
// before gfz.Fuzz was called, the testing package's own messages), of
// which the supervisor forwarded only gfz's lines (all with Verbose).
type NoEngineError struct {
	Output string // what the worker printed
	Exit   string // how its process ended ("exit status 5")
}

func (e *NoEngineError) Error() string        { return ErrNoEngine.Error() }
func (e *NoEngineError) Is(target error) bool { return target == ErrNoEngine }
