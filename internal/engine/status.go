package engine

import (
	"fmt"
	"time"

	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// Status lines, the stats file and the final summary of an in-process run.

// status prints a status line and rewrites stats and plot_data (in worker
// mode: publishes the counters).
func (f *fuzzer) status() {
	if f.shm != nil {
		f.publish()
		f.publishMetrics()
		f.writeFeedbackFile()
		return
	}
	el := time.Since(f.start)
	f.printf("gfz: %s\n", f.statusText(el))
	if err := f.writeStats("running"); err != nil && f.err == nil {
		f.err = err
	}
}

func (f *fuzzer) statusText(el time.Duration) string {
	return fmt.Sprintf("elapsed %v, execs %d (%.0f/s), valid %.1f%%, corpus %d, cov %d (valid %d), %s",
		el.Round(time.Second), f.execs, workdir.Rate(f.execs, el), workdir.Percent(f.valid, f.execs), f.corpusLen(),
		f.cov.totalKeys, f.cov.validKeys, signature.FailuresText(f.known))
}

// writeStats appends a plot_data row and rewrites stats and plot_data.
func (f *fuzzer) writeStats(state string) error {
	m := f.metricsRow()
	r := workdir.RunStats{
		Target: f.cfg.Target, Engine: engineName(f.cfg.Engine), State: state, Seed: f.cfg.Seed,
		Start: f.start, Now: time.Now(),
		Execs: f.execs, Valid: f.valid, Invalid: f.invalid, Failing: f.failing, Rechecks: f.rechecks,
		Corpus: f.corpusLen(), TotalCov: int64(f.cov.totalKeys), ValidCov: int64(f.cov.validKeys),
		UniqueFailures: len(f.known), NewFailures: len(f.newFailures), Stability: f.cov.stability(),
		FailureSites: signature.CountSites(f.known), Timeout: time.Duration(f.timeout.Load()), TimeoutRule: *f.timeoutRule.Load(),
		PlotCols: m.plotCols(),
	}
	return f.wd.WriteRunStats(r, func(kv func(string, any)) {
		if !f.replayed && f.execs > 0 {
			kv("partial", 1) // still replaying, or stopped before the end of the replay
		}
		kv("saved_cov", f.savedBy[reasonCov])
		kv("saved_count", f.savedBy[reasonCount])
		kv("saved_valid", f.savedBy[reasonValid])
		f.domainStats(kv)
		m.keys(kv)
	})
}

// printFinal prints the end-of-run summary.
func (f *fuzzer) printFinal() {
	el := time.Since(f.start)
	f.printf("gfz: done: %s\n", f.statusText(el))
	m := f.metricsRow()
	f.printf("gfz: metrics: %s\n", m.text())
	kvs := f.domainKV()
	for _, line := range append(armsSummary(kvs), feedbackSummary(kvs)...) {
		f.printf("gfz: %s\n", line)
	}
	f.printf("gfz: %s; work directory %s\n", signature.FinalFailuresText(len(f.newFailures), f.known), f.wd.Root)
	for _, p := range f.newFailures {
		f.printf("gfz:\tfailure: %s\n", p)
	}
	if f.replayCut && f.execs > 0 && !(f.cfg.StopOnFailure && len(f.newFailures) > 0) { // (stopped at its failure, as asked)
		f.warnf("%s", PartialText)
	}
}

// PartialText is the warning of a run that ended before it ran all of its
// seeds and corpus entries (Summary.Partial).
const PartialText = "the run ended before it had run all of its seeds and corpus entries: its coverage figures (and a -coverprofile written from them) stand for part of the corpus only; give the run more -time or -runs (the corpus's replay alone takes longer than this run lasted)"
