package engine

import (
	"unsafe"

	"github.com/gfz-dev/gfz/param"
)

// The call trees of queued inputs, for the structure-aware engines.
//
// A queued input's record (param.Record: its draws and generator calls
// with their execution indexes) is made by the stability recheck of its
// saved execution, which then runs with recording on. Records are not
// written to disk: on resume each corpus file is executed again and its
// record made then, so they need no format and follow the program as it
// is rebuilt.
//
// Records are large (48 bytes a draw and 80 a generator call: 90 KiB
// for a 5 KiB input of the template generators, 20 times its bytes), so
// the queue keeps them within a budget (Config.RecordBudget): the first
// records kept while they fit stay for the run; any other is kept only
// while it is needed (the input just queued, until the feedback has
// credited it and zeugma has indexed its spans: queueWatcher; the current
// parent, for its turn) and made again, by one more
// execution with recording on (a recheck), when the input is a parent
// again. A deterministic target records the same tree every time, so a run
// makes the same choices whatever the budget; only its rechecks differ.
// Without the budget a run's records grew with its corpus, without bound
// (after 45 s, 1,400 inputs of the template target held 120 MiB of
// records, 91% of the worker's heap).

// DefaultRecordBudget is the bytes of records the queue keeps for the
// whole run when Config.RecordBudget is 0.
const DefaultRecordBudget = 64 << 20

// recordBytes estimates the memory of rec's draws and spans.
func recordBytes(rec *param.Record) int64 {
	return int64(len(rec.Draws))*int64(unsafe.Sizeof(param.Draw{})) + int64(len(rec.Spans))*int64(unsafe.Sizeof(param.Span{}))
}

// keepRecord stores rec (a record of e.data's execution, aliasing executor
// storage; nil: none at hand) in e, executing e.data again with recording
// on when rec is nil or does not describe e.data. The record stays for
// the run if it fits in the budget's remainder (e.recKept); else
// releaseRecord drops it when it is no longer needed.
func (f *fuzzer) keepRecord(e *entry, rec *param.Record) {
	if rec == nil || !recordFits(rec, len(e.data)) {
		rec = f.recordRun(e.data)
	}
	if rec == nil || !recordFits(rec, len(e.data)) {
		// No recorder, or a target that drew more this time than the
		// input holds (not deterministic): no structure to mutate by,
		// rather than draws past the data that guided children and ei
		// would slice out of range.
		rec = &param.Record{}
	}
	e.rec = rec.Clone()
	e.shape = shapeOf(e.rec)
	e.recGen++
	if n := recordBytes(e.rec); f.recKept+n <= f.recBudget {
		f.recKept += n
		e.recKept = true
	}
}

// releaseRecord drops e's record (and its draw index) unless the budget
// keeps it.
func (f *fuzzer) releaseRecord(e *entry) {
	if e.rec != nil && !e.recKept {
		e.rec, e.byIndex = nil, nil
		f.recDropped++
	}
}

// holdParent makes p the parent whose record is at hand: the previous
// parent's record is released, and p's made again if it was dropped
// (nothing without a recorder). Strategies call it (strategyEnv) before
// they read a new parent's record, the loop before it checks a child of p
// for a zero mutation.
func (f *fuzzer) holdParent(p *entry) {
	if p != f.recParent {
		if f.recParent != nil {
			f.releaseRecord(f.recParent)
		}
		f.recParent = p
	}
	if p.rec == nil && f.recorder != nil {
		f.keepRecord(p, nil)
		f.recMade++
	}
}

// peekRecord returns e's record, making it again if it was dropped (then
// not kept in e: a caller that holds on to it holds its memory).
func (f *fuzzer) peekRecord(e *entry) *param.Record {
	if e.rec != nil || f.recorder == nil {
		return e.rec
	}
	f.keepRecord(e, nil)
	f.recMade++
	rec := e.rec
	f.releaseRecord(e)
	return rec
}

// recordFits reports whether rec can describe a sequence of n bytes.
func recordFits(rec *param.Record, n int) bool {
	if len(rec.Draws) == 0 {
		return n == 0
	}
	d := rec.Draws[len(rec.Draws)-1]
	return int(d.Offset+d.Width) <= n
}

// recordRun executes data once more with recording on and returns its
// record (nil if the executor cannot record). The execution is counted as
// a recheck, not as an execution.
func (f *fuzzer) recordRun(data []byte) *param.Record {
	if f.recorder == nil {
		return nil
	}
	f.recorder.SetRecording(true)
	defer f.recorder.SetRecording(false)
	f.rechecks++
	out := f.execExt(data, f.ext(), false)
	return out.Record
}

// shapeOf hashes the shape of a call tree: the execution indexes of its
// generator calls and draws, in order, without the bytes drawn. Two
// executions have the same shape iff (up to hash collisions) they made
// the same calls and draws at the same places of the generators' code.
func shapeOf(rec *param.Record) uint64 {
	h := uint64(len(rec.Spans))<<32 | uint64(len(rec.Draws))
	for i := range rec.Spans {
		h = param.Mix(h, rec.Spans[i].Index)
	}
	for i := range rec.Draws {
		h = param.Mix(h, rec.Draws[i].Index)
	}
	return h
}

// choicesOf returns the indexes (into rec.Draws) of the draws that consume
// at least one byte: the choices a mutation can change.
func choicesOf(rec *param.Record, dst []int32) []int32 {
	dst = dst[:0]
	for i := range rec.Draws {
		if rec.Draws[i].Width > 0 {
			dst = append(dst, int32(i))
		}
	}
	return dst
}
