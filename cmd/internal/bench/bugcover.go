package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Coverage over time and time to reach, measured the same way for every
// contender: the run's saved corpus (gfz's corpus/, go test -fuzz's cache
// directory, go-fuzz's corpus/) is replayed by the bug module's coverage
// test binary (see oracle.go) in the order the inputs were saved (file
// modification times). The coverage at time T is that of the inputs saved
// up to T (plus the target's f.Add seeds); the buggy function is reached
// when one of them executes a statement of it. A fuzzer keeps every input
// that adds coverage, so the first input reaching the function is kept;
// the failing input is not in the corpus, so the time to reach is at most
// the time to trigger. Inputs a fuzzer later drops or replaces are missing
// (an underestimate of its coverage).

// corpusSpec is where a run's corpus is and which target replays it.
type corpusSpec struct {
	dir    string
	target string
	// dict: replay with the oracle's binary linked with gfz-build's
	// dictionary (gfz on its generator target; go-fuzz runs the same target
	// without it, through the plain copy).
	dict bool
}

type corpusEntry struct {
	path string
	t    float64 // seconds from the start of the run
}

// sampleTimes are the times (seconds) at which coverage is sampled: 0 (the
// seeds), 1, 2, 5 and 10 s when they come before the first twentieth of
// the budget, then every twentieth of the budget.
func sampleTimes(budget float64) []float64 {
	ts := []float64{0}
	for _, t := range []float64{1, 2, 5, 10} {
		if t < budget/20 {
			ts = append(ts, t)
		}
	}
	for k := 1; k <= 20; k++ {
		ts = append(ts, budget*float64(k)/20)
	}
	return ts
}

// profBlock is one block of a coverage profile.
type profBlock struct {
	file  string // import path/file.go
	line  int    // first line
	stmts int
	hit   bool
}

// readBlocks reads a go test -coverprofile file into its blocks (keyed by
// file and position, "file:l.c,l.c"); a block listed twice is hit if
// either is, and counts the larger number of statements. (A package with
// //line directives, as goyacc's parsers have, can list one position twice
// with different statement counts: golang.org/x/tools/cover's parser
// refuses such a profile as "inconsistent NumStmt", which left the
// coverage of such a bug unmeasured.)
func readBlocks(file string) (map[string]profBlock, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read profile: %w", err)
	}
	blocks := map[string]profBlock{}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || i == 0 && strings.HasPrefix(line, "mode:") {
			continue
		}
		// file:startLine.startCol,endLine.endCol numStmt count
		f := strings.Fields(line)
		colon := strings.LastIndexByte(line, ':')
		if len(f) != 3 || colon < 0 {
			return nil, fmt.Errorf("read profile: %s:%d: not a profile line: %q", file, i+1, line)
		}
		var sl, sc, el, ec, stmts int
		var count int64
		if _, err := fmt.Sscanf(line[colon+1:], "%d.%d,%d.%d %d %d", &sl, &sc, &el, &ec, &stmts, &count); err != nil {
			return nil, fmt.Errorf("read profile: %s:%d: %q: %w", file, i+1, line, err)
		}
		name := line[:colon]
		key := fmt.Sprintf("%s:%d.%d,%d.%d", name, sl, sc, el, ec)
		old := blocks[key]
		blocks[key] = profBlock{file: name, line: sl, stmts: max(old.stmts, stmts), hit: old.hit || count > 0}
	}
	return blocks, nil
}

// reaches reports whether the profile executed a statement of the buggy
// function.
func (o *oracle) reaches(blocks map[string]profBlock) bool {
	want := o.pkg + "/" + o.siteFile
	for _, b := range blocks {
		if b.hit && b.file == want && b.line >= o.from && b.line <= o.to {
			return true
		}
	}
	return false
}

