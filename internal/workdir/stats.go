package workdir

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// RunStats is what a run reports in plot_data and stats, whether it is an
// in-process engine or the supervisor aggregating its workers.
type RunStats struct {
	Target, Engine, State       string
	Seed                        int64
	Start, Now                  time.Time
	Execs, Valid, Invalid       int64
	Failing, Rechecks           int64
	Corpus                      int
	TotalCov, ValidCov          int64
	UniqueFailures, NewFailures int
	FailureSites                int
	Stability                   float64
	Timeout                     time.Duration // the per-input timeout in effect (0: none)
	TimeoutRule                 string        // how it was chosen
	PlotCols                    string        // the metrics' plot_data columns, after unique_failures
}

// WriteRunStats appends r's plot_data row and rewrites stats (the keys
// every run has, then the lines extra writes with kv) and plot_data.
func (w *Dir) WriteRunStats(r RunStats, extra func(kv func(key string, v any))) error {
	el := r.Now.Sub(r.Start)
	fmt.Fprintf(&w.plot, "%d, %.1f, %d, %d, %d, %d, %d, %d, %d, %s\n", r.Now.Unix(), el.Seconds(), r.Execs,
		r.Corpus, r.Valid, r.Invalid, r.TotalCov, r.ValidCov, r.UniqueFailures, r.PlotCols)
	var b strings.Builder
	kv := func(k string, v any) { fmt.Fprintf(&b, "%s: %v\n", k, v) }
	kv("target", r.Target)
	kv("engine", r.Engine)
	kv("seed", r.Seed)
	kv("state", r.State)
	kv("start_time", r.Start.Unix())
	kv("fuzzer_pid", os.Getpid()) // which process wrote them (a restart within the same second has the same start_time)
	kv("last_update", r.Now.Unix())
	kv("elapsed_s", fmt.Sprintf("%.1f", el.Seconds()))
	kv("execs", r.Execs)
	kv("execs_per_sec", fmt.Sprintf("%.0f", Rate(r.Execs, el)))
	kv("valid", r.Valid)
	kv("invalid", r.Invalid)
	kv("failing", r.Failing)
	kv("valid_pct", fmt.Sprintf("%.2f", Percent(r.Valid, r.Execs)))
	kv("corpus", r.Corpus)
	kv("total_cov", r.TotalCov)
	kv("valid_cov", r.ValidCov)
	kv("unique_failures", r.UniqueFailures)
	kv("new_failures", r.NewFailures)
	kv("failure_sites", r.FailureSites)
	kv("stability", fmt.Sprintf("%.2f", r.Stability))
	kv("rechecks", r.Rechecks)
	if r.TimeoutRule != "" {
		kv("timeout_ms", r.Timeout.Milliseconds())
		kv("timeout_rule", r.TimeoutRule)
	}
	if extra != nil {
		extra(kv)
	}
	return w.WriteStats([]byte(b.String()))
}

func (w *Dir) WriteStats(stats []byte) error {
	if err := writeAtomic(filepath.Join(w.Root, StatsFile), stats, false); err != nil {
		return fmt.Errorf("engine: write stats: %w", err)
	}
	if err := writeAtomic(filepath.Join(w.Root, PlotFile), w.plot.Bytes(), false); err != nil {
		return fmt.Errorf("engine: write plot_data: %w", err)
	}
	return nil
}

// Rate is n per second of d, as the stats file's execs_per_sec (0 for no
// time).
func Rate(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// Percent is n as a percentage of of, as the stats file's valid_pct (0
// when of is 0).
func Percent(n, of int64) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}
