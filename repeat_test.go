package gfz_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/param"
)

// logActions returns actions a, b, c (and the invariant) that append their
// names (the invariant "|") to *log.
func logActions(log *[]string) map[string]func(*gfz.T) {
	act := func(name string) func(*gfz.T) {
		return func(*gfz.T) { *log = append(*log, name) }
	}
	return map[string]func(*gfz.T){
		"c": act("c"), "a": act("a"), "b": act("b"),
		"": act("|"),
	}
}

// The step count is the first byte, then one byte per step chooses among
// the action names sorted: the same bytes give the same sequence every
// time, whatever order the map iterates in.
func TestRepeatSortedActionChoice(t *testing.T) {
	data := []byte{4, 1, 0, 2, 4} // 4 steps: b a c b (4 mod 3 = 1)
	for range 50 {
		var log []string
		gfz.NewT(param.New(data, 0)).Repeat(logActions(&log))
		if got, want := strings.Join(log, ""), "|b|a|c|b|"; got != want {
			t.Fatalf("actions and checks %q, want %q", got, want)
		}
	}
	// RepeatN draws the count from its own range: 2 + 1 mod 3 = 3 steps.
	var log []string
	gfz.NewT(param.New([]byte{1, 2, 2, 0}, 0)).RepeatN(logActions(&log), 2, 4)
	if got, want := strings.Join(log, ""), "|c|c|a|"; got != want {
		t.Errorf("RepeatN: %q, want %q", got, want)
	}
}

// The invariant runs before the first step and after every step; a step
// whose action skips itself is dropped (no check after it), and the input
// stays valid.
func TestRepeatInvariantAfterEachStep(t *testing.T) {
	var log []string
	fn := func(t *gfz.T) {
		t.Repeat(map[string]func(*gfz.T){
			"add":  func(*gfz.T) { log = append(log, "add") },
			"skip": func(t *gfz.T) { log = append(log, "skip"); t.Assume(false); log = append(log, "after Assume") },
			"":     func(*gfz.T) { log = append(log, "check") },
		})
	}
	out := execOnce(fn, []byte{5, 0, 1, 0, 0, 1})
	if out.Result != engine.Valid {
		t.Fatalf("result %v, want VALID: a skipped step does not reject the input", out.Result)
	}
	want := []string{"check", "add", "check", "skip", "add", "check", "add", "check", "skip"}
	if !slices.Equal(log, want) {
		t.Errorf("log %q,\nwant %q", log, want)
	}
	// A broken invariant fails the input at the step that broke it.
	n := 0
	out = execOnce(func(t *gfz.T) {
		t.Repeat(map[string]func(*gfz.T){
			"inc": func(*gfz.T) { n++ },
			"": func(t *gfz.T) {
				if n == 3 {
					t.Fatalf("n reached %d", n)
				}
			},
		})
	}, []byte{10})
	if out.Result != engine.Failure || n != 3 {
		t.Errorf("result %v after %d steps, want a failure after step 3", out.Result, n)
	}
	// A skip in the invariant rejects the whole input.
	out = execOnce(func(t *gfz.T) {
		t.Repeat(map[string]func(*gfz.T){"x": func(*gfz.T) {}, "": func(t *gfz.T) { t.Skip("no") }})
	}, []byte{3})
	if out.Result != engine.Invalid {
		t.Errorf("skip in the invariant: %v, want INVALID", out.Result)
	}
}

// When the source records, the sequence is a "Repeat" span and each step a
// span named after its action, with one identity per action; a step keeps
// its execution index when an earlier step changes action.
func TestRepeatSpans(t *testing.T) {
	fn := func(t *gfz.T) {
		t.Repeat(map[string]func(*gfz.T){
			"Put": func(t *gfz.T) { gen.IntRange(0, 9).Draw(t); gen.IntRange(0, 9).Draw(t) },
			"Get": func(t *gfz.T) { gen.IntRange(0, 9).Draw(t) },
		})
	}
	// 3 steps: Put(1, 2) Get(3) Put(4, 5); then Get Get Put.
	recs := []*param.Record{}
	for _, data := range [][]byte{{3, 1, 1, 2, 0, 3, 1, 4, 5}, {3, 0, 7, 0, 3, 1, 4, 5}} {
		ex := gfz.NewExecutor(fn)
		ex.SetRecording(true)
		out := ex.Exec(data, 0)
		if out.Result != engine.Valid || out.Record == nil {
			t.Fatalf("result %v, record %v", out.Result, out.Record)
		}
		recs = append(recs, out.Record.Clone())
	}
	type step struct {
		name  string
		gen   uint64
		index uint64
	}
	steps := func(r *param.Record) []step {
		var out []step
		for _, sp := range r.Spans {
			if sp.Depth == 1 {
				out = append(out, step{sp.Name, sp.Gen, sp.Index})
			}
		}
		return out
	}
	r := recs[0]
	if r.Spans[0].Name != "Repeat" || r.Spans[0].Depth != 0 {
		t.Fatalf("first span %+v, want the Repeat span", r.Spans[0])
	}
	a, b := steps(recs[0]), steps(recs[1])
	if len(a) != 3 || a[0].name != "Put" || a[1].name != "Get" || a[2].name != "Put" {
		t.Fatalf("step spans %+v, want Put Get Put", a)
	}
	if a[0].gen != a[2].gen || a[0].gen == a[1].gen {
		t.Errorf("identities %x %x %x: want one per action", a[0].gen, a[1].gen, a[2].gen)
	}
	// Each value draw lies in its step's span (through the generator's).
	for _, d := range r.Draws {
		if d.Kind == param.Structure {
			if sp := r.Spans[d.Span]; sp.Name != "Repeat" {
				t.Errorf("structure draw in span %q, want Repeat's (count and action choices)", sp.Name)
			}
			continue
		}
		if par := r.Spans[d.Span].Parent; par < 0 || r.Spans[par].Depth != 1 {
			t.Errorf("value draw %+v not inside a step", d)
		}
	}
	if len(b) != 3 || b[0].name != "Get" || b[2].name != "Put" {
		t.Fatalf("second input's steps %+v, want Get Get Put", b)
	}
	if a[2].index != b[2].index {
		t.Error("step 3 (Put in both) changed execution index when step 1 changed action")
	}
	if a[0].index == b[0].index {
		t.Error("step 1 kept its execution index although its action changed")
	}
}

