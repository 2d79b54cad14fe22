package engine

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// autoScript drives the auto strategy from a scripted env, as the loop
// does: nextGuide, then next when it returns no guide, then found with the
// yield pay decides for the arm that made the child.
func autoScript(t *testing.T, seed int64, n int, pay func(i, arm int) bool) (*autoTurns, []int) {
	t.Helper()
	q := []*entry{
		recordedEntry([]byte{0, 1, 2, 3, 4, 5}, true),
		recordedEntry([]byte{3, 9, 8, 7, 6, 5, 4, 3, 2}, true),
		recordedEntry([]byte{2, 4, 4, 4, 4, 1, 1}, false),
	}
	for _, e := range q {
		e.hit = []uint32{1, 2}
	}
	env := &scriptEnv{r: newPRNG(seed), q: q, edges: 3, max: 32, guides: true, labels: newSiteKinds()}
	s := newAutoTurns(env)
	s.warm = false                      // the bandits' rules (generation first: TestAutoGenerationFirst)
	env.hits().setAll(1, 1000, 2, 1000) // no rare edge: no mask to compute
	var arms []int
	var child []byte
	world := newPRNG(seed + 99)
	for i := range n {
		env.execs = int64(i)
		if g := s.nextGuide(); g != nil {
			out := Outcome{Result: Valid, Record: g.parent.rec, Consumed: g.drawn()}
			s.executed(g, out, nil)
		} else {
			child = s.next(child)
			if len(child) > env.max {
				t.Fatalf("child of %d bytes, limit %d", len(child), env.max)
			}
		}
		if s.generate {
			arms = append(arms, -1) // the generation share's: no decision
		} else {
			arms = append(arms, s.arm)
		}
		y := yield{result: Valid}
		if pay(i, s.arm) && world.next()%20 == 0 {
			y.queued, y.novelty = q[0], newEdge|newKey
		}
		s.found(y)
	}
	return s, arms
}

// armShare is arm's share of the bandit's decisions among arms (-1: a
// child of the generation share, no decision).
func armShare(arms []int, arm int) float64 {
	n, d := 0, 0
	for _, a := range arms {
		if a == arm {
			n++
		}
		if a >= 0 {
			d++
		}
	}
	return float64(n) / float64(max(d, 1))
}

// TestAutoLearnsArm: an operator arm whose children find things (one in
// 20) gets most of the decisions once the others stop paying, and loses
// them when it stops while another pays; the same seed makes the same
// choices.
func TestAutoLearnsArm(t *testing.T) {
	const phase = 30_000
	pay := func(i, arm int) bool {
		switch {
		case i < phase:
			return arm == armBytes
		default:
			return arm == armValue
		}
	}
	s, arms := autoScript(t, 1, 2*phase, pay)
	b1, v1 := armShare(arms[phase/2:phase], armBytes), armShare(arms[phase/2:phase], armValue)
	b2, v2 := armShare(arms[3*phase/2:], armBytes), armShare(arms[3*phase/2:], armValue)
	t.Logf("bytes %.3f then %.3f; value %.3f then %.3f; arms chosen %v", b1, b2, v1, v2, s.ops.chosen)
	if b1 < 0.4 || v2 < 0.4 || b2 > b1/3 || v1 > v2/3 {
		t.Errorf("bytes' share %.3f while it pays, %.3f after; value's %.3f before it pays, %.3f while it pays", b1, b2, v1, v2)
	}
	for a := range numArms {
		if a == armCmp || a == armDict || a == armFair || a == armArgs || a == armFormat {
			continue // not available: no tokens, no dictionary, no rare edge, not a native target
		}
		if s.ops.chosen[a] == 0 {
			t.Errorf("arm %s never chosen", armNames[a])
		}
	}
	_, again := autoScript(t, 1, 2*phase, pay)
	if !bytes.Equal(intsToBytes(arms), intsToBytes(again)) {
		t.Error("the same seed made other choices")
	}
}

func intsToBytes(xs []int) []byte {
	b := make([]byte, len(xs))
	for i, x := range xs {
		b[i] = byte(x)
	}
	return b
}

