package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// proc describes one contender process.
type proc struct {
	dir       string
	path      string
	args      []string
	stopAt    time.Duration // send SIGINT to the process group at this time (0: never)
	found     func() bool   // polled; a true result marks the failure time and stops the run (unless keepGoing)
	keepGoing bool
	onLine    func(line string, at time.Duration) // called for every output line, with its arrival time
	log       string                              // file receiving the output
}

type procResult struct {
	wall    time.Duration
	found   bool
	foundAt time.Duration
	rss     int64 // KiB: the sum of the peak resident sets of the process group's processes
	exit    int
	err     error
}

// grace is how long a process may take to stop after SIGINT, and to start
// and finish beyond its time budget, before it is killed.
const grace = 20 * time.Second

const pollEvery = 20 * time.Millisecond

// start runs p to completion.
func (p *proc) run(ctx context.Context) procResult {
	var res procResult
	logf, err := os.Create(p.log)
	if err != nil {
		res.err = fmt.Errorf("run %s: %w", p.path, err)
		return res
	}
	defer logf.Close()
	cmd := exec.Command(p.path, p.args...)
	cmd.Dir = p.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	start := time.Now()
	if err := cmd.Start(); err != nil {
		res.err = fmt.Errorf("run %s: %w", p.path, err)
		return res
	}
	var lines sync.WaitGroup
	var mu sync.Mutex
	lines.Add(1)
	go func() {
		defer lines.Done()
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			at := time.Since(start)
			fmt.Fprintln(logf, sc.Text())
			if p.onLine != nil {
				mu.Lock()
				p.onLine(sc.Text(), at)
				mu.Unlock()
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	signal := func(s syscall.Signal) { _ = syscall.Kill(-cmd.Process.Pid, s) }
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	var stopped time.Time
	stop := func() {
		if stopped.IsZero() {
			signal(syscall.SIGINT)
			stopped = time.Now()
		}
	}
	var werr error
	hwm := map[int]int64{}
	ticks := 0
loop:
	for {
		select {
		case werr = <-done:
			break loop
		case <-ctx.Done():
			stop()
		case <-tick.C:
			if ticks++; ticks%5 == 1 {
				groupHWM(cmd.Process.Pid, hwm)
			}
		}
		el := time.Since(start)
		if !res.found && p.found != nil && p.found() {
			res.found, res.foundAt = true, el
			groupHWM(cmd.Process.Pid, hwm)
			if !p.keepGoing {
				stop()
			}
		}
		if p.stopAt > 0 && el >= p.stopAt {
			stop()
		}
		if !stopped.IsZero() && time.Since(stopped) > grace {
			signal(syscall.SIGKILL)
		}
	}
	res.wall = time.Since(start)
	pw.Close()
	lines.Wait()
	for _, v := range hwm {
		res.rss += v
	}
	res.exit = cmd.ProcessState.ExitCode()
	if werr != nil && res.exit < 0 {
		res.err = fmt.Errorf("run %s: %w", p.path, werr)
	}
	return res
}

// groupHWM records in hwm the peak resident set (VmHWM, KiB) of every
// live process of process group pgid and of every descendant of its
// leader (pid pgid): gfz's workers run in process groups of their own
// (so that what a target starts dies with its worker), and a harness that
// read the group alone saw the supervisor only. (The rusage of a finished
// child is no use here: Go starts children with vfork, so their ru_maxrss
// includes the parent's resident set before exec.)
func groupHWM(pgid int, hwm map[int]int64) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	type proc struct{ ppid, pgrp int }
	procs := map[int]proc{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may contain spaces.
		i := strings.LastIndexByte(string(stat), ')')
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgrp, _ := strconv.Atoi(f[2])
		procs[pid] = proc{ppid, pgrp}
	}
	ours := func(pid int) bool {
		for n := 0; n < 64 && pid > 1; n++ { // a bounded walk: pids are reused
			p, ok := procs[pid]
			if !ok {
				return false
			}
			if p.pgrp == pgid || pid == pgid {
				return true
			}
			pid = p.ppid
		}
		return false
	}
	for pid := range procs {
		if !ours(pid) {
			continue
		}
		status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				hwm[pid] = max(hwm[pid], kb)
			}
		}
	}
}

