package gfz_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSoakShort runs the soak target (FuzzOften: a goroutine panic every
// few hundred executions once the maze is solved, so a worker dies and is
// restarted again and again) with two workers for a fixed execution budget
// and checks what the long soak below checks, on a smaller scale.
func TestSoakShort(t *testing.T) {
	bin := crashersBinary(t)
	soak(t, bin, []string{"-runs", "500000"}, 50*time.Millisecond, t.Logf)
}

// TestSoak is the supervisor soak benchmark; it runs only with GFZ_SOAK=1
// (it takes about 15 minutes):
//
//	GFZ_SOAK=1 go test -run 'TestSoak$' -v -timeout 30m .
//
// It measures the throughput of one and two workers on a target that never
// crashes (FuzzFine) and on one that crashes often (FuzzOften), GFZ_SOAK_RATIO
// (default 60s) each, then runs FuzzOften with two workers for GFZ_SOAK_TIME
// (default 10m), sampling the stats file every 30s: executions per second
// over time, restarts, and the resident memory of the supervisor and the
// workers. It fails when memory grows, a death is not attributed or a
// finding is lost (see soak).
func TestSoak(t *testing.T) {
	if os.Getenv("GFZ_SOAK") != "1" {
		t.Skip("set GFZ_SOAK=1 to run the soak benchmark")
	}
	soakTime := envDuration(t, "GFZ_SOAK_TIME", 10*time.Minute)
	ratioTime := envDuration(t, "GFZ_SOAK_RATIO", time.Minute)
	bin := crashersBinary(t)
	var report strings.Builder
	logf := func(format string, args ...any) {
		fmt.Fprintf(&report, format+"\n", args...)
		t.Logf(format, args...)
	}

	logf("throughput, %v per run (execs/s from the stats file):", ratioTime)
	for _, target := range []string{"FuzzFine", "FuzzOften"} {
		var rates [2]float64
		for w := 1; w <= 2; w++ {
			wd := filepath.Join(t.TempDir(), "wd")
			cmd := exec.Command(bin, "-workers", fmt.Sprint(w), "-time", ratioTime.String(), "-workdir", wd, target)
			cmd.Dir = t.TempDir()
			cmd.Run() // FuzzOften exits 1 (failure found)
			st := readStats(t, wd)
			rates[w-1] = float64(statInt(t, st, "execs")) / ratioTime.Seconds()
			logf("  %-9s workers %d: %8.0f execs/s, restarts %s", target, w, rates[w-1], st["restarts"])
		}
		logf("  %-9s 2-worker / 1-worker ratio: %.2f", target, rates[1]/rates[0])
	}
	logf("soak: FuzzOften, 2 workers, %v:", soakTime)
	soak(t, bin, []string{"-time", soakTime.String()}, 30*time.Second, logf)
	if out := os.Getenv("GFZ_SOAK_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(report.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// soakSample is one reading during a soak run: the resident memory of the
// supervisor and of its largest worker, and the counters of the stats file.
type soakSample struct {
	elapsed         float64
	execs, restarts int64
	superKB, workKB int64
}

// rssKB returns the resident set of process pid in KiB (0 if it is gone).
func rssKB(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize()) >> 10
}

// soak runs FuzzOften with two workers and the given budget flags,
// sampling the stats file every period, and checks:
//   - memory stays flat: neither the supervisor's resident memory (its
//     peak) nor the typical worker's (the median of the largest worker)
//     grows in the second half of the run beyond the first half's plus a
//     margin;
//   - every death is attributed: all crashes are the one known failure
//     (unique_failures 1, one "new failure" announcement), every crash but
//     possibly the last ones at the end of the budget was followed by a
//     restart, and no worker ended with an error;
//   - nothing is lost: the corpus count in stats equals the files in
//     corpus/, and the failure's input reproduces it with -repro.
func soak(t *testing.T, bin string, budget []string, period time.Duration, logf func(string, ...any)) {
	t.Helper()
	wd := filepath.Join(t.TempDir(), "wd")
	// zest: FuzzOften crashes often once an input is two steps into
	// the maze, and zest mutates such inputs (random, the default, draws
	// afresh and crashes a few times in 500,000 executions).
	args := append([]string{"-engine", "zest", "-workers", "2", "-seed", "5", "-workdir", wd}, budget...)
	cmd := exec.Command(bin, append(args, "FuzzOften")...)
	cmd.Dir = t.TempDir()
	var out bytes.Buffer
	cmd.Stderr = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var samples []soakSample
	sample := func() {
		// Memory from /proc, fresh at every sample; counters from the
		// stats file, which the supervisor rewrites every few seconds.
		// A worker that has died and is not yet reaped reads 0, and
		// between a death and the restart there may be no worker at all:
		// such a sample has no worker reading (workKB 0) and is left out
		// of the workers' statistic below.
		s := soakSample{superKB: rssKB(cmd.Process.Pid)}
		for _, pid := range childPIDs(cmd.Process.Pid) {
			if !isZombie(pid) {
				s.workKB = max(s.workKB, rssKB(pid))
			}
		}
		if s.superKB == 0 {
			return // exited
		}
		if _, err := os.Stat(filepath.Join(wd, "stats")); err == nil {
			st := readStats(t, wd)
			s.elapsed, _ = strconv.ParseFloat(st["elapsed_s"], 64)
			s.execs, _ = strconv.ParseInt(st["execs"], 10, 64)
			s.restarts, _ = strconv.ParseInt(st["restarts"], 10, 64)
		}
		samples = append(samples, s)
		if logf != nil {
			logf("  %8.0fs execs %12d restarts %7d supervisor %6d KiB largest worker %7d KiB", s.elapsed, s.execs, s.restarts, s.superKB, s.workKB)
		}
	}
	tick := time.NewTicker(period)
	defer tick.Stop()
	var err error
loop:
	for {
		select {
		case <-tick.C:
			sample()
		case err = <-done:
			break loop
		}
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("soak run: %v, want exit status 1 (a failure found)\n%s", err, tail(out.String(), 3000))
	}
	st := readStats(t, wd)
	if logf != nil {
		logf("  final: execs %s, execs/s %s, restarts %s, crashes %s, unique failures %s, corpus %s, stability %s",
			st["execs"], st["execs_per_sec"], st["restarts"], st["crashes"], st["unique_failures"], st["corpus"], st["stability"])
	}

	// Every death attributed.
	crashes, restarts := statInt(t, st, "crashes"), statInt(t, st, "restarts")
	if crashes < 20 {
		t.Fatalf("only %d crashes: the soak did not exercise restarts\n%s", crashes, tail(out.String(), 3000))
	}
	if restarts > crashes || restarts < crashes-2 {
		t.Errorf("restarts %d for %d crashes: every death but the last ones must be followed by a restart", restarts, crashes)
	}
	if u := statInt(t, st, "unique_failures"); u != 1 {
		t.Errorf("unique_failures %d, want 1: every crash is the same goroutine panic", u)
	}
	if n := strings.Count(out.String(), "gfz: new failure"); n != 1 {
		t.Errorf("%d 'new failure' announcements, want 1\n%s", n, tail(out.String(), 3000))
	}
	for _, bad := range []string{"ended with an error", "could not save", "not restarting"} {
		if strings.Contains(out.String(), bad) {
			t.Errorf("output has %q:\n%s", bad, tail(out.String(), 3000))
		}
	}

	// Nothing lost.
	files, err := os.ReadDir(filepath.Join(wd, "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if !strings.HasPrefix(f.Name(), ".") {
			n++
		}
	}
	if c := statInt(t, st, "corpus"); c != int64(n) {
		t.Errorf("stats count %d corpus entries, corpus/ holds %d", c, n)
	}
	inputs, _ := filepath.Glob(filepath.Join(wd, "failures", "*.input"))
	reports, _ := filepath.Glob(filepath.Join(wd, "failures", "*.txt"))
	if len(inputs) != 1 || len(reports) != 1 {
		t.Fatalf("failures/ holds %v and %v, want one input and one report", inputs, reports)
	}
	if o, code := runBin(t, bin, "-repro", inputs[0], "FuzzOften"); code != 1 || !strings.Contains(o, "often") {
		t.Errorf("-repro of the saved failure: exit %d, want 1 with the panic\n%s", code, o)
	}

	// Flat memory.
	if len(samples) < 6 {
		t.Fatalf("only %d stats samples while running: cannot judge memory", len(samples))
	}
	// The halves are by work done (executions), not by time: on a loaded
	// machine the same run spreads its executions differently over time,
	// and a leak grows with executions and crashes, not with seconds.
	half := sort.Search(len(samples), func(i int) bool { return samples[i].execs*2 >= samples[len(samples)-1].execs })
	if half < 3 || len(samples)-half < 3 {
		half = len(samples) / 2 // too few samples with counters on one side: by count
	}
	peak := func(ss []soakSample, f func(soakSample) int64) int64 {
		m := int64(0)
		for _, s := range ss {
			m = max(m, f(s))
		}
		return m
	}
	super := func(s soakSample) int64 { return s.superKB }
	work := func(s soakSample) int64 { return s.workKB }
	// median is over the samples with a reading (f > 0); ok is false
	// when fewer than 3 have one.
	median := func(ss []soakSample, f func(soakSample) int64) (m int64, ok bool) {
		var v []int64
		for _, s := range ss {
			if x := f(s); x > 0 {
				v = append(v, x)
			}
		}
		if len(v) < 3 {
			return 0, false
		}
		slices.Sort(v)
		return v[len(v)/2], true
	}
	// The supervisor lives the whole run: its peak per half is what a
	// leak (a record per crash or per execution) raises. Margins: 25% plus
	// 2 MiB absorb the garbage collector's heap target moving.
	first, second := peak(samples[:half], super), peak(samples[half:], super)
	if second > first*5/4+2048 {
		t.Errorf("supervisor resident memory grew: peak %d KiB in the first half of the run, %d KiB in the second", first, second)
	}
	// A worker lives from one crash to the next, and its resident memory
	// grows with its age (its heap target follows its live data) however
	// long that is; a half with fewer crashes catches older workers, so a
	// peak per half compares incarnations of different ages. What a leak
	// carried from incarnation to incarnation (state handed to every new
	// worker) raises is the typical worker: the median per half, with a
	// margin of 50% plus 4 MiB for workers sampled at different ages.
	first, ok1 := median(samples[:half], work)
	second, ok2 := median(samples[half:], work)
	if !ok1 || !ok2 {
		t.Fatalf("fewer than 3 samples with a live worker in a half of the run (%d samples): cannot judge the workers' memory", len(samples))
	}
	if logf != nil {
		logf("  largest worker, median: %d KiB in the first half, %d KiB in the second", first, second)
	}
	if second > first*3/2+4096 {
		t.Errorf("largest worker resident memory grew: median %d KiB in the first half of the run, %d KiB in the second", first, second)
	}
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

func envDuration(t *testing.T, key string, def time.Duration) time.Duration {
	t.Helper()
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return d
}
