package engine

import (
	"sync/atomic"

	"github.com/gfz-dev/gfz/param"
)

// childGuide supplies a guided child execution (param.Guide): each draw
// gets the bytes its parent drew at the same execution index, the bytes
// of an override for that index, or fresh bytes from the guide's PRNG
// (seeded per execution) when the parent has no such draw. Every byte it
// hands out is also appended to its log, which is therefore the child's
// parameter sequence as drawn so far: the watchdog saves it if the child
// hangs, and a worker publishes it to shared memory draw by draw, so a
// crash or hang keeps the prefix the child drew.
type childGuide struct {
	parent *entry
	// over are the mutated choices: execution index -> new bytes. A child
	// has few (linear search).
	over []override
	// cursor is where the next draw is expected in the parent's draws:
	// children mostly draw in their parent's order, so most lookups are
	// one comparison; others use the parent's index map.
	cursor int
	rng    prng
	// pick, if set, chooses the bytes of every draw (into dst, the draw's
	// width) instead of the parent and the overrides, or reports false
	// to leave them to rng (the rl engine, rl.go: ChooseDraw).
	pick func(d *param.Draw, rec *param.Record, dst []byte) bool
	// log holds the bytes handed out, len of them; it is allocated once
	// with the input cap as length (the source never draws past the cap)
	// and never reallocated, so the watchdog may read log[:n].
	log []byte
	len int
	n   atomic.Int64 // len, published for the watchdog
	// shm is the worker's shared memory, where each draw is published
	// (nil: not a worker). fuzzer.execGuided sets it.
	shm *shm
}

type override struct {
	index uint64
	bytes []byte
}

// newChildGuide returns a guide for inputs of up to max bytes.
func newChildGuide(max int) *childGuide {
	return &childGuide{log: make([]byte, max)}
}

// reset prepares g for a child of parent with the given overrides.
func (g *childGuide) reset(parent *entry, over []override, seed uint64) {
	g.parent, g.over, g.cursor = parent, over, 0
	g.rng = prng{s: seed}
	g.len = 0
	g.n.Store(0)
}

// drawn returns the bytes handed out so far (aliasing g's storage).
func (g *childGuide) drawn() []byte { return g.log[:g.len] }

// Choice implements param.Guide.
func (g *childGuide) Choice(idx uint64, w int) ([]byte, bool) {
	start := g.len
	end := start + w
	if end > len(g.log) { // the source checks the cap first; be safe
		return nil, false
	}
	var b []byte
	for i := range g.over {
		if g.over[i].index == idx {
			b = g.over[i].bytes
			break
		}
	}
	if b == nil {
		if d := g.parent.draw(idx, &g.cursor); d != nil {
			b = g.parent.data[d.Offset : d.Offset+d.Width]
		}
	}
	i := start + copy(g.log[start:end], b)
	for i < end {
		v := g.rng.next()
		for k := 0; k < 8 && i < end; k++ {
			g.log[i] = byte(v)
			v >>= 8
			i++
		}
	}
	g.publish(start, end)
	return g.log[start:end], true
}

// publish makes the draw just written to log[start:end] part of the
// child's bytes: for the watchdog (in-process runs), or for the supervisor
// (a worker's, whose watchdog leaves hangs to the supervisor: the atomic
// store of n, an XCHG on amd64, is saved on every draw).
func (g *childGuide) publish(start, end int) {
	g.len = end
	if g.shm != nil {
		g.shm.appendInput(g.log[:end], start)
		return
	}
	g.n.Store(int64(end))
}

// snapshot returns the bytes drawn so far (safe to call from the
// watchdog while the child runs; not in a worker, where n is not kept).
func (g *childGuide) snapshot() []byte {
	return append([]byte(nil), g.log[:g.n.Load()]...)
}

// draw returns the parent's draw with execution index idx, looking first
// at *cursor (and moving it past the draw found).
func (e *entry) draw(idx uint64, cursor *int) *param.Draw {
	ds := e.rec.Draws
	if c := *cursor; c < len(ds) && ds[c].Index == idx {
		*cursor = c + 1
		return &ds[c]
	}
	if e.byIndex == nil {
		e.byIndex = make(map[uint64]int32, len(ds))
		for i := range ds {
			e.byIndex[ds[i].Index] = int32(i)
		}
	}
	i, ok := e.byIndex[idx]
	if !ok {
		return nil
	}
	*cursor = int(i) + 1
	return &ds[i]
}

var _ param.Guide = (*childGuide)(nil)
