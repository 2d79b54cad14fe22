//go:build unix

package engine

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSupervisorMetrics: the supervisor sums the workers' counters (an
// ended worker's once, however often it looks) and reports the largest
// Hill numbers.
func TestSupervisorMetrics(t *testing.T) {
	dir := t.TempDir()
	s := &supervisor{}
	var worker []*fuzzer
	for i := range 2 {
		m, err := createShm(filepath.Join(dir, ".w"+strconv.Itoa(i)+".shm"), 64)
		if err != nil {
			t.Fatal(err)
		}
		defer m.close()
		s.slots = append(s.slots, &slot{id: i, shm: m, running: true})
		f := &fuzzer{shm: m, div: newDiversity()}
		worker = append(worker, f)
	}
	// Worker 0: abundances 1 1 (Hill numbers 2 2 2); worker 1: 3 1 1
	// (3, 2.59, 2.27): the largest of each order is reported.
	worker[0].div.abundance.setAll(0, 1, 1, 1)
	worker[1].div.abundance.setAll(0, 3, 1, 1, 2, 1)
	worker[0].met = metrics{children: 100, zero: 10, distSum: 3, distN: 6, distZero: 1}
	worker[1].met = metrics{children: 50, zero: 20, distSum: 1, distN: 4, distZero: 2}
	for _, f := range worker {
		f.publishMetrics()
	}
	b1 := math.Exp(-(0.6*math.Log(0.6) + 0.4*math.Log(0.2)))
	check := func(when string, children, zero int64, mean float64) {
		t.Helper()
		r := s.metrics()
		if r.children != children || r.zero != zero || math.Abs(r.distMean()-mean) > 1e-12 || r.hill[0] != 3 || math.Abs(r.hill[1]-b1) > 1e-12 || math.Abs(r.hill[2]-1/0.44) > 1e-12 {
			t.Errorf("%s: %+v, want children %d, zero %d, mean %v, Hill numbers 3 %v %v", when, r, children, zero, mean, b1, 1/0.44)
		}
	}
	check("running", 150, 30, 0.4)
	// Worker 1 ends: its counters are kept (once); a new process of
	// its slot starts from zero.
	s.slots[1].running = false
	check("ended", 150, 30, 0.4)
	check("ended, again", 150, 30, 0.4)
	s.slots[1].shm.reset()
	s.slots[1].running = true
	worker[1].met = metrics{children: 5, zero: 1}
	worker[1].div = newDiversity()
	worker[1].publishMetrics()
	check("restarted", 155, 31, 0.4)
	st := metricsRow{}
	var keys []string
	st.keys(func(k string, _ any) { keys = append(keys, k) })
	for _, k := range []string{"hill_b0", "hill_b1", "hill_b2", "zero_mutations", "mutation_distance_mean"} {
		if !strings.Contains(strings.Join(keys, " "), k) {
			t.Errorf("stats keys %v lack %s", keys, k)
		}
	}
}
