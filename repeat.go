package gfz

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/gfz-dev/gfz/internal/callsite"
	"github.com/gfz-dev/gfz/param"
)

// DefaultRepeatSteps is the largest number of steps Repeat runs: the
// number of steps is drawn uniformly from 0 to DefaultRepeatSteps, about
// 32 on average, close to the 30 actions pgregory.net/rapid runs by
// default. RepeatN sets other bounds.
const DefaultRepeatSteps = 64

// Site values of the spans Repeat opens for its steps and its invariant
// checks (param.Span.CallSite). They are not program counters (no code is
// at these addresses), only distinct from every real call site, so that
// the steps of one Repeat are told apart by their ordinal alone, whatever
// actions ran before them, and the checks do not shift that ordinal.
const (
	repeatStepSite  uintptr = 1
	repeatCheckSite uintptr = 2
)

// Repeat runs a random sequence of actions against the state the fuzz
// function set up: a stateful, or model-based, test. Each step draws the
// name of one action and runs it; actions[""], if present, is the
// invariant: it runs before the first step and after every step that was
// not skipped, and should only check (t.Fatal on a broken invariant).
//
//	var model []int
//	q := NewQueue(3)
//	t.Repeat(map[string]func(*gfz.T){
//		"Push": func(t *gfz.T) {
//			v := gen.Int().Draw(t)
//			t.Assume(len(model) < 3) // this step is skipped, not the input
//			q.Push(v)
//			model = append(model, v)
//		},
//		"Pop": func(t *gfz.T) { ... },
//		"": func(t *gfz.T) {
//			if q.Len() != len(model) {
//				t.Fatalf("Len() = %d, model has %d", q.Len(), len(model))
//			}
//		},
//	})
//
// The shape is that of pgregory.net/rapid's T.Repeat; an action is a
// function that may draw values from t, like the fuzz function itself.
//
// # Draws and spans
//
// The number of steps is drawn first, as the length of a slice is (one
// structure draw of param.BytesFor(DefaultRepeatSteps+1) = 1 byte, uniform
// from 0 to DefaultRepeatSteps); then each step draws its action, a
// structure draw of param.BytesFor(k) bytes (none for a single action)
// over the k action names sorted (never in map order, so the same bytes
// always choose the same actions), followed by what the action draws.
// Every engine therefore works on the sequence: Zest mutates the step
// count and the action bytes like any other bytes. When the source
// records (the structure-aware engines ei, bediv and zeugma), the whole
// sequence is one span named "Repeat", and each step is a span of its
// own named after its action, with an identity per action (and per
// Repeat: the sorted action names and the step bounds): a step keeps its
// execution index when earlier steps change action, and zeugma splices
// steps of one action between inputs. The invariant's checks are spans
// named "invariant".
//
// # Skipped steps
//
// An action that calls t.Skip, t.Skipf, t.SkipNow or t.Assume(false) is
// rejected: the rest of that action does not run, the step is dropped
// (the invariant is not checked after it), and the sequence goes on with
// the next step; the input stays valid, as in rapid, which skips the
// action, not the test case. Use Assume in an action for its
// preconditions (Pop on an empty queue). A skip in the invariant, or
// outside Repeat, still rejects the whole input.
//
// # Reports
//
// Failure reports (the fuzz binary's report and -repro, and the values
// logged under go test) show the steps in order, each as "step N: Name"
// (N from 1; "(skipped)" after a rejected one) followed by the values its
// action drew, indented:
//
//	step 1: Push
//		Int = 5
//	step 2: Pop
//
// Values drawn before Repeat, and by the check before the first step,
// are listed before the steps as usual.
//
// Repeat must be called from the fuzz function's goroutine, like every
// method of T. It panics if actions has no action besides the invariant
// or holds a nil function.
//
//go:noinline
func (t *T) Repeat(actions map[string]func(*T)) {
	site := callsite.Caller()
	if t.src.Recording() {
		userCalls(t.src, site)
	}
	t.runRepeat(actions, 0, DefaultRepeatSteps, site)
}

// RepeatN is Repeat with the number of steps drawn from minSteps to
// maxSteps (both inclusive) instead of 0 to DefaultRepeatSteps: a structure
// draw of param.BytesFor(maxSteps-minSteps+1) bytes. It panics if
// minSteps < 0 or minSteps > maxSteps.
//
//go:noinline
func (t *T) RepeatN(actions map[string]func(*T), minSteps, maxSteps int) {
	if minSteps < 0 || minSteps > maxSteps {
		panic(fmt.Sprintf("gfz: RepeatN with steps %d to %d: want 0 <= minSteps <= maxSteps", minSteps, maxSteps))
	}
	site := callsite.Caller()
	if t.src.Recording() {
		userCalls(t.src, site)
	}
	t.runRepeat(actions, minSteps, maxSteps, site)
}

