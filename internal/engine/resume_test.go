package engine

import (
	"os/exec"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// TestResumeTurns: a worker's round robin over the queue starts after
// the parent its previous incarnation was making children of
// (Config.ResumeAfter, the trace hash the worker publishes), for every
// engine with one; without it, or when no queued input has that trace,
// it starts where it always did. A worker restarted every few seconds
// otherwise gave the first parents of the replayed corpus every turn.
func TestResumeTurns(t *testing.T) {
	ex := newSrcExec(func(s *param.Source) Outcome {
		hit(100 + int(s.Uint(1, param.Value)))
		return Outcome{Result: Valid}
	})
	// parentOf makes the next child as the loop does and returns its parent.
	parentOf := func(f *fuzzer) *entry {
		if gs, ok := f.strat.(guidedStrategy); ok {
			if g := gs.nextGuide(); g != nil {
				return g.parent
			}
		}
		f.child = f.strat.next(f.child)
		if tp, ok := f.strat.(turnParent); ok {
			return tp.turnParent()
		}
		return f.strat.(byteParent).lastParent()
	}
	for _, eng := range []string{"zest", "bytes", "ei", "bediv", "zeugma", "fairfuzz", "auto", "args"} {
		first := func(resume func(q []*entry) uint64) int {
			f := newTestFuzzer(t, eng, ex, 1000)
			for b := byte(1); b <= 6; b++ {
				if f.feed(b) == nil {
					t.Fatalf("%s: input %d not queued", eng, b)
				}
			}
			if a, ok := f.strat.(*autoTurns); ok {
				// The round robin (fast draws its parents) and an arm with a
				// parent (random's children have none).
				a.restrict(1<<armZest, 1<<schedTurns)
			}
			f.cfg.ResumeAfter = resume(f.queue)
			f.resumeTurns()
			return index(f.queue, parentOf(f))
		}
		if i := first(func(q []*entry) uint64 { return q[2].trace }); i != 3 {
			t.Errorf("%s: resumed after q[2], the first parent is q[%d], want q[3]", eng, i)
		}
		if i := first(func(q []*entry) uint64 { return q[5].trace }); i != 0 {
			t.Errorf("%s: resumed after the last entry, the first parent is q[%d], want q[0]", eng, i)
		}
		plain := first(func([]*entry) uint64 { return 0 })
		if plain == 3 {
			t.Fatalf("%s: q[3] is the first parent without resuming; the test shows nothing", eng)
		}
		if i := first(func([]*entry) uint64 { return 12345 }); i != plain {
			t.Errorf("%s: resumed after an input not queued, the first parent is q[%d], want q[%d] (as without)", eng, i, plain)
		}
	}
}

func index(q []*entry, e *entry) int {
	for i, x := range q {
		if x == e {
			return i
		}
	}
	return -1
}

// TestRestartResumes: the supervisor starts a dead worker's next
// incarnation after the parent it published (WorkerSpec.Resume), and
// keeps the last one known when an incarnation dies before publishing one
// (during its replay).
func TestRestartResumes(t *testing.T) {
	s, sl, _ := crashSupervisor(t, nil)
	var specs []WorkerSpec
	s.cfg.Command = func(w WorkerSpec) *exec.Cmd {
		specs = append(specs, w)
		return exec.Command("true")
	}
	s.exits = make(chan *slot, 4)
	die := func() {
		t.Helper()
		sl.shm.store(offPhase, phaseRunning)
		sl.cmd = exec.Command("sh", "-c", "exit 2")
		_ = sl.cmd.Run()
		s.exited(sl)
		<-s.exits // the "true" started in its place
	}
	sl.shm.store(offParent, 77)
	die()
	if len(specs) != 1 || specs[0].Resume != 77 {
		t.Fatalf("restarted with %+v, want Resume 77", specs)
	}
	die() // the new incarnation published no parent (the restart reset the shared memory)
	if len(specs) != 2 || specs[1].Resume != 77 {
		t.Errorf("restarted with %+v, want Resume 77 again", specs)
	}
}
