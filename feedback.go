package gfz

import (
	"fmt"
	"math"

	"github.com/gfz-dev/gfz/internal/engine"
)

// Maximize reports v under key: an input whose v is larger than that of
// every input saved so far (or the first to report key) is saved as a
// waypoint.
//
// Waypoints are domain-specific feedback reported by the target
// (FuzzFactory's waypoints; docs/ENGINE.md, "Feedback domains").
// Coverage keeps an input when it runs code no earlier input ran. A target
// often knows of progress that coverage cannot see: a loop that runs longer,
// a buffer that grows, a search that gets closer to a value. Maximize and
// Minimize report such a value under a key; the engine keeps, per key, the
// best value of the inputs it saved, and saves (and mutates further) every
// input whose value improves it, as it saves one that adds coverage. Such
// an input is a waypoint: a step towards the behaviour the key measures.
//
// Semantics:
//
//   - Per key, the best value is the largest (Maximize) or smallest
//     (Minimize) value reported by a saved input. The same key name under
//     Maximize and Minimize is two keys.
//   - An execution improves a key when it reports a value strictly better
//     than that best, or when it is the first to report the key. Several
//     reports of one key in one execution count as their best; a NaN is
//     ignored. Values are compared as float64 (exact for |v| < 2^53).
//   - An execution that improves any key is saved whatever its coverage,
//     valid or invalid (an input stopped by t.Assume still counts what it
//     reported before). A failing execution is reported as a failure.
//   - Saved inputs steer the engines that mutate them (zest, zeugma and
//     the others). The default engine of a fuzz binary, random, makes
//     every input afresh: it saves them but cannot build on them, and
//     warns; run a target that reports waypoints with -engine zest.
//   - The values must be functions of the input (the same input reports the
//     same values), or runs are no longer reproducible with -seed and
//     -runs, and the input saved is re-executed before it is saved (the
//     stability check) with the second run's values kept.
//   - Keys are strings compared exactly. Use a handful of keys, a few
//     hundred at most: every key improved is an input saved and mutated, and
//     a key made from input data (say, fmt.Sprint of a drawn value) makes
//     every new value a new key, which saves nearly every input.
//
// Cost: in a fuzz binary a report appends (key, value) to a per-execution
// list; after the execution the engine looks each report up in a map (one
// string hash each). Under plain go test, go test -fuzz and in a T from
// NewT the calls do nothing, and go test -fuzz does not use them as
// feedback.
//
// Resuming a work directory re-executes its corpus, which restores the best
// value of every key; with several workers, each imports the others' saved
// inputs and so learns their best values.
func (t *T) Maximize(key string, v int64) { t.waypoint(key, float64(v), engine.Maximize) }

// Minimize reports v under key: an input whose v is smaller than that of
// every input saved so far (or the first to report key) is saved as a
// waypoint. See Maximize.
func (t *T) Minimize(key string, v int64) { t.waypoint(key, float64(v), engine.Minimize) }

// DiffWithin is a differential check of two implementations of the same
// numeric function on the same input: a and b are their results. It fails
// the execution (as Errorf) when |a - b| > tol, or when exactly one of them
// is NaN. With the fuzz binary's -feedback diff, the distance |a - b| is
// also feedback: the engine keeps, per key, the input that drives the two
// implementations furthest apart, so a divergence that grows with the
// input before it exceeds tol is followed to it. Without -feedback diff,
// and under go test, it is the check alone.
//
// For results that must be equal and have no meaningful distance, compare
// them and call t.Errorf: there is no gradient to follow. It panics if tol
// is NaN or negative.
func (t *T) DiffWithin(key string, a, b, tol float64) {
	if math.IsNaN(tol) || tol < 0 {
		panic(fmt.Sprintf("gfz: DiffWithin(%q) with tolerance %v (want a number >= 0)", key, tol))
	}
	if t.tt != nil {
		t.tt.Helper() // testing marks its caller: DiffWithin itself
	} else {
		t.Helper()
	}
	na, nb := math.IsNaN(a), math.IsNaN(b)
	d := math.Abs(a - b)
	if na && nb {
		d = 0
	}
	if na != nb || d > tol {
		t.Errorf("%s: implementations differ: %v vs %v (|difference| %v > tolerance %v)", key, a, b, d, tol)
		return
	}
	t.waypoint(key, d, engine.Diverge)
}

// waypoint records a report for the engine (fuzz-binary mode only).
func (t *T) waypoint(key string, v float64, kind engine.WaypointKind) {
	if !t.wpOn {
		return
	}
	t.wps = append(t.wps, engine.Waypoint{Key: key, Value: v, Kind: kind})
}
