package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// Feedback domains under a supervisor: each worker rewrites its domains'
// stats keys in <workdir>/.feedback-<slot> at every status interval and at
// its end; the supervisor merges them into its stats file and final
// summary. (The domains' best values need no exchange: a worker imports
// the inputs the others save, and re-executing them updates its domains.)

// feedbackFilePrefix names the workers' files in the work directory.
const feedbackFilePrefix = ".feedback-"

// writeFeedbackFile writes a worker's domain stats (nothing when no domain
// was asked for and the target reported no waypoint).
func (f *fuzzer) writeFeedbackFile() {
	if _, ok := f.strat.(reportingStrategy); f.shm == nil || (len(f.cfg.Feedback) == 0 && len(f.waypoints.best) == 0 && !ok) {
		return
	}
	var b bytes.Buffer
	for _, p := range addCounts(f.domainKV(), f.feedbackBase()) {
		fmt.Fprintf(&b, "%s: %s\n", p.k, p.v)
	}
	if err := workdir.ReplaceFile(f.feedbackPath(), b.Bytes()); err != nil && f.err == nil {
		f.err = fmt.Errorf("engine: write feedback stats: %w", err)
	}
}

// feedbackPath is the worker's file (under a supervisor: f.shm set).
func (f *fuzzer) feedbackPath() string {
	return filepath.Join(f.wd.Root, feedbackFilePrefix+strconv.FormatUint(f.shm.load(offWorkerID), 10))
}

// feedbackBase returns the summed counts the dead workers of the slot left
// in its file (read once; none unless Config.Restarted under a supervisor).
func (f *fuzzer) feedbackBase() []kvPair {
	if !f.fbBaseRead && f.shm != nil {
		f.fbBaseRead = true
		if f.cfg.Restarted {
			f.fbBase = summedKeys(readFeedbackFile(f.feedbackPath()))
		}
	}
	return f.fbBase
}

// inherited is the count of summed key the dead workers of the slot left
// (0 in a first worker): a strategy's state that must outlive a restart.
func (v loopView) inherited(key string) int64 {
	n, _ := strconv.ParseInt(lookup(v.f.feedbackBase(), key), 10, 64)
	return n
}

// removeFeedbackFiles removes the workers' files of an earlier run.
func removeFeedbackFiles(root string) {
	for _, p := range feedbackFiles(root) {
		os.Remove(p)
	}
}

// feedbackFiles lists the paths of the workers' files in root, sorted by
// name (root taken literally: workdir.Glob).
func feedbackFiles(root string) []string {
	paths, _ := workdir.Glob(filepath.Join(root, feedbackFilePrefix+"*"))
	return paths
}

// A worker that replaces a dead one of its slot (Config.Restarted) counts
// from zero, and its file replaces the dead one's: the counts summed over
// the workers (summed: saved_*, arm_*) that the dead ones left in the file
// are the new worker's base, added to its own, so that the supervisor's
// totals are those of every worker process of the run, not of the last one
// of each slot (a target that crashes restarts its worker again and
// again). What a dead worker counted after its last write is lost.

// summedKeys returns the pairs of kvs whose values are summed.
func summedKeys(kvs []kvPair) []kvPair {
	var out []kvPair
	for _, p := range kvs {
		if summed(p.k) {
			out = append(out, p)
		}
	}
	return out
}

// addCounts returns kvs with base's counts added to its summed keys; the
// keys of base that kvs lacks are appended.
func addCounts(kvs, base []kvPair) []kvPair {
	if len(base) == 0 {
		return kvs
	}
	out := make([]kvPair, 0, len(kvs)+len(base))
	seen := map[string]bool{}
	for _, p := range kvs {
		if summed(p.k) {
			seen[p.k] = true
			a, _ := strconv.ParseInt(p.v, 10, 64)
			b, _ := strconv.ParseInt(lookup(base, p.k), 10, 64)
			p.v = strconv.FormatInt(a+b, 10)
		}
		out = append(out, p)
	}
	for _, p := range base {
		if !seen[p.k] {
			seen[p.k] = true
			out = append(out, p)
		}
	}
	return out
}

// readFeedbackFile reads one worker's file (nil if missing or unreadable).
func readFeedbackFile(path string) []kvPair {
	st, _, err := workdir.ReadStats(path)
	if err != nil {
		return nil
	}
	var kvs []kvPair
	for _, l := range st.Lines() {
		kvs = append(kvs, kvPair{l.Key, l.Value})
	}
	return kvs
}

// readFeedbackFiles reads the workers' files (workdir.ReadStats: "key:
// value" lines, as the stats file), each as its lines in order. Missing or
// unreadable ones are skipped (a worker may not have written one yet), and
// so are their malformed lines.
func readFeedbackFiles(root string) [][]kvPair {
	var out [][]kvPair
	for _, p := range feedbackFiles(root) {
		if kvs := readFeedbackFile(p); kvs != nil {
			out = append(out, kvs)
		}
	}
	return out
}

// mergeFeedback merges the workers' domain stats: saved_* counts (and the
// adaptive engine's arm_* counts, auto.go) are summed; the other keys of a domain (the prefix of a key before its
// first underscore) come from the worker with the largest value of the
// domain's mergeKey (the first worker for a domain without one, or not
// registered), in that worker's order.
func mergeFeedback(files [][]kvPair) []kvPair {
	var out []kvPair
	sums := map[string]int64{}
	chosen := map[string]int{}
	best := map[string]float64{}
	mergeKeys := map[string]string{}
	mergeKey := func(dom string) string {
		k, ok := mergeKeys[dom]
		if !ok {
			if d := registered(dom); d != nil {
				k = d.mergeKey()
			}
			mergeKeys[dom] = k
		}
		return k
	}
	for w, kvs := range files {
		for _, p := range kvs {
			if summed(p.k) {
				if _, ok := sums[p.k]; !ok {
					out = append(out, kvPair{k: p.k})
				}
				n, _ := strconv.ParseInt(p.v, 10, 64)
				sums[p.k] += n
				continue
			}
			dom, _, _ := strings.Cut(p.k, "_")
			if _, ok := chosen[dom]; !ok {
				chosen[dom], best[dom] = w, -1
			}
			if prim := mergeKey(dom); p.k == prim {
				if v, err := strconv.ParseFloat(p.v, 64); err == nil && v > best[dom] {
					chosen[dom], best[dom] = w, v
				}
			}
		}
	}
	for i := range out {
		out[i].v = strconv.FormatInt(sums[out[i].k], 10)
	}
	done := map[string]bool{}
	for _, kvs := range files {
		for _, p := range kvs {
			dom, _, _ := strings.Cut(p.k, "_")
			if summed(p.k) || done[dom] {
				continue
			}
			done[dom] = true
			for _, q := range files[chosen[dom]] {
				if d, _, _ := strings.Cut(q.k, "_"); d == dom && !summed(q.k) {
					out = append(out, q)
				}
			}
		}
	}
	return out
}

// summed tells whether the workers' values of key k are summed: counts of
// inputs saved for a domain, and the arms' counts.
func summed(k string) bool {
	return strings.HasPrefix(k, "saved_") || strings.HasPrefix(k, "arm_")
}