// replayEntries replays the given corpus entries (none: the seeds alone)
// with the coverage binary in a fresh directory and returns the blocks.
// When the replay fails (an input panics under plain go test, which ends
// the test binary without a profile), every input is replayed alone and
// the ones that fail are left out; skipped counts them.
func (o *oracle) replayEntries(ctx context.Context, dir string, c *corpusSpec, entries []corpusEntry) (blocks map[string]profBlock, skipped int, err error) {
	blocks, err = o.replayOnce(ctx, dir, c, entries)
	if err == nil || len(entries) <= 1 {
		if err != nil {
			skipped = len(entries)
		}
		return blocks, skipped, err
	}
	var firstErr error
	for _, e := range entries {
		b, err := o.replayOnce(ctx, dir, c, []corpusEntry{e})
		if err != nil {
			skipped++
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if blocks == nil {
			blocks = b
			continue
		}
		for k, x := range b {
			y := blocks[k]
			x.hit = x.hit || y.hit
			blocks[k] = x
		}
	}
	if blocks == nil {
		return nil, skipped, firstErr
	}
	return blocks, skipped, nil
}

func (o *oracle) replayOnce(ctx context.Context, dir string, c *corpusSpec, entries []corpusEntry) (map[string]profBlock, error) {
	target, bin := c.target, o.bin
	if c.dict && o.dictBin != "" {
		bin = o.dictBin
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	corpus := filepath.Join(dir, "testdata", "fuzz", target)
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		return nil, err
	}
	for i, e := range entries {
		b, err := os.ReadFile(e.path)
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(string(b), corpusHeader) {
			b = []byte(fmt.Sprintf("%s[]byte(%q)\n", corpusHeader, b)) // go-fuzz's raw inputs
		}
		if err := os.WriteFile(filepath.Join(corpus, fmt.Sprintf("e%06d", i)), b, 0o644); err != nil {
			return nil, err
		}
	}
	prof := filepath.Join(dir, "cover.out")
	cmd := exec.CommandContext(ctx, bin, "-test.run=^"+target+"$", "-test.coverprofile="+prof, "-test.timeout=5m")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("replay of %d inputs: %v: %s", len(entries), err, oneLine(lastLines(out, 3)))
	}
	blocks, err := readBlocks(prof)
	if err != nil {
		return nil, fmt.Errorf("replay of %d inputs: %w", len(entries), err)
	}
	return blocks, nil
}

// corpusEntries lists the corpus files with their times, oldest first.
func corpusEntries(dir string, at func(string) float64) []corpusEntry {
	ents, _ := os.ReadDir(dir)
	var out []corpusEntry
	for _, e := range ents {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		out = append(out, corpusEntry{p, at(p)})
	}
	slices.SortStableFunc(out, func(a, b corpusEntry) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return strings.Compare(a.path, b.path)
	})
	return out
}

// measure fills the run's coverage samples, final coverage and reach.
func (r *bugRunner) measure(ctx context.Context, p *bugPrep, runDir string, c *corpusSpec, run *BugRun) {
	o := p.oracle
	run.CoverPkg = o.pkg
	entries := corpusEntries(c.dir, sinceStart(run.Start))
	times := sampleTimes(run.BudgetS)
	groups := make([][]corpusEntry, len(times))
	for _, e := range entries {
		i, _ := slices.BinarySearch(times, e.t) // first time >= e.t
		groups[min(i, len(times)-1)] = append(groups[min(i, len(times)-1)], e)
	}
	replayDir := filepath.Join(runDir, "replay")
	defer os.RemoveAll(replayDir)
	union := map[string]profBlock{}
	reachGroup := -1
	var notes []string
	skippedAll := 0
	for i, g := range groups {
		if i > 0 && len(g) == 0 {
			run.Coverage = append(run.Coverage, CovSample{times[i], run.CoveredStmts})
			continue
		}
		blocks, skipped, err := o.replayEntries(ctx, replayDir, c, g)
		skippedAll += skipped
		if err != nil {
			notes = append(notes, fmt.Sprintf("coverage at %gs not measured: %v", times[i], err))
			run.Coverage = append(run.Coverage, CovSample{times[i], run.CoveredStmts})
			continue
		}
		for k, b := range blocks {
			u, ok := union[k]
			if !ok {
				u = b
			}
			u.hit = u.hit || b.hit
			union[k] = u
		}
		run.TotalStmts, run.CoveredStmts = 0, 0
		for _, b := range union {
			run.TotalStmts += b.stmts
			if b.hit {
				run.CoveredStmts += b.stmts
			}
		}
		run.Coverage = append(run.Coverage, CovSample{times[i], run.CoveredStmts})
		if reachGroup < 0 && o.from > 0 && o.reaches(blocks) {
			reachGroup = i
		}
	}
	if skippedAll > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d corpus inputs failed when replayed alone under plain go test and were left out of the coverage", skippedAll, len(entries)))
	}
	switch {
	case o.from == 0:
		notes = append(notes, fmt.Sprintf("time to reach not measured: %s not found in %s", o.siteFunc, o.siteFile))
	case reachGroup == 0:
		run.Reached, run.TimeToReachS = true, 0 // the seeds reach it
	case reachGroup > 0:
		// The first input of the group whose prefix reaches it.
		g := groups[reachGroup]
		lo, hi := 0, len(g) // entries[:lo] does not reach it, entries[:hi] does
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			blocks, _, err := o.replayEntries(ctx, replayDir, c, g[:mid])
			if err != nil {
				notes = append(notes, "time to reach: "+err.Error())
				break
			}
			if o.reaches(blocks) {
				hi = mid
			} else {
				lo = mid
			}
		}
		run.Reached, run.TimeToReachS = true, g[hi-1].t
	}
	if run.Found && (!run.Reached || run.TimeToBugS < run.TimeToReachS) {
		run.Reached, run.TimeToReachS = true, run.TimeToBugS
	}
	if len(notes) > 0 {
		run.Note = strings.TrimSpace(run.Note + " " + strings.Join(notes, "; "))
	}
}
