package engine

import "github.com/gfz-dev/gfz/param"

// The call trees of queued inputs, for the structure-aware engines.
//
// A queued input keeps the record of its saved execution (param.Record:
// its draws and generator calls with their execution indexes, made by the
// stability recheck, which then runs with recording on). Records are not
// written to disk: on resume each corpus file is executed again and its
// record made then, so they need no format and follow the program as it
// is rebuilt.

// keepRecord stores rec (a record of e.data's execution, aliasing executor
// storage; nil: none at hand) in e, executing e.data again with recording
// on when rec is nil or does not describe e.data.
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
	out := f.execExt(data, extSeed(f.cfg.Seed, f.execs), false)
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
