package engine

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// TestRecordBudget pins the record budget (tree.go): records that fit stay
// for the run and the others are dropped once the input is queued or its
// turn as a parent is over, and made again when it is a parent; so the
// memory held in records stays within the budget plus the current
// parent's. On a deterministic target a record made again is the one
// dropped, so every engine that reads records makes the same run (the
// same queue, the same executions) whatever the budget: only the
// rechecks that made records again differ.
func TestRecordBudget(t *testing.T) {
	for _, eng := range []string{"zest", "ei", "bediv", "zeugma", "auto"} {
		t.Run(eng, func(t *testing.T) {
			var want string
			var wantExecs, wantValid int64
			for _, budget := range []int64{0, 2 << 10, -1} {
				var vals []figVal
				f := newTestFuzzer(t, eng, figExec(&vals, true), 3000)
				if budget != 0 {
					f.recBudget = budget
				}
				f.init()
				if a, ok := f.strat.(*autoTurns); ok {
					a.warm = false // records are read by the mutation arms
				}
				f.loop()
				var q []string
				held := 0
				var kept int64
				for _, e := range f.queue {
					q = append(q, hex.EncodeToString(e.data))
					switch {
					case e.recKept:
						kept += recordBytes(e.rec)
					case e.rec != nil:
						held++
						if e != f.recParent {
							t.Errorf("budget %d: entry %d holds a dropped record and is not the parent", budget, len(q)-1)
						}
					}
				}
				if len(f.queue) < 10 {
					t.Fatalf("budget %d: queue of %d inputs: too few to test", budget, len(f.queue))
				}
				if kept != f.recKept || (budget != 0 && kept > max(budget, 0)) {
					t.Errorf("budget %d: records kept %d bytes (counted %d)", budget, kept, f.recKept)
				}
				switch budget {
				case 0: // the default keeps every record of this small run
					if held != 0 || f.recMade != 0 || f.recDropped != 0 {
						t.Errorf("default budget: %d records held past it, %d made again, %d dropped", held, f.recMade, f.recDropped)
					}
					want, wantExecs, wantValid = strings.Join(q, " "), f.execs, f.valid
					continue
				case -1:
					if f.recKept != 0 {
						t.Errorf("no budget: %d bytes of records kept", f.recKept)
					}
				}
				if f.recMade == 0 || f.recDropped == 0 {
					t.Errorf("budget %d: %d records made again, %d dropped; want both", budget, f.recMade, f.recDropped)
				}
				if got := strings.Join(q, " "); got != want || f.execs != wantExecs || f.valid != wantValid {
					t.Errorf("budget %d: another run: %d inputs queued, %d executions, %d valid; with the default budget %d, %d, %d",
						budget, len(q), f.execs, f.valid, len(strings.Fields(want)), wantExecs, wantValid)
				}
			}
		})
	}
}