// A failure report lists the steps taken, each with the values its action
// drew, indented under it.
func TestRepeatReport(t *testing.T) {
	fn := func(t *gfz.T) {
		size := gen.IntRange(1, 3).Named("size").Draw(t)
		var q []int
		t.Repeat(map[string]func(*gfz.T){
			"Push": func(t *gfz.T) {
				t.Assume(len(q) < size)
				q = append(q, gen.IntRange(0, 99).Named("v").Draw(t))
			},
			"Pop": func(t *gfz.T) {
				t.Assume(len(q) > 0)
				q = q[1:]
			},
			"": func(t *gfz.T) {
				if len(q) == 2 {
					t.Fatalf("queue holds %v", q)
				}
			},
		})
	}
	// size 2; Pop (skipped: empty), Push 7, Pop, Push 8, Push 9: fails.
	data := []byte{1, 9, 0, 1, 7, 0, 1, 8, 1, 9}
	ex := gfz.NewExecutor(fn)
	out := ex.Exec(data, 0)
	if out.Result != engine.Failure {
		t.Fatalf("result %v, want FAILURE", out.Result)
	}
	got, ok := ex.DescribeValues(data, 0, out.Failure.Signature)
	want := "size = 2\n" +
		"step 1: Pop (skipped)\n" +
		"step 2: Push\n\tv = 7\n" +
		"step 3: Pop\n" +
		"step 4: Push\n\tv = 8\n" +
		"step 5: Push\n\tv = 9\n"
	if !ok || got != want {
		t.Errorf("described values (ok %v):\n%s\nwant:\n%s", ok, got, want)
	}
}

// A Repeat with only the invariant, or a nil action, is a usage error.
func TestRepeatUsage(t *testing.T) {
	for name, actions := range map[string]map[string]func(*gfz.T){
		"no actions": {"": func(*gfz.T) {}},
		"nil action": {"a": nil},
	} {
		out := execOnce(func(t *gfz.T) { t.Repeat(actions) }, []byte{1})
		if out.Result != engine.Failure || !strings.Contains(out.Failure.Message, "gfz: Repeat") {
			t.Errorf("%s: %v %+v, want a failure naming Repeat", name, out.Result, out.Failure)
		}
	}
}

// TestRepeatSkipInsideGenerator: a step skipped inside a generator (a
// Filter out of tries) leaves no span open: after Repeat the draws are
// top-level again, so they are noted in failure reports (they were left
// out) and the spans nest as drawn.
func TestRepeatSkipInsideGenerator(t *testing.T) {
	src := param.New([]byte{3, 0, 0, 0, 0, 0, 0}, 0)
	tt := gfz.NewT(src)
	tt.RepeatN(map[string]func(*gfz.T){
		"A": func(t *gfz.T) {
			gen.Filter(gen.IntRange(0, 9), func(int) bool { return false }, 1).Draw(t)
		},
	}, 1, 1)
	if d := src.Depth(); d != 0 || !tt.TopLevel() {
		t.Errorf("after Repeat: depth %d, top level %v; want 0, true", d, tt.TopLevel())
	}
}

// TestRepeatFreeStepsBounded: RepeatN with a huge step count whose only
// action draws nothing ends the input as invalid (param.CallsPerByte
// generator calls per byte of the cap) instead of running without end.
func TestRepeatFreeStepsBounded(t *testing.T) {
	steps := 0
	fn := func(t *gfz.T) {
		t.RepeatN(map[string]func(*gfz.T){"a": func(*gfz.T) { steps++ }}, 0, 1<<62)
	}
	out := execOnce(fn, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3f})
	if out.Result != engine.Invalid {
		t.Fatalf("result %v (%+v), want invalid", out.Result, out.Failure)
	}
	// Each step is a generator call: the limit is reached within the
	// default cap's calls.
	if limit := param.CallsPerByte * param.DefaultMaxSize; steps == 0 || steps > limit {
		t.Errorf("%d steps ran, want 1 to %d", steps, limit)
	}
}
