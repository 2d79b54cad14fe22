package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"time"
)

// Starting a run: the seeds and the work directory's corpus, and importing
// other workers' corpus entries while it runs.

// init executes the seeds and the work directory's corpus, then makes sure
// the queue holds at least one input.
func (f *fuzzer) init() {
	var first []byte
	haveFirst := false
	run := func(data []byte, write bool) {
		t0 := time.Now()
		out := f.exec(data)
		f.slowest = max(f.slowest, time.Since(t0))
		f.calibrated++
		if !haveFirst && (out.Result == Valid || out.Result == Invalid) {
			first, haveFirst = append([]byte{}, out.Consumed...), true
		}
		f.handle(out, write)
	}
	skip := map[string]bool{}
	for _, h := range f.cfg.SkipInputs {
		skip[h] = true
	}
	skipped := func(data []byte) bool {
		if len(skip) == 0 {
			return false
		}
		return skip[skipKey(data)]
	}
	// The corpus the run resumes: the files there before the seeds run
	// (those the seeds save were just run; a run that stops before them
	// has still replayed all it had to: Summary.Partial).
	before, err := f.wd.CorpusFiles()
	if err != nil {
		f.err = err
		return
	}
	for _, s := range f.cfg.Seeds {
		if f.done() {
			f.replayCut = true
			return
		}
		if !skipped(s) {
			run(s, true)
		}
	}
	files, err := f.wd.CorpusFiles()
	if err != nil {
		f.err = err
		return
	}
	resumed := make(map[string]bool, len(before))
	for _, path := range before {
		resumed[path] = true
	}
	loaded := 0
	for i, path := range files {
		if !resumed[path] {
			// Saved by the seeds just run (or by another worker meanwhile:
			// syncCorpus imports it).
			continue
		}
		if f.done() {
			f.replayCut = slices.ContainsFunc(files[i:], func(p string) bool { return resumed[p] })
			return
		}
		if f.seen != nil {
			f.seen[filepath.Base(path)] = true
		}
		data, err := f.wd.ReadInput(path)
		if err != nil {
			if f.shm == nil { // workers leave the report to the supervisor
				f.warnf("%s", skippedCorpusText(err))
			}
			continue
		}
		if skipped(data) {
			continue
		}
		loaded++
		run(data, false)
	}
	if loaded > 0 && f.shm == nil {
		f.printf("gfz: resumed from %d corpus files in %s (%d kept)\n", loaded, f.wd.Corpus, f.corpusLen())
	}
	f.extSalt = resumeSalt(before)
	if !f.def.queue || len(f.queue) > 0 || f.done() {
		return
	}
	// Nothing added coverage (or there were no inputs): start from the
	// first input that ran, or from one random sequence (empty parameters
	// extended by the executor).
	if !haveFirst {
		run(nil, true)
		if len(f.queue) > 0 || f.stopped || f.err != nil {
			return
		}
	}
	if _, err := f.wd.SaveCorpus(first); err != nil {
		f.err = err
		return
	}
	f.enqueue(first, &merged{}, nil, false)
}

// syncEvery is how often a worker with cfg.Sync imports other workers'
// corpus entries.
const syncEvery = time.Second

// syncCorpus executes the corpus files this worker has not seen yet
// (written by other workers), keeping those that add coverage.
func (f *fuzzer) syncCorpus() {
	files, err := f.wd.CorpusFiles()
	if err != nil {
		return // transient (the directory is only read); try again later
	}
	for _, path := range files {
		name := filepath.Base(path)
		if f.seen[name] {
			continue
		}
		f.seen[name] = true
		data, err := f.wd.ReadInput(path)
		if err != nil {
			continue // corrupt: reported by the supervisor at start
		}
		if f.stopped || f.err != nil || f.stop.Load() || (f.cfg.Runs > 0 && f.execs >= f.cfg.Runs) {
			return
		}
		f.handle(f.exec(data), false)
	}
}