// TestRecordMadeAgainInvalidates pins one rule per cache: what a strategy
// derived from a parent's record (indexes into its draws or spans) is
// made again when the parent's record is made again (entry.recGen), as it
// may then differ (a target that does not draw the same every time: here
// the new record is empty, as when the execution drew past the input).
// With the old indexes kept, the zero-mutation check would read past the
// new record's draws, and ei, bediv, zeugma and auto would mutate choices
// or splice spans it does not have.
func TestRecordMadeAgainInvalidates(t *testing.T) {
	remade := func(p *entry) {
		p.rec = &param.Record{}
		p.recGen++
	}
	fresh := func() *entry {
		var vals []figVal
		src := param.New(nil, 0)
		src.SetRecording(true)
		src.Reset([]byte{3, 1, 4, 1, 5, 1, 6, 0, 0, 0, 0, 0}, 0)
		figNode(src, 0, 0, &vals)
		rec := src.Record().Clone()
		return &entry{data: bytes.Clone(src.Consumed()), edges: 1, valid: true, rec: rec, shape: shapeOf(rec)}
	}

	t.Run("zero-mutation index", func(t *testing.T) {
		var m metrics
		p := fresh()
		child := bytes.Clone(p.data)
		child[0] += 10 // the root's value: a draw of 10 values, so the same value
		if !m.zeroChild(p, child) {
			t.Fatal("a child decoding to the parent's values is not a zero mutation")
		}
		m.noteDistance(p, p.rec, p.data)
		if len(m.ptok) == 0 {
			t.Fatal("no distance pattern")
		}
		remade(p)
		if m.zeroChild(p, child) {
			t.Error("zero mutation decided from the record dropped (the new one covers no data)")
		}
		m.noteDistance(p, p.rec, p.data)
		if len(m.ptok) != 0 {
			t.Errorf("distance pattern of %d tokens from the record dropped", len(m.ptok))
		}
	})
	env := &scriptEnv{r: newPRNG(1), edges: 1, max: 64, guides: true, labels: newSiteKinds()}
	t.Run("ei", func(t *testing.T) {
		p := fresh()
		env.q = []*entry{p}
		s := newEITurns(env)
		if s.turn(); len(s.choices) == 0 {
			t.Fatal("no choices")
		}
		remade(p)
		if s.turn(); len(s.choices) != 0 {
			t.Errorf("%d choices of the record dropped", len(s.choices))
		}
	})
	t.Run("bediv", func(t *testing.T) {
		p := fresh()
		s := newBedivTurns(env)
		if s.splitChoices(p); len(s.cand[mutValue])+len(s.cand[mutStructure]) == 0 {
			t.Fatal("no candidates")
		}
		remade(p)
		if s.splitChoices(p); len(s.cand[mutValue])+len(s.cand[mutStructure]) != 0 {
			t.Errorf("candidates of the record dropped: %v", s.cand)
		}
	})
	t.Run("zeugma", func(t *testing.T) {
		p, q := fresh(), fresh()
		q.data[0] = 7
		env.q = []*entry{p, q}
		s := newZeugmaTurns(env)
		s.indexNew()
		if len(s.pointsOf(p)) == 0 {
			t.Fatal("no application points")
		}
		remade(p)
		if n := len(s.pointsOf(p)); n != 0 {
			t.Errorf("%d application points of the record dropped", n)
		}
	})
	t.Run("auto", func(t *testing.T) {
		p, q := fresh(), fresh()
		env.q = []*entry{p, q}
		s := newAutoTurns(env)
		if a := s.available(p); a&(1<<armEI) == 0 || a&(1<<armZeugma) == 0 {
			t.Fatalf("arms %b: want ei and zeugma", a)
		}
		// The same record made again (a deterministic target): the arms
		// stay as checked until the next check, even if one that needs
		// no record has come since (cmp, whose first token came): the
		// run does not depend on the budget.
		before := s.available(p)
		env.toks = [][]byte{[]byte("tok")}
		p.recGen++
		if a := s.available(p); a != before {
			t.Errorf("arms %b after the same record was made again, %b before", a, before)
		}
		// Another record, without choices: ei, struct and value can no
		// longer make a child.
		remade(p)
		if a := s.available(p); a&(1<<armEI|1<<armStruct|1<<armValue) != 0 {
			t.Errorf("arms %b offered from the record dropped", a)
		}
		env.toks = nil
		p = fresh()
		if len(s.eiChoices(p)) == 0 {
			t.Fatal("no choices")
		}
		remade(p)
		if n := len(s.eiChoices(p)); n != 0 {
			t.Errorf("ei's %d choices of the record dropped", n)
		}
	})
}

// TestRecordIndexedWhenQueued: zeugma (and auto's zeugma arm) index an
// input's spans as it is queued, while its record is at hand, so that past
// the record budget the record dropped right after is not made again (one
// more execution of every queued input) just for the index.
func TestRecordIndexedWhenQueued(t *testing.T) {
	for _, eng := range []string{"zeugma", "auto"} {
		t.Run(eng, func(t *testing.T) {
			var vals []figVal
			f := newTestFuzzer(t, eng, figExec(&vals, true), 0)
			f.recBudget = -1
			f.init()
			f.startMetrics() // as the loop does: auto keeps records from then on
			var zg *zeugmaTurns
			switch s := f.strat.(type) {
			case *zeugmaTurns:
				zg = s
			case *autoTurns:
				zg = s.zg
				s.warm = false // records are kept once generation first has ended
			}
			zg.indexNew() // the seeds
			data := []byte{3, 1, 4, 1, 5, 1, 6, 0, 0, 0, 0, 0}
			e := f.enqueue(data, &f.mbuf, f.recordRun(data), true)
			if e.rec != nil {
				t.Fatal("the record of an input queued past the budget was not dropped")
			}
			before, made := f.rechecks, f.recMade
			zg.indexNew()
			if f.rechecks != before || f.recMade != made || zg.indexed != len(f.queue) {
				t.Errorf("indexing the input queued took %d more executions (%d records made again); %d of %d indexed",
					f.rechecks-before, f.recMade-made, zg.indexed, len(f.queue))
			}
			if d := zg.index[spanKey{gen: 7, typ: figNodeType}]; d == nil || int(d.refs[len(d.refs)-1].entry) != len(f.queue)-1 {
				t.Errorf("the input queued is not a donor of its nodes")
			}
		})
	}
}