// userCalls tells s the frames of the user's code between the caller of
// Repeat (or RepeatN) and the library, as generators' Draw does
// (param.Source.Calls), so that the Repeat span nests in the call tree of
// plain functions. Call it directly from Repeat.
//
//go:noinline
func userCalls(s *param.Source, site uintptr) {
	var buf [16]callsite.Frame
	frames, ok := callsite.User(1, site, buf[:]) // F is Repeat
	if !ok {
		return
	}
	var pf [16]param.Frame
	out := pf[:0]
	for _, f := range frames {
		out = append(out, param.Frame(f))
	}
	s.Calls(out)
}

// runRepeat is Repeat; site is where the user called it.
func (t *T) runRepeat(actions map[string]func(*T), minSteps, maxSteps int, site uintptr) {
	check := actions[""]
	names := make([]string, 0, len(actions))
	for name, fn := range actions {
		if fn == nil {
			panic(fmt.Sprintf("gfz: Repeat: action %q is nil", name))
		}
		if name != "" {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		panic(`gfz: Repeat needs at least one action besides the invariant (key "")`)
	}
	slices.Sort(names)
	id := repeatID(names, minSteps, maxSteps)

	s := t.src
	top, indent := t.topDepth, t.indent
	defer func() { t.topDepth, t.indent = top, indent }()

	s.BeginCall("Repeat", id, site, nil)
	n := int(s.Range(int64(minSteps), int64(maxSteps), param.Structure))
	if check != nil {
		t.repeatCheck(check, id)
	}
	for i := 1; i <= n; i++ {
		name := names[s.Uintn(uint64(len(names)), param.Structure)]
		header := -1
		if t.Noting() {
			header = t.noteStep(i, name)
		}
		d := s.Depth()
		s.BeginCall(name, param.Mix(id, param.HashString(name)), repeatStepSite, nil)
		t.topDepth, t.indent = s.Depth(), indent+1
		ok := t.runStep(actions[name])
		// A skip inside a generator leaves the spans of the generators it
		// was drawing open (their End never runs): close every span down
		// to the step's own, so that the spans after it nest as drawn and
		// the draws after Repeat are top-level again.
		for s.Depth() > d {
			s.End()
		}
		switch {
		case !ok:
			if header >= 0 && header < len(t.values) {
				t.values[header].text += " (skipped)"
			}
		case check != nil:
			t.repeatCheck(check, id) // its values are listed under the step
		}
		t.topDepth, t.indent = top, indent
	}
	s.End()
}

// repeatCheck runs the invariant in its own span; the values it draws
// are listed with the step it follows.
func (t *T) repeatCheck(check func(*T), id uint64) {
	s := t.src
	top := t.topDepth
	s.BeginCall("invariant", param.Mix(id, 0x696e76), repeatCheckSite, nil)
	t.topDepth = s.Depth()
	check(t)
	s.End()
	t.topDepth = top
}

// runStep runs one action. It reports false when the action rejected
// itself (SkipNow, through Skip or Assume): that panic stops here, and the
// execution is not marked skipped. Any other panic, and testing's
// runtime.Goexit under go test, pass through untouched.
func (t *T) runStep(action func(*T)) (ok bool) {
	defer func() {
		if ok || !t.skipped {
			return
		}
		r := recover()
		if r == nil {
			return // runtime.Goexit: let it go on
		}
		if !isSkip(r) {
			panic(r)
		}
		t.skipped = false
	}()
	action(t)
	return true
}

// noteStep records the header of step i (action name) among the reported
// values and returns its index in t.values.
func (t *T) noteStep(i int, name string) int {
	label := "step " + strconv.Itoa(i)
	if t.eager && t.onNote != nil {
		t.onNote(indentString(t.indent)+label, name)
	}
	t.values = append(t.values, value{label: label, text: name, header: true, indent: t.indent})
	return len(t.values) - 1
}

// repeatID is the identity of a Repeat call: its sorted action names and
// its step bounds.
func repeatID(names []string, minSteps, maxSteps int) uint64 {
	id := param.HashString("gfz.Repeat")
	for _, n := range names {
		id = param.Mix(id, param.HashString(n))
	}
	return param.Mix(id, uint64(minSteps)<<32|uint64(uint32(maxSteps)))
}

// indentString returns n tabs.
func indentString(n int) string {
	const tabs = "\t\t\t\t\t\t\t\t"
	if n <= len(tabs) {
		return tabs[:n]
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = '\t'
	}
	return string(b)
}
