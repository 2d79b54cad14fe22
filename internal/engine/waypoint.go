package engine

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// The waypoint domain: the values a target reports with T.Maximize,
// T.Minimize (always on) and T.DiffWithin (with -feedback diff), carried
// in Outcome.Waypoints. Per (kind, key) it keeps the best value of the
// saved inputs; an execution whose value for some key is strictly better
// (larger for Maximize and Diverge, smaller for Minimize), or that reports
// a key no saved input reported, improves it. Several reports of one key
// in one execution count as their best. NaN values are ignored.

// wpKey identifies a waypoint key: the same name under Maximize and
// Minimize is two keys.
type wpKey struct {
	kind WaypointKind
	key  string
}

type waypointDomain struct {
	best map[wpKey]float64
	diff bool // Diverge waypoints count (-feedback diff)
	// The last checked execution's reports (copied: Outcome.Waypoints
	// aliases executor storage).
	last []Waypoint
}

func newWaypointDomain() domain { return &waypointDomain{} }

func (w *waypointDomain) name() string { return "waypoint" }

// start makes w the run's f.waypoints (always on, the first domain), whose
// state the diff domain shares.
func (w *waypointDomain) start(f *fuzzer) error {
	w.best = map[wpKey]float64{}
	f.waypoints = w
	return nil
}

// better reports whether v improves best b of a key of kind k.
func better(k WaypointKind, v, b float64) bool {
	if k == Minimize {
		return v < b
	}
	return v > b
}

// improves reports whether one of the reports of the kinds selected by
// diverge (Diverge, or the others) improves its key.
func (w *waypointDomain) improves(wps []Waypoint, diverge bool) bool {
	for _, p := range wps {
		if (p.Kind == Diverge) != diverge || math.IsNaN(p.Value) {
			continue
		}
		b, ok := w.best[wpKey{p.Kind, p.Key}]
		if !ok || better(p.Kind, p.Value, b) {
			return true
		}
	}
	return false
}

func (w *waypointDomain) check(out *Outcome, valid bool) bool {
	w.last = w.last[:0]
	if len(out.Waypoints) == 0 {
		return false
	}
	for _, p := range out.Waypoints {
		if p.Kind == Diverge && !w.diff {
			continue
		}
		w.last = append(w.last, p)
	}
	return w.improves(w.last, false)
}

func (w *waypointDomain) commit(string) {
	for _, p := range w.last {
		if math.IsNaN(p.Value) {
			continue
		}
		k := wpKey{p.Kind, p.Key}
		if b, ok := w.best[k]; !ok || better(p.Kind, p.Value, b) {
			w.best[k] = p.Value
		}
	}
}

// maxListed is the number of keys the stats file lists by name.
const maxListed = 16

// keysText lists up to maxListed best values of the keys of the kinds
// selected by diverge, sorted by key: "name=value ...".
func (w *waypointDomain) keysText(diverge bool) (int, string) {
	var ks []wpKey
	for k := range w.best {
		if (k.kind == Diverge) == diverge {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].key != ks[j].key {
			return ks[i].key < ks[j].key
		}
		return ks[i].kind < ks[j].kind
	})
	var b strings.Builder
	for i, k := range ks {
		if i == maxListed {
			fmt.Fprintf(&b, " ...")
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		op := "max"
		if k.kind == Minimize {
			op = "min"
		}
		fmt.Fprintf(&b, "%s(%s)=%g", op, k.key, w.best[k])
	}
	return len(ks), b.String()
}

func (w *waypointDomain) stats(kv func(string, any)) {
	n, text := w.keysText(false)
	if n == 0 {
		return
	}
	kv("waypoint_keys", n)
	kv("waypoint_best", text)
}

func (w *waypointDomain) summary(get func(string) string) []string {
	n := get("waypoint_keys")
	if n == "" {
		return nil
	}
	return []string{fmt.Sprintf("waypoints: %s keys, best %s", n, get("waypoint_best"))}
}

// mergeKey: the worker that saw most keys reports.
func (w *waypointDomain) mergeKey() string { return "waypoint_keys" }

// diffDomain is -feedback diff: the Diverge waypoints of T.DiffWithin
// (the distance between two implementations' results, maximised per key).
// Its state lives in the waypoint domain (a second domain value, so that
// -feedback diff has its own save reason).
type diffDomain struct{ w *waypointDomain }

func newDiffDomain() domain { return &diffDomain{} }

func (d *diffDomain) name() string { return "diff" }

// start turns the waypoint domain's Diverge waypoints on.
func (d *diffDomain) start(f *fuzzer) error {
	d.w = f.waypoints
	d.w.diff = true
	return nil
}

func (d *diffDomain) check(*Outcome, bool) bool { return d.w.improves(d.w.last, true) }

func (d *diffDomain) commit(string) {} // the waypoint domain commits d.w.last

func (d *diffDomain) stats(kv func(string, any)) {
	n, text := d.w.keysText(true)
	kv("diff_keys", n)
	if n > 0 {
		kv("diff_max", text)
	}
}

func (d *diffDomain) summary(get func(string) string) []string {
	n := get("diff_keys")
	if n == "" || n == "0" {
		return nil
	}
	return []string{fmt.Sprintf("diff: %s keys, largest divergence %s", n, get("diff_max"))}
}

// mergeKey: the worker that saw most keys reports.
func (d *diffDomain) mergeKey() string { return "diff_keys" }
