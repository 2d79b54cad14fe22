package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/gfz-dev/gfz/internal/report"
)

// reports is gfz-run's -report DIR: every fuzz binary writes its report to
// DIR/<import path>/<FuzzTarget> (its own -report flag), and gfz-run
// writes DIR/index.html linking to them at the end.
type reports struct {
	dir     string // absolute; "" without -report
	entries []report.IndexEntry
	sched   *report.Schedule // a scheduled run's view of the entries (nil: none)
}

// args returns the -report arguments of one target's run and records it
// for the index.
func (r *reports) args(pkg, target, workdir string) []string {
	if r.dir == "" {
		return nil
	}
	dir := filepath.Join(r.dir, filepath.FromSlash(pkg), target)
	r.entries = append(r.entries, report.IndexEntry{Package: pkg, Target: target, Workdir: workdir, Report: dir, Status: "running"})
	return []string{"-report", dir}
}

// setStatus records how the run of entry i ended.
func (r *reports) setStatus(i, code int) {
	s := fmt.Sprintf("exit status %d", code)
	switch code {
	case 0:
		s = "ok"
	case 1:
		s = "new failure"
	}
	r.entries[i].Status = s
}

// setJob records how j's run ended: its exit, or that it skipped itself
// or ran no input (as the summary table says).
func (r *reports) setJob(j *ciJob) {
	if j.report < 0 {
		return
	}
	r.setStatus(j.report, j.result())
	switch {
	case j.skipped():
		r.entries[j.report].Status = "skipped"
	case j.ranNoInput():
		r.entries[j.report].Status = "no input run"
	}
}

// write writes the index and, if it cannot, makes *code 2.
func (r *reports) write(stdout, stderr io.Writer, code *int) {
	if r.dir == "" || len(r.entries) == 0 {
		return
	}
	path, err := report.WriteIndex(r.dir, r.entries, time.Time{})
	if r.sched != nil {
		path, err = report.WriteIndexSchedule(r.dir, r.entries, r.sched, time.Time{})
	}
	if err != nil {
		fmt.Fprintf(stderr, "gfz-run: -report: %v\n", err)
		*code = 2
		return
	}
	fmt.Fprintf(stdout, "gfz-run: report: %s\n", path)
}