// TestAutoRun: auto on the maze finds the planted failure, the same seed
// gives the same corpus and arm counts, and its arms are in stats and in
// the final summary.
func TestAutoRun(t *testing.T) {
	var corpora []map[string]string
	var armStats []string
	for range 2 {
		dir := t.TempDir()
		var status bytes.Buffer
		s := run(t, Config{Engine: "auto", Seed: 5, Runs: 60_000, Workdir: dir, Status: &status},
			newMaze(mazeKey, mazeMod, mazeValid))
		if s.NewFailures == 0 {
			t.Errorf("auto did not find the maze's failure in 60,000 executions")
		}
		corpora = append(corpora, dirContents(t, dir+"/corpus"))
		st := readStatsFile(t, dir)
		var keys []string
		total := int64(0)
		for _, n := range append(append([]string{}, armNames...), schedNames...) {
			keys = append(keys, n+"="+st["arm_"+n+"_execs"]+"/"+st["arm_"+n+"_finds"])
			if strings.Contains(strings.Join(armNames, ","), n) {
				v, _ := strconv.ParseInt(st["arm_"+n+"_execs"], 10, 64)
				total += v
			}
		}
		armStats = append(armStats, strings.Join(keys, " "))
		if st["arms"] != strings.Join(armNames, ",") {
			t.Errorf("stats arms: %q", st["arms"])
		}
		// The loop's executions past the seeds are all credited.
		if execs, _ := strconv.ParseInt(st["execs"], 10, 64); total == 0 || total > execs {
			t.Errorf("arms credited with %d executions of %d", total, execs)
		}
		if !strings.Contains(status.String(), "gfz: arms: executions and finds by operator: zest ") ||
			!strings.Contains(status.String(), "; by parent schedule: turns ") {
			t.Errorf("final summary without the arms:\n%s", status.String())
		}
	}
	if armStats[0] != armStats[1] {
		t.Errorf("same seed, other arm counts:\n%s\n%s", armStats[0], armStats[1])
	}
	if len(corpora[0]) == 0 || strings.Join(sortedKeys(corpora[0]), " ") != strings.Join(sortedKeys(corpora[1]), " ") {
		t.Errorf("same seed, other corpus: %d and %d files", len(corpora[0]), len(corpora[1]))
	}
	t.Logf("arms: %s", armStats[0])
}

// TestAutoArmsEnv: GFZ_AUTO_ARMS restricts the arms a run may choose.
func TestAutoArmsEnv(t *testing.T) {
	t.Setenv(autoArmsEnv, "bytes,random,fast")
	dir := t.TempDir()
	run(t, Config{Engine: "auto", Seed: 1, Runs: 5000, Workdir: dir}, newMaze(mazeKey, mazeMod, mazeValid))
	st := readStatsFile(t, dir)
	for _, n := range append(append([]string{}, armNames...), schedNames...) {
		used := st["arm_"+n+"_execs"] != "0"
		if want := n == "bytes" || n == "random" || n == "fast"; used != want {
			t.Errorf("arm %s: %s executions", n, st["arm_"+n+"_execs"])
		}
	}
	ops, sched, first := autoArms("")
	if ops != 1<<numArms-1 || sched != 1<<len(schedNames)-1 || !first {
		t.Errorf("no restriction: masks %b %b, generation first %v", ops, sched, first)
	}
	if _, _, first := autoArms("bytes,random"); first {
		t.Error("generation first without being named")
	}
	if _, _, first := autoArms("random, first"); !first {
		t.Error("generation first named and not allowed")
	}
}

// autoWithoutFirst runs auto without generation first in t (through
// autoArmsEnv: every arm, not "first"), for tests of the bandits in runs
// shorter than its warm-up.
func autoWithoutFirst(t *testing.T) {
	t.Helper()
	t.Setenv(autoArmsEnv, strings.Join(append(append([]string{}, armNames...), schedNames...), ","))
}

