package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
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
	for _, s := range f.cfg.Seeds {
		if f.done() {
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
	loaded := 0
	for _, path := range files {
		if f.done() {
			return
		}
		if f.seen != nil {
			f.seen[filepath.Base(path)] = true
		}
		data, err := f.wd.ReadInput(path)
		if err != nil {
			if f.shm == nil { // workers leave the report to the supervisor
				f.warnf("skipping corrupt corpus file: %v", err)
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
