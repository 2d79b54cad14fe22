//go:build unix

package engine

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/gfz-dev/gfz/internal/proc"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// The supervisor's aggregate view of its workers: counters, coverage,
// stability, status lines, the stats file and the summary.

// totals sums the counters of every worker process so far.
func (s *supervisor) totals() counters {
	var t counters
	for _, sl := range s.slots {
		t.add(sl.dead)
		if sl.running {
			t.add(readCounters(sl.shm))
		}
	}
	return t
}

// noteCov keeps the largest coverage any worker reported (they share the
// corpus, so their coverage converges).
func (s *supervisor) noteCov(sl *slot) {
	s.maxCov = max(s.maxCov, int64(sl.shm.load(offTotalCov)))
	s.maxValidCov = max(s.maxValidCov, int64(sl.shm.load(offValidCov)))
	if sl.shm.load(offLoop)&loopReplayed != 0 {
		// (noted, for a worker that ends, before what it found is
		// announced: INITED comes before a failure found after the replay)
		if !s.replayed && s.cfg.Inited != nil {
			s.cfg.Inited(s.totals().execs, s.maxCov, s.corpusCount())
		}
		s.replayed = true
	}
	s.noteMetrics(sl)
}

// partial reports whether the run's coverage stands for part of its seeds
// and corpus only: it ran inputs, but no worker ran all of those (see
// Summary.Partial).
func (s *supervisor) partial() bool {
	return !s.replayed && s.totals().execs > 0
}

// supMetrics aggregates the workers' metrics (metrics.go): the counters
// of ended worker processes, summed, and the largest Hill numbers any
// worker reported. Each worker observes only its own executions, so the
// campaign's Hill numbers are reported as the largest of any worker's
// (per order), a lower bound of the Hill numbers of all the executions.
type supMetrics struct {
	ended metricsRow
}

// noteMetrics keeps the largest Hill numbers sl reported and, if its
// process has ended, folds its counters into the ended totals and zeroes
// them in its shared memory (so a later call adds nothing; the next
// process of the slot starts from zero anyway).
func (s *supervisor) noteMetrics(sl *slot) {
	m := &s.met.ended
	for i, off := range [3]int{offHillB0, offHillB1, offHillB2} {
		m.hill[i] = max(m.hill[i], math.Float64frombits(sl.shm.load(off)))
	}
	if sl.running {
		return
	}
	w := readMetrics(sl.shm)
	m.add(w)
	for off := offChildren; off < offMetricsEnd; off += 8 {
		sl.shm.store(off, 0)
	}
}

// readMetrics reads a worker's metric counters.
func readMetrics(sh *shm) metricsRow {
	return metricsRow{
		children: int64(sh.load(offChildren)), zero: int64(sh.load(offZeroMut)),
		distSum: math.Float64frombits(sh.load(offDistSum)), distN: int64(sh.load(offDistN)),
		distZero: int64(sh.load(offDistZero)),
	}
}

// metrics returns the campaign's metrics: the ended processes' counters
// plus the running ones', and the largest Hill numbers.
func (s *supervisor) metrics() metricsRow {
	for _, sl := range s.slots {
		s.noteMetrics(sl)
	}
	r := s.met.ended
	for _, sl := range s.slots {
		if sl.running {
			r.add(readMetrics(sl.shm))
		}
	}
	return r
}

// stability aggregates the workers' stability figures.
func (s *supervisor) stability() float64 {
	var edges, unstable uint64
	for _, sl := range s.slots {
		edges += sl.shm.load(offEdges)
		unstable += sl.shm.load(offUnstable)
	}
	if edges == 0 {
		return 100
	}
	return 100 * float64(edges-min(unstable, edges)) / float64(edges)
}

// corpusCount counts the entries of corpus/.
func (s *supervisor) corpusCount() int {
	files, _ := s.wd.CorpusFiles()
	return len(files)
}

// refreshKnown adds the failures workers saved to the known set, and
// announces those that are settled (workerFailure).
func (s *supervisor) refreshKnown() {
	known, err := s.wd.KnownFailures(func(string, ...any) {})
	if err != nil {
		return
	}
	for sig, p := range known {
		if _, ok := s.known[sig]; !ok {
			s.workerFailure(sig, p)
		}
	}
	s.announceSettled()
}

// foundFirst reports, for a run that stops at its first failure, whether a
// worker has saved a new one (read from the work directory now: the status
// tick may not have seen it yet).
func (s *supervisor) foundFirst() bool {
	s.refreshKnown()
	return len(s.known) > s.before
}