// TestArmsMergeAndSummary: the workers' arm counts are summed (their arm
// lists taken once), and the final summary's line gives each arm's share
// of the executions and its finds, arms without executions left out.
func TestArmsMergeAndSummary(t *testing.T) {
	w := func(ze, zf, be, re int) []kvPair {
		return []kvPair{{"arms", "zest,bytes,cmp,random"}, {"arms_parents", "turns"},
			{"arm_zest_execs", strconv.Itoa(ze)}, {"arm_zest_finds", strconv.Itoa(zf)},
			{"arm_bytes_execs", strconv.Itoa(be)}, {"arm_bytes_finds", "0"},
			{"arm_cmp_execs", "0"}, {"arm_cmp_finds", "0"},
			{"arm_random_execs", strconv.Itoa(re)}, {"arm_random_finds", "1"}, {"arm_random_share", strconv.Itoa(re - 10)},
			{"arm_turns_execs", strconv.Itoa(ze + be)}, {"arm_turns_finds", strconv.Itoa(zf)}}
	}
	m := mergeFeedback([][]kvPair{w(300, 2, 100, 410), w(200, 1, 400, 610)})
	for k, want := range map[string]string{"arms": "zest,bytes,cmp,random", "arm_zest_execs": "500", "arm_zest_finds": "3", "arm_bytes_execs": "500", "arm_turns_execs": "1000", "arm_random_share": "1000"} {
		if got := lookup(m, k); got != want {
			t.Errorf("merged %s = %q, want %q", k, got, want)
		}
	}
	got := armsSummary(m)
	want := "arms: executions and finds by operator: zest 24.8% (3 finds), bytes 24.8% (0 finds), random 50.5% (2 finds, 49.5% the generation share); by parent schedule: turns 100.0% (3 finds)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("summary %q\nwant %q", got, want)
	}
	if armsSummary([]kvPair{{"saved_cmp", "1"}}) != nil {
		t.Error("a run without arms has an arms line")
	}
	// Generation first's children (summed over the workers) end the line.
	m = mergeFeedback([][]kvPair{append(w(300, 2, 100, 410), kvPair{"arm_random_first", "250"}), append(w(200, 1, 400, 610), kvPair{"arm_random_first", "350"})})
	if got := armsSummary(m); len(got) != 1 || got[0] != want+"; generation first made the first 600 children" {
		t.Errorf("summary with generation first %q", got)
	}
	m = append(m, kvPair{"arm_random_first_ended", "0"})
	if got := armsSummary(m); len(got) != 1 || got[0] != want+"; generation first made the first 600 children (it had not ended)" {
		t.Errorf("summary with generation first not ended %q", got)
	}
	// Generation first made every child: no parent arm ran.
	m = []kvPair{{"arms", "zest,random"}, {"arms_parents", "turns"}, {"arm_zest_execs", "0"}, {"arm_random_execs", "90"},
		{"arm_random_finds", "2"}, {"arm_random_share", "90"}, {"arm_random_first", "90"}, {"arm_turns_execs", "0"}}
	if got := armsSummary(m); len(got) != 1 || got[0] != "arms: executions and finds by operator: random 100.0% (2 finds, 100.0% the generation share); generation first made the first 90 children" {
		t.Errorf("summary of generation first alone %q", got)
	}
}