// run runs contender c on p once.
func (r *runner) run(ctx context.Context, p *prepared, c string, rep int) Result {
	res := Result{Target: p.t.String(), Contender: c, Rep: rep, ValidPct: -1, FoundExec: -1, CorpusValidPct: -1}
	dir := filepath.Join(r.cfg.Work, "runs", fmt.Sprintf("%s.%s.%d", sanitize(p.t.String()), c, rep))
	// A run again in a kept scratch directory (-work of an interrupted
	// evaluation, resumed) starts afresh, not from the corpus, cache or
	// failures of the run before.
	if err := os.RemoveAll(dir); err != nil {
		res.Err = err.Error()
		return res
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		res.Err = err.Error()
		return res
	}
	if err := copyDir(filepath.Join(p.t.Dir, "testdata"), filepath.Join(dir, "testdata")); err != nil {
		res.Err = err.Error()
		return res
	}
	seed := strconv.Itoa(rep + 1)
	var pr procResult
	switch {
	case isGfz(c):
		wd := filepath.Join(dir, "wd")
		// One worker: per-core figures.
		args := []string{"-engine", strings.TrimPrefix(c, "gfz-"), "-seed", seed, "-workdir", wd, "-workers", "1"}
		if r.cfg.Runs > 0 {
			args = append(args, "-runs", strconv.FormatInt(r.cfg.Runs, 10))
		}
		args = append(args, "-time", r.cfg.Time.String(), p.t.Name)
		failures := filepath.Join(wd, "failures", "*.txt")
		pr = (&proc{dir: dir, path: p.gfzBin, args: args, log: filepath.Join(dir, "log"),
			stopAt: r.cfg.Time + grace, keepGoing: r.cfg.KeepGoing,
			found: func() bool { m, _ := workdir.Glob(failures); return len(m) > 0 },
		}).run(ctx)
		st := readStats(filepath.Join(wd, "stats"))
		res.Execs = int64(st["execs"])
		res.ExecsPerSec = st["execs_per_sec"]
		if v, ok := st["valid_pct"]; ok {
			res.ValidPct = v
		}
		res.Engine = engineMetrics(st)
		if m, _ := workdir.Glob(failures); len(m) > 0 {
			res.FoundExec = firstFoundExec(m)
		}
		res.CorpusDir = filepath.Join(wd, "corpus")
	case c == Native:
		cache := filepath.Join(dir, "cache")
		ft := r.cfg.Time.String()
		if r.cfg.Runs > 0 {
			ft = fmt.Sprintf("%dx", r.cfg.Runs)
		}
		var rt rateTracker
		var failAt time.Duration = -1
		pr = (&proc{dir: dir, path: p.native, log: filepath.Join(dir, "log"),
			args:   []string{"-test.run=^$", "-test.fuzz=^" + p.t.Name + "$", "-test.parallel=1", "-test.fuzzcachedir=" + cache, "-test.fuzztime=" + ft},
			stopAt: r.cfg.Time + grace/2,
			onLine: func(l string, at time.Duration) {
				rt.line(l, at)
				if failAt < 0 && (strings.Contains(l, "minimizing") || strings.HasPrefix(l, "--- FAIL") || strings.Contains(l, "failure while testing seed corpus")) {
					failAt = at
				}
			},
		}).run(ctx)
		res.Execs, res.ExecsPerSec = rt.execs, rt.rate()
		if rt.n == 0 {
			res.Execs = -1 // no status line: ended (found a bug) at once
		}
		if pr.exit == 1 && failAt >= 0 {
			pr.found, pr.foundAt = true, failAt
		}
		res.CorpusDir = filepath.Join(cache, p.t.Name)
	case c == GoFuzz:
		wd := filepath.Join(dir, "gofuzz")
		if out, err := exec.CommandContext(ctx, p.plain.Limit, "-target", p.t.Name, "-seeds", filepath.Join(wd, "corpus")).CombinedOutput(); err != nil {
			res.Err = fmt.Sprintf("write seeds: %v: %s", err, out)
			return res
		}
		rt := rateTracker{skipZero: true}
		crashers := filepath.Join(wd, "crashers", "*.output")
		pr = (&proc{dir: dir, path: filepath.Join(r.cfg.GoFuzzBin, "go-fuzz"), log: filepath.Join(dir, "log"),
			args:   []string{"-bin", p.goFuzz, "-workdir", wd, "-procs", "1"},
			stopAt: r.cfg.Time,
			found:  func() bool { m, _ := workdir.Glob(crashers); return len(m) > 0 },
			onLine: rt.line,
		}).run(ctx)
		// go-fuzz prints its status every 3 s, and its first executions
		// come seconds after its start: with a single line counting
		// executions, fall back to go-fuzz's own figure (executions over
		// its whole uptime, start-up included: an underestimate).
		res.Execs, res.ExecsPerSec = rt.execs, rt.rate()
		switch rt.n {
		case 0:
			res.Execs = -1
		case 1:
			res.ExecsPerSec = rt.reported
		}
		res.CorpusDir = filepath.Join(wd, "corpus")
		if pr.found && onlyInterrupted(crashers) {
			// Stopping go-fuzz with SIGINT at the time budget can make it
			// record the interrupted testee as a crasher: not a bug.
			pr.found = false
		}
	case c == Limit || c == LimitInstr:
		bin := p.plain.Limit
		if c == LimitInstr {
			bin = p.plain.LimitInstr
		}
		stats := filepath.Join(dir, "stats")
		args := []string{"-target", p.t.Name, "-seed", seed, "-stats", stats, "-time", r.cfg.Time.String()}
		if r.cfg.Runs > 0 {
			args = append(args, "-runs", strconv.FormatInt(r.cfg.Runs, 10))
		}
		if r.cfg.KeepGoing {
			args = append(args, "-keep-going")
		}
		pr = (&proc{dir: dir, path: bin, args: args, log: filepath.Join(dir, "log"), stopAt: r.cfg.Time + grace}).run(ctx)
		st := readStats(stats)
		res.Execs = int64(st["execs"])
		res.ExecsPerSec = st["execs_per_sec"]
		res.ValidPct = st["valid_pct"]
		pr.rss = max(pr.rss, int64(st["vmhwm_kb"])) // a short run may end before the first sample
		if st["found_at_exec"] >= 0 && len(st) > 0 {
			pr.found, pr.foundAt = true, pr.wall
			if r.cfg.KeepGoing {
				// It ran on after the failure: its own clock (from the
				// start of its loop, so without the few milliseconds of
				// process start-up) says when.
				pr.foundAt = time.Duration(st["found_at_s"] * float64(time.Second))
			}
			res.FoundExec = int64(st["found_at_exec"])
		}
	default:
		res.Err = "unknown contender " + c
		return res
	}
	res.Wall = pr.wall.Seconds()
	res.MaxRSSKiB = pr.rss
	res.Found, res.FoundS = pr.found, pr.foundAt.Seconds()
	if pr.err != nil {
		res.Err = pr.err.Error()
	} else if res.Found && res.Execs <= 0 {
		res.Execs = -1 // found the bug before a status line counted executions: rate unknown
	} else if res.Execs == 0 || res.Execs < 0 && !res.Found && (pr.exit != 0 || c != GoFuzz) {
		b, _ := os.ReadFile(filepath.Join(dir, "log"))
		res.Err = fmt.Sprintf("no executions counted (exit %d): %s", pr.exit, oneLine(lastLines(b, 3)))
	}
	return res
}

