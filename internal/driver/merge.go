package driver

import (
	"fmt"
	"os"
	"strconv"

	"github.com/gfz-dev/gfz/internal/engine"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// mergeSkipEnv tells a -merge=1 child how many inputs of the IN
// directories an earlier child already went through (it died on the last).
const mergeSkipEnv = "GFZ_MERGE_SKIP"

// mergeBaseEnv tells a -merge=1 child that follows another what the run's
// totals start from: "FILES FEATURES EDGES KEPT", the files of OUT and
// their features and edges before the first child, and the files the
// earlier children wrote. Its OUT holds those files too, so without it the last line's
// counts were only its own.
const mergeBaseEnv = "GFZ_MERGE_BASE"

// superviseMerge runs libFuzzer's -merge=1 OUT IN... in a child process
// (this executable with the same arguments): the inputs of the IN
// directories that add coverage to what OUT's inputs cover are written
// into OUT. An input that kills the child (a crash, a hang past -timeout,
// memory) is reported and skipped, and a new child goes on after it; the
// inputs kept so far are in OUT already, so the new child's coverage
// starts from them.
func (lf *libFuzzer) superviseMerge(cfg *config) int {
	exe, ok := cfg.parentSetup()
	if !ok {
		return ExitUsage
	}
	args := cfg.lfChildBase()
	skip := 0
	base := ""
	for {
		os.Setenv(mergeSkipEnv, strconv.Itoa(skip))
		os.Setenv(mergeBaseEnv, base)
		c, err := runChild(exe, childOptions{
			args: args, stdout: cfg.stdout, stderr: cfg.stderr,
			timeout: cfg.reproTimeout(), rssLimitMB: cfg.rssLimitMB,
		})
		os.Unsetenv(mergeSkipEnv)
		os.Unsetenv(mergeBaseEnv)
		if err != nil {
			fmt.Fprintf(cfg.stderr, "gfz: merge: %v\n", err)
			return ExitUsage
		}
		switch {
		case c.doneSeen:
			return c.done
		case !c.started:
			return cfg.setupFailure(c)
		case c.running && c.input >= skip:
			fmt.Fprintf(cfg.stderr, "MERGE-OUTER: input %d of the IN directories ended the process (%s); skipped\n", c.input, oneLine(c.crashKind()))
			skip = c.input + 1
			c.mu.Lock()
			base = c.merge
			c.mu.Unlock()
		default:
			fmt.Fprintf(cfg.stderr, "gfz: merge: the process died (%s) outside an input of the IN directories (see its output above)\n", oneLine(c.crashKind()))
			return ExitUsage
		}
	}
}

// mergeChild is -merge=1 in the child: it runs OUT's inputs, then each
// input of the IN directories (sorted, duplicates by content dropped, the
// first skip of them left out), and writes those whose edge coverage (the
// probe map's hit counts classified in AFL's buckets) has a class no
// earlier input had into OUT, raw, named by their SHA-1. Inputs that fail
// add nothing.
func (c *config) mergeChild(t Target, status *statusWriter) int {
	lf := c.lf
	out := lf.corpus[0]
	outFiles, err := corpusFiles(out)
	if err != nil {
		fmt.Fprintf(c.stderr, "gfz: merge: %v\n", err)
		return ExitUsage
	}
	inFiles, err := corpusFiles(lf.corpus[1:]...)
	if err != nil {
		fmt.Fprintf(c.stderr, "gfz: merge: %v\n", err)
		return ExitUsage
	}
	_, outData, err := sortedUnique(outFiles, c.codec())
	if err != nil {
		fmt.Fprintf(c.stderr, "gfz: merge: %v\n", err)
		return ExitUsage
	}
	_, inData, err := sortedUnique(inFiles, c.codec())
	if err != nil {
		fmt.Fprintf(c.stderr, "gfz: merge: %v\n", err)
		return ExitUsage
	}
	skip, _ := strconv.Atoi(os.Getenv(mergeSkipEnv))
	ex := t.Executor()
	acc := make([]uint8, gfzrt.MapSize)
	features, edges := 0, 0 // (edge, bucket) pairs; edges hit at all
	run := func(data []byte) int {
		gfzrt.Reset()
		o := ex.Exec(data, 0)
		if o.Result != engine.Valid && o.Result != engine.Invalid {
			return 0
		}
		added := 0
		for i, n := range gfzrt.Map[:] {
			if n == 0 {
				continue
			}
			if b := gfzrt.Bucket(n); acc[i]&b == 0 {
				if acc[i] == 0 {
					edges++
				}
				acc[i] |= b
				added++
			}
		}
		features += added
		return added
	}
	for _, d := range outData {
		run(d)
	}
	initial, initialEdges, outFilesAtStart, kept := features, edges, len(outData), 0
	if b := os.Getenv(mergeBaseEnv); b != "" {
		// An earlier child printed the first line and wrote kept files.
		if _, err := fmt.Sscan(b, &outFilesAtStart, &initial, &initialEdges, &kept); err != nil {
			fmt.Fprintf(c.stderr, "gfz: merge: %s=%q: %v\n", mergeBaseEnv, b, err)
			return ExitUsage
		}
	} else {
		fmt.Fprintf(c.stderr, "MERGE-OUTER: %d files, %d in the initial corpus, %d features\n", len(outData)+len(inData), len(outData), initial)
	}
	progress := func() {
		status.line("merge", fmt.Sprintf("%d %d %d %d", outFilesAtStart, initial, initialEdges, kept))
	}
	progress()
	for i, d := range inData {
		if i < skip {
			continue
		}
		status.line("input", strconv.Itoa(i))
		added := run(d)
		status.line("end", strconv.Itoa(len(d)))
		if added == 0 {
			continue
		}
		written, err := writeUnit(out, d)
		if err != nil {
			fmt.Fprintf(c.stderr, "gfz: merge: %v\n", err)
			return ExitUsage
		}
		if written {
			kept++
			progress()
		}
	}
	// libFuzzer's words, which ClusterFuzz's merge statistics parse.
	fmt.Fprintf(c.stderr, "MERGE-OUTER: %d new files with %d new features added; %d new coverage edges\n", kept, features-initial, edges-initialEdges)
	return ExitOK
}