// TestAutoChargesFairMask: the executions of a fairfuzz mask (3 a byte of
// the parent, made one after the other before the next decision) are the
// cost of the one decision that started it, for the operator arm and for
// the turn's parent arm, and the weights use it after the next estimate.
func TestAutoChargesFairMask(t *testing.T) {
	p := &entry{data: bytes.Repeat([]byte{7}, 40), edges: 2, hit: []uint32{1, 2}}
	env := &scriptEnv{r: newPRNG(1), q: []*entry{p}, edges: 2, max: 64, edges1: map[int]bool{1: true}}
	h := env.hits()
	h.setAll(1, 1, 2, 1000) // edge 1 is rare (and every mutant hits it)
	h.refresh()
	s := newAutoTurns(env)
	s.restrict(1<<armFair, s.schedMask)
	var child []byte
	execs := 0
	for s.fm.made == 0 {
		if g := s.nextGuide(); g != nil {
			t.Fatal("a guided child without guided arms")
		}
		child = s.next(child)
		if s.arm != armFair {
			t.Fatalf("arm %s, only fairfuzz allowed", armNames[s.arm])
		}
		s.found(yield{result: Valid})
		if execs++; execs > 1000 {
			t.Fatal("no mask after 1,000 executions")
		}
	}
	if execs != 3*len(p.data) {
		t.Fatalf("the mask took %d executions, want %d", execs, 3*len(p.data))
	}
	if s.ops.dn[armFair] != 0 {
		t.Fatalf("the mask's decision closed before the next one")
	}
	s.nextGuide() // the next decision closes the mask's
	if s.ops.dcost[armFair] != float64(execs) || s.ops.dn[armFair] != 1 || s.ops.chosen[armFair] != 2 {
		t.Errorf("fairfuzz: decision cost %g over %g decisions (%d chosen); want %d over 1 (2 chosen)",
			s.ops.dcost[armFair], s.ops.dn[armFair], s.ops.chosen[armFair], execs)
	}
	s.ops.estimate(env.r)
	if c := s.ops.cost[armFair]; c < float64(execs)/2 {
		t.Errorf("fairfuzz's cost per decision %g after an estimate, want about %d", c, (execs+1)/2)
	}
	if s.sched.open != s.sch || s.sched.spent < float64(execs) {
		t.Errorf("the turn's parent arm %d was charged %g, want at least the mask's %d executions", s.sched.open, s.sched.spent, execs)
	}
}

// TestAutoStructValueAvailable: struct and value are offered only for a
// parent with choices of their kind. (They were offered for any parent
// with choices; struct on a parent without structural choices made an ei
// child credited to ei, so struct was never credited, kept its prior and
// went on being chosen: 40% of the decisions on gfz-bench's trivial
// target.)
func TestAutoStructValueAvailable(t *testing.T) {
	src := param.New(nil, 0)
	src.SetRecording(true)
	src.Reset([]byte{1, 2, 3, 4}, 0)
	src.Uintn(16, param.Value)
	src.Uintn(16, param.Value)
	values := &entry{data: bytes.Clone(src.Consumed()), edges: 1, valid: true, rec: src.Record().Clone()}
	both := recordedEntry([]byte{0, 1, 2, 3, 4, 5}, true)
	env := &scriptEnv{r: newPRNG(1), q: []*entry{values, both}, edges: 3, max: 32, guides: true, labels: newSiteKinds()}
	s := newAutoTurns(env)
	if a := s.available(values); a&(1<<armStruct) != 0 || a&(1<<armValue) == 0 || a&(1<<armEI) == 0 {
		t.Errorf("a parent with value choices only: arms %010b; want ei and value, not struct", a)
	}
	if a := s.available(both); a&(1<<armStruct) == 0 || a&(1<<armValue) == 0 {
		t.Errorf("a parent with both kinds of choices: arms %010b; want struct and value", a)
	}
	for range 2000 {
		s.infoP, s.parent = nil, values
		s.arm = s.ops.choose(env.r, s.available(values))
		if s.arm == armStruct {
			t.Fatal("struct chosen for a parent without structural choices")
		}
		s.ops.credit(s.arm, 0)
	}
}

// TestAutoFairMaskCostKnown: a fairfuzz decision for a parent without its
// mask is weighed by the mask's known cost (3 executions a byte), not by
// the arm's learned cost (one execution before any mask was made, so the
// first decisions of a run started a mask as often as they made a zest
// child: on gotoml2-inline the first mask took 177-599 executions in each
// of five runs, whose bug the other engines find in 17-40); once the mask
// is made a fairfuzz child costs one. Seeds 1-50, the first 10 decisions
// of a run between zest and fairfuzz for a parent of 40 bytes.
func TestAutoFairMaskCostKnown(t *testing.T) {
	first := func(seed int64, masked bool) bool {
		p := &entry{data: bytes.Repeat([]byte{7}, 40), edges: 2, hit: []uint32{1, 2}}
		env := &scriptEnv{r: newPRNG(seed), q: []*entry{p}, edges: 2, max: 64}
		h := env.hits()
		h.setAll(1, 1, 2, 1000) // edge 1 is rare
		h.refresh()
		s := newAutoTurns(env)
		s.restrict(1<<armZest|1<<armFair, s.schedMask)
		if masked {
			s.fm.masks[p] = &fairMask{edge: 1, done: true, bits: make([]uint8, 40)}
		}
		for range 10 {
			if s.ops.choose(env.r, s.offer(p)) == armFair {
				return true
			}
			s.ops.credit(armZest, 0)
		}
		return false
	}
	var unmasked, masked int
	for seed := int64(1); seed <= 50; seed++ {
		if first(seed, false) {
			unmasked++
		}
		if first(seed, true) {
			masked++
		}
	}
	t.Logf("runs whose first 10 decisions include fairfuzz: %d of 50 for a parent without its mask, %d with it", unmasked, masked)
	if unmasked > 20 || masked < 40 {
		t.Errorf("fairfuzz among the first 10 decisions in %d of 50 runs when its decision starts a 120-execution mask, %d when the mask is made; want at most 20 (no hint: 50), then at least 40",
			unmasked, masked)
	}
}