// skipKey is an input's name in Config.SkipInputs: its SHA-256 in hex.
func skipKey(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// A resumer's round robin over the queue can start after a given entry
// (resumeTurns).
type resumer interface {
	// resumeAfter makes q[i] the last parent of the round robin: the
	// next turn is the following entry's.
	resumeAfter(i int)
}

// resumeTurns starts the strategy's round robin after the queue entry
// whose trace is Config.ResumeAfter (the parent the worker's previous
// incarnation was making children of), if the queue holds one and the
// strategy has a round robin. Each incarnation of a worker replays the
// corpus in the same order; starting every one at the queue's start
// would give the first parents every turn and the last none when a
// target hangs or crashes every few seconds.
func (f *fuzzer) resumeTurns() {
	r, ok := f.strat.(resumer)
	if f.cfg.ResumeAfter == 0 || !ok {
		return
	}
	for i, e := range f.queue {
		if e.trace == f.cfg.ResumeAfter {
			r.resumeAfter(i)
			return
		}
	}
}

// A turnParent is a strategy with a round robin over the queue whose
// children are not byte edits of their parent (byteParent), which the
// loop still asks for the parent of the child just made, to publish it
// (noteParent): args.
type turnParent interface {
	turnParent() *entry
}

// turnParent is the queue entry whose turn made the last child (nil
// before the first turn).
func (s *argsTurns) turnParent() *entry {
	if !s.started || s.qi >= len(s.env.queue()) {
		return nil
	}
	return s.env.queue()[s.qi]
}

// argsTurns: its first pass over the queue starts after q[i] (the
// passes after it are whole).
func (s *argsTurns) resumeAfter(i int) { s.resumeFrom = i + 1 }

// noteParent publishes the parent of the next child to the supervisor
// (Config.ResumeAfter of the worker's next incarnation), when it changes.
func (f *fuzzer) noteParent(p *entry) {
	if p != f.lastParent && p != nil {
		f.lastParent = p
		if f.shm != nil {
			f.shm.put(offParent, p.trace)
		}
	}
}

func (s *zestTurns) resumeAfter(i int)   { s.qi, s.made = i, math.MaxInt }
func (s *eiTurns) resumeAfter(i int)     { s.zest.resumeAfter(i) }
func (s *bedivTurns) resumeAfter(i int)  { s.ei.resumeAfter(i) }
func (s *zeugmaTurns) resumeAfter(i int) { s.zest.resumeAfter(i) }

// classicTurns: the next turn, started when the current one has no
// children left, moves past q[i].
func (s *classicTurns) resumeAfter(i int) { s.qi, s.left, s.started = i, 0, true }

// fairTurns: both its rare-parent scan and its plain round robin.
func (s *fairTurns) resumeAfter(i int) { s.rare.qi, s.rr = i+1, i+1 }

// autoTurns: the turns schedule's round robin and the rare one's scan.
func (s *autoTurns) resumeAfter(i int) { s.qi, s.rare.qi = i, i+1 }

// skippedCorpusText is the warning for a corpus file that cannot be read:
// unreadable (permissions, I/O) or corrupt (not an input file).
func skippedCorpusText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) { // the file could not be read (its content was not looked at)
		return fmt.Sprintf("skipping unreadable corpus file: %v", err)
	}
	return fmt.Sprintf("skipping corrupt corpus file: %v", err)
}

// resumeSalt is the salt of a run's extension seeds after it replayed the
// corpus files resumed (their paths): a hash of their names, 0 for none.
// Without it a run resuming a work directory with the same -seed (1 unless
// given) would draw the extension bytes its predecessor drew, execution
// for execution past the replay: under random, whose every input is drawn
// from them, the same inputs again. A corpus the last run changed gives a
// new salt; one it left unchanged gives the same salt, and the same run
// (the -seed to give for another: gfz-run -ci draws one per run).
func resumeSalt(paths []string) int64 {
	if len(paths) == 0 {
		return 0
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		h.Write([]byte(n))
		h.Write([]byte{0})
	}
	return int64(binary.BigEndian.Uint64(h.Sum(nil)))
}
