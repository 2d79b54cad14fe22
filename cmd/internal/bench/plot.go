package bench

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// Coverage curves of the bug mode, drawn with gonum.org/v1/plot (only
// gfz-bench links it; the probe runtime and the gfz package do not).

// curve is one contender's coverage over time across its runs: at each
// time, the median and the min-max of the runs' covered statements. It
// ends where the contender's last run ended.
type curve struct {
	contender      string
	t, med, lo, hi []float64
	// stopped: every run ended at the bug, so the curve ends early; the
	// plot marks the end.
	stopped bool
}

// runSamples are a run's coverage samples up to its end. The replay
// samples a run's corpus at fixed times up to the budget, also after a
// run that stopped at the bug has ended; those samples only repeat its
// final coverage, so they are cut and one sample at the end (WallS, when
// known) takes their value.
func runSamples(r BugRun) []CovSample {
	s := r.Coverage
	if len(s) == 0 || r.WallS <= 0 || r.WallS >= s[len(s)-1].T {
		return s
	}
	final := s[len(s)-1].Stmts
	var out []CovSample
	for _, x := range s {
		if x.T < r.WallS {
			out = append(out, x)
		}
	}
	return append(out, CovSample{T: r.WallS, Stmts: final})
}

// coverageCurves computes the curves of one bug: the times are the union
// of the runs' sample times up to the contender's last run's end; a run's
// value at time t is that of its last sample at or before t (a run that
// has ended holds its final coverage).
func coverageCurves(cells []bugCell) []curve {
	var out []curve
	for _, c := range cells {
		var ts []float64
		samples := make([][]CovSample, len(c.runs))
		stopped := true
		for i, r := range c.runs {
			samples[i] = runSamples(r)
			for _, s := range samples[i] {
				ts = append(ts, s.T)
			}
			if !r.Found || r.WallS <= 0 {
				stopped = false
			}
		}
		if len(ts) == 0 {
			continue
		}
		slices.Sort(ts)
		ts = slices.Compact(ts)
		cv := curve{contender: c.contender, stopped: stopped}
		for _, t := range ts {
			var v []float64
			for _, s := range samples {
				val := math.NaN()
				for _, x := range s {
					if x.T <= t {
						val = float64(x.Stmts)
					}
				}
				if !math.IsNaN(val) {
					v = append(v, val)
				}
			}
			if len(v) == 0 {
				continue
			}
			slices.Sort(v)
			cv.t = append(cv.t, t)
			cv.med = append(cv.med, median(v))
			cv.lo = append(cv.lo, v[0])
			cv.hi = append(cv.hi, v[len(v)-1])
		}
		out = append(out, cv)
	}
	return out
}

// plotT0 is where the log time axis begins: the replay samples coverage
// at 0 s (the seeds), 1, 2, 5, 10 s and later, so below 1 s a curve only
// has the seeds and the ends of runs that stopped sooner; those are drawn
// at 1 s, where the value shown is the coverage at 1 s or at the run's
// end if sooner.
const plotT0 = 1.0

// palette gives every contender a colour of its own; native, the
// reference, is black and go-fuzz grey, so the gfz contenders take the
// colours.
var palette = []color.NRGBA{
	{0x1f, 0x77, 0xb4, 0xff}, // blue
	{0xff, 0x7f, 0x0e, 0xff}, // orange
	{0x2c, 0xa0, 0x2c, 0xff}, // green
	{0xd6, 0x27, 0x28, 0xff}, // red
	{0x94, 0x67, 0xbd, 0xff}, // purple
	{0x8c, 0x56, 0x4b, 0xff}, // brown
	{0xe3, 0x77, 0xc2, 0xff}, // pink
	{0x17, 0xbe, 0xcf, 0xff}, // cyan
	{0xbc, 0xbd, 0x22, 0xff}, // olive
}

// contenderColor is the colour of contender name, the i-th gfz
// contender of its plot (native and go-fuzz are not counted).
func contenderColor(name string, i int) color.NRGBA {
	switch name {
	case BugNative:
		return color.NRGBA{0, 0, 0, 0xff}
	case BugGoFuzz:
		return color.NRGBA{0x7f, 0x7f, 0x7f, 0xff}
	}
	return palette[i%len(palette)]
}