// randArgs is a fakeArgs that also makes random arguments.
type randArgs struct{ fakeArgs }

func (randArgs) RandomArgs(rand func() uint64, dst []byte, _ int) []byte {
	return append(dst[:0], "rnd"...)
}

// TestAutoRandomNativeArgs: on a native target the random arm executes
// fresh random arguments, as -engine random does, not an empty parameter
// sequence (which decodes to empty strings and slices).
func TestAutoRandomNativeArgs(t *testing.T) {
	t.Setenv(autoArmsEnv, "random")
	env := &scriptEnv{r: newPRNG(1), max: 32, q: []*entry{{data: []byte("seed")}}}
	s := newAutoTurns(mutEnv{env, &randArgs{}})
	var child []byte
	for i := range 20 {
		env.execs = int64(i)
		if g := s.nextGuide(); g != nil {
			t.Fatalf("a guide for the random arm")
		}
		child = s.next(child)
		if s.arm != armRandom || string(child) != "rnd" {
			t.Fatalf("child %d: arm %s, %q; want random's \"rnd\"", i, armNames[s.arm], child)
		}
		s.found(yield{result: Valid})
	}
}

// TestAutoNativeArgArms: on a native target with an argument mutator, the
// args arm's children are the mutator's typed edits of the parent and the
// format arm's the format generator's documents (args' own mutation when
// the generator makes none); neither arm is offered for a target without
// a mutator, nor format without a generator.
func TestAutoNativeArgArms(t *testing.T) {
	run := func(arms string, mut any) (*autoTurns, []string) {
		t.Helper()
		t.Setenv(autoArmsEnv, arms)
		env := &scriptEnv{r: newPRNG(1), max: 32, q: []*entry{{data: []byte("seed")}}}
		var s *autoTurns
		if mut == nil {
			s = newAutoTurns(env)
		} else {
			s = newAutoTurns(mutEnv{env, mut})
		}
		var out []string
		var child []byte
		for i := range 20 {
			env.execs = int64(i)
			if g := s.nextGuide(); g != nil {
				t.Fatalf("%s: a guide", arms)
			}
			child = s.next(child)
			out = append(out, armNames[s.arm]+" "+string(child))
			s.found(yield{result: Valid})
		}
		return s, out
	}
	gen := &genArgs{on: true}
	for _, c := range []struct {
		arms string
		mut  any
		want string // every child
	}{
		{"args", &fakeArgs{}, "args seedx"},
		{"format", gen, "format gen:seed"},
		{"args,format", &genArgs{on: false}, "args seedx"}, // no generator: format not offered
	} {
		s, out := run(c.arms, c.mut)
		for i, o := range out {
			if o != c.want {
				t.Fatalf("arms %s: child %d is %q, want %q", c.arms, i, o, c.want)
			}
		}
		if c.arms == "args,format" && s.ops.chosen[armFormat] != 0 {
			t.Errorf("format chosen %d times without a generator", s.ops.chosen[armFormat])
		}
	}
	// Without a native mutator, neither arm is available: the arms named
	// are not offered and zest makes the children.
	_, out := run("args,format", nil)
	for i, o := range out {
		if !strings.HasPrefix(o, "zest ") {
			t.Fatalf("no native mutator: child %d is %q, want zest's", i, o)
		}
	}
}
