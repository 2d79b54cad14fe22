package engine

import (
	"encoding/hex"
	"strings"
	"testing"
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
