package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/gfz-dev/gfz/internal/screen"
)

// view is the live board of a scheduled run on a terminal: one row per
// target (state, share of the time, recent yield, executions, coverage,
// corpus, failures), redrawn in place; the targets' other lines scroll
// above it.
type view struct {
	board  *screen.Board
	stream io.Writer
	rows   func() int // the terminal's rows (0: unknown)
}

// newView returns the board when stdout and stderr are both the
// terminal (nil otherwise: plain lines, as in CI).
func newView(stdout, stderr io.Writer) *view {
	so, ok1 := stdout.(*os.File)
	se, ok2 := stderr.(*os.File)
	if !ok1 || !ok2 || !screen.IsTerminal(se) || !screen.IsTerminal(so) {
		return nil
	}
	size := func() (int, int) { return screen.Size(se) }
	b := screen.NewBoard(se, size)
	return &view{board: b, stream: b.Stream(), rows: func() int { _, r := size(); return r }}
}

// draw redraws the board from the runner's state.
func (v *view) draw(r *runner) {
	now := time.Now()
	el := now.Sub(r.start).Round(time.Second)
	title := fmt.Sprintf("gfz-run · %v", el)
	if r.budget > 0 {
		title += fmt.Sprintf(" of %v", r.budget)
	}
	title += fmt.Sprintf(" · %d targets on %d cores · %s · Ctrl-C stops", len(r.jobs), r.units*r.unit, r.mode)
	t := screen.Table{
		Title:  title,
		Header: []string{"PACKAGE", "TARGET", "STATE", "SHARE", "YIELD", "EXECS", "COVERAGE", "CORPUS", "FAILURES"},
		Right:  []bool{false, false, false, true, true, true, true, true, false},
	}
	order := make([]int, len(r.jobs))
	for i := range order {
		order[i] = i
	}
	if rows := v.rows(); rows > 0 && len(order) > rows-4 {
		// Not all fit: the running targets first, then by share.
		slices.SortStableFunc(order, func(a, b int) int {
			ra, rb := r.running[a] != nil, r.running[b] != nil
			if ra != rb {
				if ra {
					return -1
				}
				return 1
			}
			sa, sb := r.share(a, now), r.share(b, now)
			switch {
			case sa > sb:
				return -1
			case sa < sb:
				return 1
			}
			return 0
		})
	}
	newTotal := 0
	for _, i := range order {
		j, jr := r.jobs[i], r.runs[i]
		state := jr.state
		if sl := r.running[i]; sl != nil && !sl.stopping {
			state = "running ×" + strconv.Itoa(sl.workers)
		}
		yield := "-"
		if rate, ok := r.rule.Rate(i); ok {
			yield = strconv.FormatFloat(rate, 'f', 1, 64) + "/s"
		}
		nw := len(newFailureInputs(j))
		newTotal += nw
		fails := fmt.Sprintf("%d new", nw)
		if len(j.known) > 0 {
			fails += fmt.Sprintf(", %d known", len(j.known))
		}
		t.Rows = append(t.Rows, []string{j.relDir, j.target, state, fmtShare(r.share(i, now)), yield,
			groupDigits(jr.execs + jr.liveExecs), groupDigits(jr.cov), groupDigits(jr.corpus), fails})
	}
	t.Note = fmt.Sprintf("share: of the worker-process time so far; yield: recent gains (coverage keys, corpus entries, failures x10) per CPU-second; %d new failure(s)", newTotal)
	v.board.Draw(t)
}

// groupDigits writes n with thousands separators.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 || len(s) < 4 {
		return s
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}
