package report

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// The index of a scheduled gfz-run (all targets sharing one budget): how
// the time went to the targets and what each found, over time.

// Schedule is how gfz-run shared a run's time among the targets of an
// index. Targets are in the order of the index's entries.
type Schedule struct {
	Mode    string // the allocation: adaptive or equal
	Start   time.Time
	Elapsed time.Duration
	Budget  time.Duration // 0: none
	Cores   int           // worker processes at once
	Running bool          // still running: the page reloads itself
	Targets []ScheduleTarget
}

// ScheduleTarget is one target's share of a scheduled run.
type ScheduleTarget struct {
	State       string  // e.g. running, waiting, ended
	Cores       int     // worker processes now (running)
	Share       float64 // part of the core-seconds so far, 0 to 1
	CPU         float64 // CPU seconds of its ended processes
	Execs       int64
	Coverage    int64
	Corpus      int64
	NewFailures int
	Spans       []ScheduleSpan   // when it ran
	Samples     []ScheduleSample // its figures over time
}

// ScheduleSpan is one process of a target: from when to when (since the
// run's start), on how many worker processes.
type ScheduleSpan struct {
	From, To time.Duration
	Cores    int
}

// ScheduleSample is a target's figures at a time of the run.
type ScheduleSample struct {
	At               time.Duration
	Coverage, Corpus int64
	Failures         int64
	Share            float64 // of the core-seconds so far, 0 to 1
}

// WriteIndexSchedule writes out/index.html as WriteIndex does, with the
// schedule's view of the targets above the table: each target's state,
// share of the time, figures and coverage over time, when each ran, and
// the shares over time. While s.Running the page reloads every few
// seconds.
func WriteIndexSchedule(out string, entries []IndexEntry, s *Schedule, now time.Time) (string, error) {
	return writeIndex(out, entries, s, now)
}

// scheduleView is what schedule.html renders.
type scheduleView struct {
	Headline string
	Rows     []scheduleRow
	Timeline timelineChart
	Shares   chart
}

type scheduleRow struct {
	Package, Target, Link, State      string
	Share                             string
	Bar                               int // share in % for the bar
	CPU, Execs, Coverage, Corpus, New string
	Class                             string // its colour
	Spark                             string // polyline points of its coverage over time
}

// timelineChart draws when each target ran: a lane per target, a box per
// process, darker for more worker processes.
type timelineChart struct {
	W, H, X0, X1 int
	Lanes        []lane
	XTicks       []tick
	Y1           int
}

type lane struct {
	Y     int
	Label string
	Class string
	Boxes []box
}

type box struct {
	X, W    int
	Opacity string
	Title   string
}

// Geometry of the schedule's charts.
const (
	timelineW, laneH = 900, 16
	timelineL        = 220
	sparkW, sparkH   = 120, 18
	targetColours    = 10
)

func buildSchedule(entries []IndexEntry, rows []indexRow, s *Schedule) *scheduleView {
	v := &scheduleView{}
	state := "finished"
	if s.Running {
		state = "running (this page reloads every 5 s)"
	}
	v.Headline = fmt.Sprintf("%s schedule on %d worker processes; %s of %s; %s",
		s.Mode, s.Cores, fmtDuration(math.Round(s.Elapsed.Seconds())), budgetText(s.Budget), state)
	end := s.Elapsed.Seconds()
	if s.Budget > 0 {
		end = math.Max(end, s.Budget.Seconds())
	}
	end = math.Max(end, 1)
	tl := timelineChart{W: timelineW, X0: timelineL, X1: timelineW - padR}
	sx := func(t time.Duration) int {
		return tl.X0 + int(math.Round(t.Seconds()/end*float64(tl.X1-tl.X0)))
	}
	maxCores := 1
	for _, t := range s.Targets {
		for _, sp := range t.Spans {
			maxCores = max(maxCores, sp.Cores)
		}
	}
	var names, classes []string
	var shares [][]point
	for i, t := range s.Targets {
		if i >= len(entries) {
			break
		}
		e := entries[i]
		class := fmt.Sprintf("t%d", i%targetColours)
		r := scheduleRow{Package: e.Package, Target: e.Target, State: t.State, Share: fmtShare(t.Share),
			Bar: int(math.Round(100 * t.Share)), CPU: fmtSeconds(t.CPU), Execs: groupDigits(fmt.Sprint(t.Execs)),
			Coverage: fmt.Sprint(t.Coverage), Corpus: fmt.Sprint(t.Corpus), New: fmt.Sprint(t.NewFailures), Class: class}
		if t.Cores > 0 {
			r.State = fmt.Sprintf("%s ×%d", t.State, t.Cores)
		}
		if i < len(rows) {
			r.Link = rows[i].Link
		}
		r.Spark = sparkline(t.Samples, end)
		v.Rows = append(v.Rows, r)
		ln := lane{Y: padT + i*laneH, Label: e.Target, Class: class}
		for _, sp := range t.Spans {
			x0, x1 := sx(sp.From), sx(sp.To)
			ln.Boxes = append(ln.Boxes, box{X: x0, W: max(x1-x0, 1),
				Opacity: fmt.Sprintf("%.2f", 0.3+0.7*float64(sp.Cores)/float64(maxCores)),
				Title:   fmt.Sprintf("%s: %s to %s on %d", e.Target, fmtDuration(sp.From.Seconds()), fmtDuration(sp.To.Seconds()), sp.Cores)})
		}
		tl.Lanes = append(tl.Lanes, ln)
		names, classes = append(names, e.Target), append(classes, class)
		var pts []point
		for _, sm := range t.Samples {
			pts = append(pts, point{sm.At.Seconds(), 100 * sm.Share})
		}
		shares = append(shares, pts)
	}
	tl.Y1 = padT + len(tl.Lanes)*laneH
	tl.H = tl.Y1 + padB
	xt, _ := niceTicks(0, end, 8)
	for _, x := range xt {
		if x <= end {
			tl.XTicks = append(tl.XTicks, tick{tl.X0 + int(math.Round(x/end*float64(tl.X1-tl.X0))), fmtDuration(x)})
		}
	}
	v.Timeline = tl
	v.Shares = newChart("share of the time so far (% of the core-seconds)", names, classes, shares, nil, fmtPercent, 100)
	return v
}

// sparkline draws a target's coverage over the run (0 to end seconds),
// scaled to its own range.
func sparkline(samples []ScheduleSample, end float64) string {
	if len(samples) == 0 {
		return ""
	}
	lo, hi := samples[0].Coverage, samples[0].Coverage
	for _, s := range samples {
		lo, hi = min(lo, s.Coverage), max(hi, s.Coverage)
	}
	var b strings.Builder
	for i, s := range samples {
		x := int(math.Round(s.At.Seconds() / end * sparkW))
		y := sparkH - 2
		if hi > lo {
			y = sparkH - 2 - int(math.Round(float64(s.Coverage-lo)/float64(hi-lo)*(sparkH-4)))
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d,%d", x, y)
	}
	return b.String()
}

func budgetText(b time.Duration) string {
	if b <= 0 {
		return "no time limit"
	}
	return "a budget of " + fmtDuration(b.Seconds())
}

func fmtShare(x float64) string {
	if x <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

func fmtSeconds(s float64) string {
	if s <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f s", s)
}
