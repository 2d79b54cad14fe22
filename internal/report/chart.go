package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Charts: line charts drawn as inline SVG polylines (no script, no
// library: the page must open from disk, and every fuzz binary links this
// package).

// Chart geometry, in SVG user units.
const (
	chartW, chartH = 560, 220
	padL, padR     = 60, 24
	padT, padB     = 12, 30
)

// chart is one line chart ready for the template.
type chart struct {
	Title          string
	W, H           int
	X0, X1, Y0, Y1 int // the plot area
	Series         []series
	XTicks         []tick
	YTicks         []tick
	Runs           []int // x of the start of each resumed run after the first
	Note           string
}

type series struct {
	Name   string
	Class  string // CSS class giving its colour
	Points string // "x,y x,y ..."
	// The last point, marked (a run with one plot_data row has no line).
	LastX, LastY int
	HasLast      bool
}

type tick struct {
	Pos   int
	Label string
}

// point is one (x, y) value of a series.
type point struct{ x, y float64 }

// Telling runs apart. A run that resumes a work directory appends its
// rows to plot_data after the earlier runs' ones, its elapsed_s and execs
// restarting from 0. Elapsed going down is not the only sign of a new run:
// a run shorter than the status interval writes one row (its final one),
// and the next run's first row may well have a larger elapsed (gfz-run's
// first-pass rounds last 1-2 s each). Each row also says when its run
// started: unix_time - elapsed_s. unix_time is truncated to the second and
// elapsed_s rounded to 0.1 s, so the start a row gives lies in
// (S-1.05 s, S+0.05 s] for its run's true start S: the rows of one run
// give starts at most 1.1 s apart.
const (
	// startTolerance is the most the starts of two rows of one run are
	// taken to differ by: the 1.1 s of rounding, and a margin (a wall
	// clock adjusted during the run). A run that starts after a row with
	// elapsed_s of statusEvery or more starts at least statusEvery-1.05 s
	// after that row's start, so more than the tolerance.
	startTolerance = 1.5
	// statusEvery is the engine's status interval in seconds (not
	// settable from gfz's command lines): a run writes a row every
	// statusEvery and one at its end, so a row with elapsed_s below it is
	// its run's last. This tells apart the runs that the starts alone
	// cannot, those whose previous run lasted under 2.2 s.
	statusEvery = 3.0
)

// newRun reports whether the plot row r, following prev, starts a new
// run: elapsed or executions went down, or (rows with a unix time) r's run
// started at another time than prev's, or prev was the last row of its
// run. Rows without a unix time (0) are told apart by elapsed and
// executions alone.
func newRun(prev, r plotRow) bool {
	if r.elapsed < prev.elapsed || r.execs < prev.execs {
		return true
	}
	if prev.unix == 0 || r.unix == 0 {
		return false
	}
	return math.Abs((r.unix-r.elapsed)-(prev.unix-prev.elapsed)) > startTolerance || prev.elapsed < statusEvery
}

// timeline turns plot rows into campaign time: elapsed restarts at 0 when
// a run resumes a work directory, so each later run is shifted to start
// where the previous one ended. It returns the x of every row and the x
// where each resumed run starts.
func timeline(rows []plotRow) (xs []float64, runs []float64) {
	offset, last := 0.0, 0.0
	for i, r := range rows {
		if i > 0 && newRun(rows[i-1], r) {
			offset = last
			runs = append(runs, offset)
		}
		last = offset + r.elapsed
		xs = append(xs, last)
	}
	return xs, runs
}

// newChart lays out series of points (x in seconds) in one chart.
func newChart(title string, names, classes []string, data [][]point, runs []float64, yFmt func(float64) string, yTop float64) chart {
	// yTop is the least top of the y axis.
	c := chart{Title: title, W: chartW, H: chartH, X0: padL, X1: chartW - padR, Y0: padT, Y1: chartH - padB}
	// The x axis starts at 0, the start of the campaign.
	xmin, xmax, ymax := 0.0, 0.0, 0.0
	n := 0
	for _, pts := range data {
		for _, p := range pts {
			xmax, ymax = math.Max(xmax, p.x), math.Max(ymax, p.y)
			n++
		}
	}
	if n == 0 {
		c.Note = "no data (it needs two plot_data rows of one run)"
		return c
	}
	if xmax <= xmin {
		xmax = xmin + 1
	}
	// The x axis ends at the last point (ticks beyond it dropped); the y
	// axis at a round value.
	xt, _ := niceTicks(xmin, xmax, 6)
	for len(xt) > 1 && xt[len(xt)-1] > xmax {
		xt = xt[:len(xt)-1]
	}
	xhi := xmax
	yt, yhi := niceTicks(0, math.Max(ymax, yTop), 5)
	xlo := xt[0]
	sx := func(x float64) int { return c.X0 + int(math.Round((x-xlo)/(xhi-xlo)*float64(c.X1-c.X0))) }
	sy := func(y float64) int { return c.Y1 - int(math.Round(y/yhi*float64(c.Y1-c.Y0))) }
	for _, v := range xt {
		c.XTicks = append(c.XTicks, tick{sx(v), fmtDuration(v)})
	}
	for _, v := range yt {
		c.YTicks = append(c.YTicks, tick{sy(v), yFmt(v)})
	}
	for _, r := range runs {
		c.Runs = append(c.Runs, sx(r))
	}
	for i, pts := range data {
		pts = thin(pts, maxPoints)
		var b strings.Builder
		for j, p := range pts {
			if j > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%d,%d", sx(p.x), sy(p.y))
		}
		s := series{Name: names[i], Class: classes[i], Points: b.String()}
		if len(pts) > 0 {
			last := pts[len(pts)-1]
			s.LastX, s.LastY, s.HasLast = sx(last.x), sy(last.y), true
		}
		c.Series = append(c.Series, s)
	}
	return c
}

// niceTicks returns about n round tick values from at most lo up to at
// least hi, and the last one.
func niceTicks(lo, hi float64, n int) ([]float64, float64) {
	step := niceStep((hi - lo) / float64(n))
	start := math.Floor(lo/step) * step
	var out []float64
	for v := start; ; v += step {
		out = append(out, v)
		if v >= hi-step*1e-9 || len(out) > 4*n {
			return out, v
		}
	}
}

// niceStep rounds a step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsInf(raw, 0) || math.IsNaN(raw) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// fmtDuration formats seconds on a time axis.
func fmtDuration(s float64) string {
	if s == 0 {
		return "0"
	}
	if s < 10 && s != math.Trunc(s) { // the ticks of a run of a few seconds
		return strconv.FormatFloat(math.Round(s*10)/10, 'f', -1, 64) + "s"
	}
	d := time.Duration(s * float64(time.Second)).Round(time.Second).String()
	if strings.HasSuffix(d, "m0s") {
		d = strings.TrimSuffix(d, "0s")
	}
	if strings.HasSuffix(d, "h0m") {
		d = strings.TrimSuffix(d, "0m")
	}
	return d
}

// fmtCount formats a count on a y axis: 1200 -> 1.2k.
func fmtCount(v float64) string {
	switch {
	case v >= 1e9:
		return trimZero(v/1e9) + "G"
	case v >= 1e6:
		return trimZero(v/1e6) + "M"
	case v >= 1e3:
		return trimZero(v/1e3) + "k"
	}
	return trimZero(v)
}

func fmtPercent(v float64) string { return trimZero(v) + "%" }

func trimZero(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// charts builds the report's charts from the plot rows.
func charts(rows []plotRow) []chart {
	xs, runs := timeline(rows)
	var cov, vcov, validPct, rate, corpus, fails []point
	for i, r := range rows {
		x := xs[i]
		cov = append(cov, point{x, r.totalCov})
		vcov = append(vcov, point{x, r.validCov})
		corpus = append(corpus, point{x, r.corpus})
		fails = append(fails, point{x, r.failures})
		// Of every execution, failing ones included, as the headline and
		// the stats' valid_pct (valid/(valid+invalid) showed 100% for a
		// target failing on 8% of its inputs).
		if r.execs > 0 {
			validPct = append(validPct, point{x, 100 * r.valid / r.execs})
		}
		// Executions per second between consecutive rows of one run.
		if i > 0 && !newRun(rows[i-1], r) && r.elapsed > rows[i-1].elapsed {
			rate = append(rate, point{x, (r.execs - rows[i-1].execs) / (r.elapsed - rows[i-1].elapsed)})
		}
	}
	pct := newChart("valid inputs (% of executions so far in the run)", []string{"valid %"}, []string{"s2"}, [][]point{validPct}, runs, fmtPercent, 100)
	return []chart{
		newChart("coverage (keys)", []string{"total", "valid inputs"}, []string{"s1", "s2"}, [][]point{cov, vcov}, runs, fmtCount, 1),
		pct,
		newChart("executions per second", []string{"execs/s"}, []string{"s3"}, [][]point{rate}, runs, fmtCount, 1),
		newChart("corpus size and unique failures", []string{"corpus", "failures"}, []string{"s1", "s4"}, [][]point{corpus, fails}, runs, fmtCount, 1),
	}
}

// maxPoints bounds the points of a series drawn (a day's run has 28,800
// plot_data rows).
const maxPoints = 1500

// thin keeps at most n of pts, evenly spread, the first and last
// included.
func thin(pts []point, n int) []point {
	if len(pts) <= n {
		return pts
	}
	out := make([]point, 0, n)
	for i := range n {
		out = append(out, pts[i*(len(pts)-1)/(n-1)])
	}
	return out
}
