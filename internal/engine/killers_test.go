package engine

import (
	"bytes"
	"testing"
)

// TestKillersAvoid: a child equal to a killer is avoided, any other child
// is not; after killerStreakLimit avoided in a row the next is let through
// (a strategy that can make nothing else must not spin).
func TestKillersAvoid(t *testing.T) {
	if newKillers(nil).avoid([]byte{7}) {
		t.Fatal("no killers avoided a child")
	}
	k := newKillers([][]byte{{7}, {1, 2, 3}})
	if !k.avoid([]byte{7}) || !k.avoid([]byte{1, 2, 3}) || k.avoid([]byte{8}) || k.avoid([]byte{1, 2}) || k.avoid(nil) {
		t.Fatal("avoid: wrong answer")
	}
	k.streak = 0
	for i := range killerStreakLimit {
		if !k.avoid([]byte{7}) {
			t.Fatalf("let through after %d in a row", i)
		}
	}
	if k.avoid([]byte{7}) {
		t.Errorf("avoided more than %d in a row", killerStreakLimit)
	}
	if !k.avoid([]byte{7}) {
		t.Error("the streak did not start again")
	}
}

// oneByte reads one byte; counts how often it ran the input {7}.
type oneByte struct{ sevens int }

func (o *oneByte) Exec(params []byte, ext uint64) Outcome {
	if len(params) == 0 {
		return Outcome{Result: Valid}
	}
	if bytes.Equal(params[:1], []byte{7}) && len(params) == 1 {
		o.sevens++
	}
	hit(int(params[0]))
	return Outcome{Result: Valid, Consumed: params[:1]}
}

// TestAvoidInputs: a run given a killer (Config.AvoidInputs) never runs
// a child equal to it; the same run without it does (fixed seed and
// executions).
func TestAvoidInputs(t *testing.T) {
	for _, avoid := range []bool{false, true} {
		o := &oneByte{}
		cfg := Config{Engine: "zest", Seed: 3, Runs: 20000, Workdir: t.TempDir(), Seeds: [][]byte{{1}}}
		if avoid {
			cfg.AvoidInputs = [][]byte{{7}}
		}
		run(t, cfg, o)
		if avoid && o.sevens != 0 || !avoid && o.sevens == 0 {
			t.Errorf("avoid %v: the input {7} ran %d times", avoid, o.sevens)
		}
	}
}
