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

	"github.com/gfz-dev/gfz/internal/engine"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Coverage curves of the bug mode, drawn with gonum.org/v1/plot (only
// gfz-bench links it; the probe runtime and the gfz package do not).

// curve is one contender's coverage over time across its runs: at each
// time, the median and the min-max of the runs' covered statements.
type curve struct {
	contender      string
	t, med, lo, hi []float64
}

// coverageCurves computes the curves of one bug: the times are the union
// of the runs' sample times; a run's value at time t is that of its last
// sample at or before t (it holds after the run stopped).
func coverageCurves(cells []bugCell) []curve {
	var out []curve
	for _, c := range cells {
		var ts []float64
		for _, r := range c.runs {
			for _, s := range r.Coverage {
				ts = append(ts, s.T)
			}
		}
		if len(ts) == 0 {
			continue
		}
		slices.Sort(ts)
		ts = slices.Compact(ts)
		cv := curve{contender: c.contender}
		for _, t := range ts {
			var v []float64
			for _, r := range c.runs {
				val := math.NaN()
				for _, s := range r.Coverage {
					if s.T <= t {
						val = float64(s.Stmts)
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

// plotCoverage draws the curves of one bug as an SVG image, or a PNG one
// when format is "png".
func plotCoverage(bug string, curves []curve, total int, runs int, format string) ([]byte, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: coverage of the buggy package (median, band min–max of %d runs)", bug, runs)
	p.X.Label.Text = "time (s)"
	p.Y.Label.Text = "statements covered"
	if total > 0 {
		p.Y.Label.Text = fmt.Sprintf("statements covered (of %d)", total)
	}
	p.Legend.Top = false
	p.Legend.Left = false
	p.Legend.YOffs = vg.Points(10)
	p.Add(plotter.NewGrid())
	for i, c := range curves {
		col := plotutil.Color(i)
		r, g, b, _ := col.RGBA()
		// The band in steps, as the median line: a value holds until the
		// next sample.
		band := make(plotter.XYs, 0, 4*len(c.t))
		next := func(j int) float64 { return c.t[min(j+1, len(c.t)-1)] }
		for j := range c.t {
			band = append(band, plotter.XY{X: c.t[j], Y: c.hi[j]}, plotter.XY{X: next(j), Y: c.hi[j]})
		}
		for j := len(c.t) - 1; j >= 0; j-- {
			band = append(band, plotter.XY{X: next(j), Y: c.lo[j]}, plotter.XY{X: c.t[j], Y: c.lo[j]})
		}
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", bug, err)
		}
		poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x40}
		poly.LineStyle.Width = 0
		med := make(plotter.XYs, len(c.t))
		for j := range c.t {
			med[j] = plotter.XY{X: c.t[j], Y: c.med[j]}
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
		p.Legend.Add(c.contender, line)
	}
	p.Legend.ThumbnailWidth = vg.Points(24)
	p.Y.Min = 0
	p.Y.Tick.Marker = plainTicks{}
	p.X.Tick.Marker = plainTicks{}
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	if format == "png" {
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(7*vg.Inch, 4*vg.Inch), vgimg.UseDPI(110))}
	} else {
		c = vgsvg.New(7*vg.Inch, 4*vg.Inch)
	}
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plot %s: %w", bug, err)
	}
	return buf.Bytes(), nil
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
		total, n := 0, 0
		for _, c := range cells {
			if c.bug == bug {
				mine = append(mine, c)
				n = max(n, len(c.runs))
				for _, r := range c.runs {
					total = max(total, r.TotalStmts)
				}
			}
		}
		curves := coverageCurves(mine)
		if len(curves) == 0 {
			continue
		}
		img, err := plotCoverage(bug, curves, total, n, format)
		if err != nil {
			return nil, err
		}
		file := filepath.Join(dir, bug+"."+format)
		if err := engine.WriteFileAtomic(file, img); err != nil {
			return nil, fmt.Errorf("plot %s: %w", bug, err)
		}
		out[bug] = file
	}
	return out, nil
}