// plotCoverage draws the curves of one bug as an SVG image, or a PNG one
// when format is "png". Time is on a log scale from plotT0 to the budget:
// most of these bugs fall in the first seconds, and a linear axis shows
// them as a vertical line at 0.
func plotCoverage(bug string, curves []curve, total, runs int, budget float64, format string) ([]byte, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: coverage of the buggy package (median, band min–max of %d runs)", bug, runs)
	p.X.Label.Text = "time (s, log scale); × a contender's last run ended at the bug"
	p.Y.Label.Text = "statements covered"
	if total > 0 {
		p.Y.Label.Text = fmt.Sprintf("statements covered (of %d)", total)
	}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logTicks{}
	p.X.Min = plotT0
	p.X.Max = plotT0 * 10
	for _, c := range curves {
		p.X.Max = max(p.X.Max, c.t[len(c.t)-1])
	}
	if budget > 0 {
		p.X.Max = max(p.X.Max, budget)
	}
	at := func(t float64) float64 { return max(t, plotT0) }
	legend := plot.NewLegend()
	legend.Top = true
	legend.Left = true
	legend.YOffs = -vg.Points(30)
	p.Add(plotter.NewGrid())
	n := 0
	for i, c := range curves {
		// From the value at plotT0 on: earlier samples are covered by
		// it.
		j0 := 0
		for j0+1 < len(c.t) && c.t[j0+1] <= plotT0 {
			j0++
		}
		c.t, c.med, c.lo, c.hi = c.t[j0:], c.med[j0:], c.lo[j0:], c.hi[j0:]
		col := contenderColor(c.contender, n)
		if c.contender != BugNative && c.contender != BugGoFuzz {
			n++
		}
		// The band in steps, as the median line: a value holds until the
		// next sample.
		band := make(plotter.XYs, 0, 4*len(c.t))
		next := func(j int) float64 { return at(c.t[min(j+1, len(c.t)-1)]) }
		for j := range c.t {
			band = append(band, plotter.XY{X: at(c.t[j]), Y: c.hi[j]}, plotter.XY{X: next(j), Y: c.hi[j]})
		}
		for j := len(c.t) - 1; j >= 0; j-- {
			band = append(band, plotter.XY{X: next(j), Y: c.lo[j]}, plotter.XY{X: at(c.t[j]), Y: c.lo[j]})
		}
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", bug, err)
		}
		poly.Color = color.NRGBA{R: col.R, G: col.G, B: col.B, A: 0x30}
		poly.LineStyle.Width = 0
		med := make(plotter.XYs, len(c.t))
		for j := range c.t {
			med[j] = plotter.XY{X: at(c.t[j]), Y: c.med[j]}
		}
		line, err := plotter.NewLine(med)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", bug, err)
		}
		line.Color = col
		line.Width = vg.Points(1.5)
		line.Dashes = plotutil.Dashes(i)
		line.StepStyle = plotter.PostStep
		p.Add(poly, line)
		if c.stopped {
			end, err := plotter.NewScatter(med[len(med)-1:])
			if err != nil {
				return nil, fmt.Errorf("plot %s: %w", bug, err)
			}
			end.Shape = draw.CrossGlyph{}
			end.Radius = vg.Points(4)
			end.Color = col
			p.Add(end)
		}
		legend.Add(c.contender, line)
	}
	legend.ThumbnailWidth = vg.Points(24)
	p.Y.Min = 0
	p.Y.Tick.Marker = plainTicks{}
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	w, h := 8*vg.Inch, 4*vg.Inch
	if format == "png" {
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))}
	} else {
		c = vgsvg.New(w, h)
	}
	// The legend in a margin of its own, right of the plot, so that no
	// curve runs under it.
	dc := draw.New(c)
	legendW := 1.5 * vg.Inch
	p.Draw(draw.Crop(dc, 0, -legendW, 0, 0))
	legend.Draw(draw.Crop(dc, w-legendW, 0, 0, 0))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plot %s: %w", bug, err)
	}
	return buf.Bytes(), nil
}

// logTicks label a log time axis at 1, 2 and 5 times each power of ten
// ("1", "2", "50"), with unlabelled minor ticks between, all within the
// axis. gonum's plot.LogTicks labels only the powers of ten, which leaves
// a 1-300 s axis with three labels.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); math.Pow(10, e) <= hi; e++ {
		for m := 1; m < 10; m++ {
			v := float64(m) * math.Pow(10, e)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// plainTicks are gonum's default ticks labelled without trailing zeros
// ("500", not "500.00").
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', -1, 64)
		}
	}
	return ts
}

// PlotBugCoverage writes one image of coverage curves per bug into dir
// (<bug>.svg, or <bug>.png when format is "png"; atomically) and returns
// the files by bug.
func PlotBugCoverage(runs []BugRun, dir, format string) (map[string]string, error) {
	if format != "png" {
		format = "svg"
	}
	cells, _ := groupRuns(runs)
	var bugs []string
	for _, c := range cells {
		if !slices.Contains(bugs, c.bug) {
			bugs = append(bugs, c.bug)
		}
	}
	out := map[string]string{}
	for _, bug := range bugs {
		var mine []bugCell
		total, n, budget := 0, 0, 0.0
		for _, c := range cells {
			if c.bug == bug {
				mine = append(mine, c)
				n = max(n, len(c.runs))
				for _, r := range c.runs {
					total = max(total, r.TotalStmts)
					budget = max(budget, r.BudgetS)
				}
			}
		}
		curves := coverageCurves(mine)
		if len(curves) == 0 {
			continue
		}
		img, err := plotCoverage(bug, curves, total, n, budget, format)
		if err != nil {
			return nil, err
		}
		file := filepath.Join(dir, bug+"."+format)
		if err := workdir.WriteFileAtomic(file, img); err != nil {
			return nil, fmt.Errorf("plot %s: %w", bug, err)
		}
		out[bug] = file
	}
	return out, nil
}
