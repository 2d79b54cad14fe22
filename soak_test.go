package gfz_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSoak is the supervisor soak benchmark; it runs only with GFZ_SOAK=1
// (it takes about 15 minutes):
//
//	GFZ_SOAK=1 go test -run TestSoak -v -timeout 30m .
//
// It measures the throughput of one and two workers on a target that never
// crashes (FuzzFine) and on one that crashes often (FuzzOften), GFZ_SOAK_RATIO
// (default 60s) each, then runs FuzzOften with two workers for GFZ_SOAK_TIME
// (default 10m), sampling the stats file every 30s: executions per second
// over time, restarts, and the resident memory of the supervisor and the
// workers.
func TestSoak(t *testing.T) {
	if os.Getenv("GFZ_SOAK") != "1" {
		t.Skip("set GFZ_SOAK=1 to run the soak benchmark")
	}
	soak := envDuration(t, "GFZ_SOAK_TIME", 10*time.Minute)
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

	logf("soak: FuzzOften, 2 workers, %v:", soak)
	wd := filepath.Join(t.TempDir(), "wd")
	cmd := exec.Command(bin, "-workers", "2", "-time", soak.String(), "-workdir", wd, "FuzzOften")
	cmd.Dir = t.TempDir()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	logf("  %8s %12s %10s %9s %14s %12s", "elapsed", "execs", "execs/s", "restarts", "supervisor KiB", "workers KiB")
	var lastExecs int64
	lastT := 0.0
	sample := func() {
		b, err := os.ReadFile(filepath.Join(wd, "stats"))
		if err != nil {
			return
		}
		_ = b
		st := readStats(t, wd)
		el := 0.0
		fmt.Sscan(st["elapsed_s"], &el)
		execs := statInt(t, st, "execs")
		rate := 0.0
		if el > lastT {
			rate = float64(execs-lastExecs) / (el - lastT)
		}
		lastExecs, lastT = execs, el
		logf("  %8.0f %12d %10.0f %9s %14s %12s", el, execs, rate, st["restarts"], st["rss_supervisor_kb"], st["rss_workers_kb"])
	}
	tick := time.NewTicker(30 * time.Second)
	defer tick.Stop()
loop:
	for {
		select {
		case <-tick.C:
			sample()
		case <-done:
			break loop
		}
	}
	st := readStats(t, wd)
	logf("  final: execs %s, execs/s %s, restarts %s, crashes %s, unique failures %s, corpus %s, stability %s",
		st["execs"], st["execs_per_sec"], st["restarts"], st["crashes"], st["unique_failures"], st["corpus"], st["stability"])
	if out := os.Getenv("GFZ_SOAK_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(report.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