// onlyInterrupted reports whether every go-fuzz crasher report matching
// pattern records nothing but the testee being interrupted.
func onlyInterrupted(pattern string) bool {
	files, _ := workdir.Glob(pattern)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || strings.TrimSpace(string(b)) != "signal: interrupt" {
			return false
		}
	}
	return len(files) > 0
}

// rateTracker follows the status lines of the native fuzzer and go-fuzz
// ("execs: N (R/sec)") and computes the execution rate between the first
// and the last line from the lines' arrival times (both tools print
// integer-second or cumulative figures, too coarse for short runs).
type rateTracker struct {
	skipZero      bool // ignore lines before the first execution (go-fuzz prints some while its worker starts)
	n             int
	first, execs  int64
	tFirst, tLast time.Duration
	reported      float64 // the R of the last line (go-fuzz: executions over its uptime)
}

func (rt *rateTracker) line(l string, at time.Duration) {
	m := execsLine.FindStringSubmatch(l)
	if m == nil {
		return
	}
	e, _ := strconv.ParseInt(m[1], 10, 64)
	if rt.skipZero && e == 0 {
		return
	}
	rt.reported, _ = strconv.ParseFloat(m[2], 64)
	if rt.n == 0 {
		rt.first, rt.tFirst = e, at
	}
	rt.n++
	if e > rt.execs {
		rt.execs, rt.tLast = e, at
	}
}

func (rt *rateTracker) rate() float64 {
	if rt.tLast <= rt.tFirst {
		return math.NaN() // the run ended before a second status line
	}
	return float64(rt.execs-rt.first) / (rt.tLast - rt.tFirst).Seconds()
}

var (
	execsLine = regexp.MustCompile(`execs: (\d+) \((\d+)/sec\)`)
	// "found at execution: N", or from a worker "found at execution:
	// about N (all workers; ...)".
	foundLine = regexp.MustCompile(`(?m)^found at execution: (?:about )?(\d+)`)
)

// readStats reads the numeric values of a stats file (workdir.ReadStats):
// gfz's or the limit binary's. An unreadable file has none.
func readStats(path string) map[string]float64 {
	st, _, _ := workdir.ReadStats(path)
	return statValues(st)
}

// statValues returns the values of st that are numbers, by key.
func statValues(st *workdir.Stats) map[string]float64 {
	m := map[string]float64{}
	for _, k := range st.Keys() {
		if x, ok := st.Float(k); ok {
			m[k] = x
		}
	}
	return m
}

// firstFoundExec returns the smallest "found at execution" of the reports.
func firstFoundExec(reports []string) int64 {
	best := int64(-1)
	for _, f := range reports {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if m := foundLine.FindSubmatch(b); m != nil {
			n, _ := strconv.ParseInt(string(m[1]), 10, 64)
			if best < 0 || n < best {
				best = n
			}
		}
	}
	return best
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' || r == ':' {
			return '_'
		}
		return r
	}, s)
}

// copyDir copies the regular files of the tree src into dst; a missing src
// is not an error.
func copyDir(src, dst string) error {
	if _, err := os.Stat(src); os.IsNotExist(err) {
		return nil
	}
	err := filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		out := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return nil
}

func (res Result) summary() string {
	if res.Err != "" {
		return "error: " + res.Err
	}
	s := fmt.Sprintf("%d execs, %.0f/s, rss %d MiB", res.Execs, res.ExecsPerSec, res.MaxRSSKiB>>10)
	if res.Found {
		s += fmt.Sprintf(", bug found at %.2fs", res.FoundS)
	}
	return s
}