// workerFailure records a failure a worker saved (input path p). It is
// announced (newFailure: -regress's export, libFuzzer's artefact) once
// the worker has shrunk it: the worker saves a failure as soon as it is
// found and then replaces the input by the shrunk one, and an export of
// the unshrunk input would not be the file the run reports.
func (s *supervisor) workerFailure(sig, p string) {
	s.known[sig] = p
	if s.pending == nil {
		s.pending = map[string]string{}
	}
	s.pending[sig] = p
}

// announceSettled announces the pending failures whose reports are final:
// shrunk (or not to be shrunk), or all of them once the run has ended.
func (s *supervisor) announceSettled() {
	var ready []string
	for sig, p := range s.pending {
		if s.ended || s.settled(p) {
			ready = append(ready, p)
			delete(s.pending, sig)
		}
	}
	sort.Strings(ready) // reported in a deterministic order
	for _, p := range ready {
		s.newFailure(p)
	}
}

// settled reports whether the failure saved at p will not change: its
// report says how it was shrunk, or it is not shrunk (not a FAILURE: the
// worker shrinks only those; or shrinking is off).
func (s *supervisor) settled(p string) bool {
	if !shrinkBoundsOf(s.cfg.ShrinkRuns, s.cfg.ShrinkTime, DefaultShrinkRuns).enabled() {
		return true
	}
	txt, err := os.ReadFile(strings.TrimSuffix(p, ".input") + ".txt")
	if err != nil {
		return false
	}
	return bytes.Contains(txt, []byte("\nshrunk: ")) || !bytes.Contains(txt, []byte("\nresult: "+Failure.String()+"\n"))
}

// newFailure records the input path of a new failure and hands it to
// SupervisorConfig.NewFailure.
func (s *supervisor) newFailure(input string) {
	s.newFiles = append(s.newFiles, input)
	if s.cfg.NewFailure == nil {
		return
	}
	note, err := s.cfg.NewFailure(input)
	if err != nil {
		s.errorf("%v", err)
		return
	}
	if note != "" {
		s.printf("%s", note)
	}
}

func (s *supervisor) statusText(t counters, el time.Duration) string {
	return fmt.Sprintf("elapsed %v, execs %d (%.0f/s), valid %.1f%%, corpus %d, cov %d (valid %d), %s, workers %d, restarts %d, stability %.1f%%",
		el.Round(time.Second), t.execs, workdir.Rate(t.execs, el), workdir.Percent(t.valid, t.execs), s.corpusCount(),
		s.maxCov, s.maxValidCov, signature.FailuresText(s.known), len(s.slots), s.restarts, s.stability())
}

func (s *supervisor) status() {
	for _, sl := range s.slots {
		s.noteCov(sl)
	}
	s.refreshKnown()
	s.printf("gfz: %s\n", s.statusText(s.totals(), time.Since(s.start)))
	if err := s.writeStats("running"); err != nil {
		s.warnf("%v", err)
	}
}

// writeStats appends a plot_data row and rewrites stats and plot_data with
// the totals of all workers.
func (s *supervisor) writeStats(state string) error {
	s.refreshKnown()
	for _, sl := range s.slots {
		s.noteCov(sl)
	}
	t := s.totals()
	var rssWorkers int64
	for _, sl := range s.slots {
		if sl.running {
			rssWorkers += sl.RSS
		}
	}
	m := s.metrics()
	r := workdir.RunStats{
		Target: s.cfg.Target, Engine: engineName(s.cfg.Engine), State: state, Seed: s.cfg.Seed,
		Start: s.start, Now: time.Now(),
		Execs: t.execs, Valid: t.valid, Invalid: t.invalid, Failing: t.failing + int64(s.crashes), Rechecks: t.rechecks,
		Corpus: s.corpusCount(), TotalCov: s.maxCov, ValidCov: s.maxValidCov,
		UniqueFailures: len(s.known), NewFailures: len(s.known) - s.before, Stability: s.stability(),
		FailureSites: signature.CountSites(s.known), Timeout: s.timeout, TimeoutRule: s.timeoutRule,
		PlotCols: m.plotCols(),
	}
	return s.wd.WriteRunStats(r, func(kv func(string, any)) {
		m.keys(kv)
		kv("workers", len(s.slots))
		kv("restarts", s.restarts)
		kv("crashes", s.crashes)
		kv("timeouts", s.timeouts)
		kv("unconfirmed_timeouts", s.unconfirmed)
		kv("unconfirmed_ooms", s.unconfirmedOOM)
		kv("ooms", s.ooms)
		kv("rss_supervisor_kb", proc.SelfRSS()>>10)
		kv("rss_workers_kb", rssWorkers>>10)
		kv("errors", len(s.errs))
		if s.partial() {
			kv("partial", 1) // no worker has run all of its seeds and corpus entries yet, or the run ended so
		}
		for _, p := range mergeFeedback(readFeedbackFiles(s.wd.Root)) {
			kv(p.k, p.v)
		}
	})
}

func (s *supervisor) summary() *Summary {
	t := s.totals()
	files := append([]string(nil), s.newFiles...)
	sort.Strings(files)
	return &Summary{
		Execs: t.execs, Valid: t.valid, Invalid: t.invalid, Corpus: s.corpusCount(),
		TotalCov: int(s.maxCov), ValidCov: int(s.maxValidCov),
		Failures: len(s.known), NewFailures: len(s.known) - s.before,
		Elapsed: time.Since(s.start), FailureFiles: files,
		Stability: s.stability(), Restarts: s.restarts, Errors: append([]string(nil), s.errs...),
		Partial: s.partial(),
	}
}

func (s *supervisor) printFinal() {
	sum := s.summary()
	s.printf("gfz: done: %s\n", s.statusText(s.totals(), sum.Elapsed))
	m := s.metrics()
	s.printf("gfz: metrics: %s\n", m.text())
	kvs := mergeFeedback(readFeedbackFiles(s.wd.Root))
	for _, line := range append(armsSummary(kvs), feedbackSummary(kvs)...) {
		s.printf("gfz: %s\n", line)
	}
	if note := stabilityNote(sum.Stability, len(s.slots)); note != "" {
		s.printf("gfz: %s\n", note)
	}
	s.printf("gfz: %s; work directory %s\n", signature.FinalFailuresText(sum.NewFailures, s.known), s.wd.Root)
	for _, p := range sum.FailureFiles {
		s.printf("gfz:\tfailure: %s\n", p)
	}
	if s.unconfirmed > 0 {
		s.printf("gfz: %s not confirmed when re-run alone, not counted as failures (see the warnings above; inputs in %s)\n",
			signature.Plural(s.unconfirmed, "timeout"), s.wd.Unconfirmed)
	}
	if s.unconfirmedOOM > 0 {
		s.printf("gfz: %s not confirmed when re-run alone, not counted as failures (see the warnings above; inputs in %s)\n",
			signature.Plural(s.unconfirmedOOM, "out-of-memory death"), s.wd.Unconfirmed)
	}
	if sum.Partial && !(s.cfg.StopOnFailure && sum.NewFailures > 0) { // (stopped at its failure, as asked)
		s.warnf("%s", PartialText)
	}
	// A run that ran no input (not stopped by an error, said above): its
	// first input was still running, or its workers still starting.
	switch idle := s.totals().execs == 0 && s.crashes == 0 && !s.cfg.ReplayOnly && len(s.errs) == 0; {
	case idle && s.cutInput >= time.Second:
		s.warnf("no input finished: the first input a worker ran was still running %v later, when the run ended: a hang that -timeout had not stopped yet (it counts the input's CPU time, which a loaded machine stretches), or a slow input; run the seeds and corpus entries with -repro to find it", s.cutInput.Round(100*time.Millisecond))
	case idle:
		s.warnf("no input was run: the workers were still starting when the run ended (the fuzz target's own setup before its gfz.Fuzz call, or loading its seeds, took the whole run): give the run more -time, or find what makes the target slow to start")
	}
	if n := len(s.errs); n > 0 {
		// Each was printed when it happened.
		s.printf("gfz: the run is incomplete: %s (see the ERROR lines above)\n", signature.Plural(n, "error"))
	}
}

// stabilityNote explains, for a run of one worker (the reproducible
// setting), what a stability below 100% means for reproducibility: the
// engine is deterministic, but a target whose coverage differs between
// two executions of the same input (a branch on a heap address, map
// iteration order, goroutine scheduling) feeds it different coverage, so
// the same seed can lead to a different run. Empty when there is nothing
// to say.
func stabilityNote(stability float64, workers int) string {
	if workers != 1 || stability >= 100 {
		return ""
	}
	return fmt.Sprintf("note: stability %.1f%%: the target's coverage differed between executions of the same input "+
		"(a branch on map iteration order, a heap address or goroutine scheduling), so a run with the same -seed and -runs "+
		"can differ from this one", stability)
}
