package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// Feedback domains (FuzzFactory's domain-specific feedback, docs/ENGINE.md
// "Feedback domains"): beside coverage, a domain measures something of
// every VALID or INVALID execution under keys and keeps, per key, the best
// value seen (a max or min reducer). An execution that improves the best
// value of any key of any domain is a waypoint: it is saved and queued
// like an input that adds coverage. Domains are consulted in fuzzer.handle
// after the engine's feedback (strategy.go); they do not change which
// inputs coverage saves, only add to them.
//
// A domain's aggregate is a function of the saved inputs (an execution
// that improves nothing leaves it unchanged, and every one that improves
// something is saved), so resuming from the corpus (init re-executes it)
// and importing other workers' entries (syncCorpus) rebuild it: domains
// need no state of their own on disk.
//
// A domain is one file (perf.go, mem.go, cmp.go, waypoint.go) and one entry
// in the domains registry below: the loop, the stats file, the final
// summary and the supervisor's merge of its workers' keys all go through
// the domain interface and the optional interfaces after it.

// A domain is one kind of feedback beyond coverage.
type domain interface {
	// name is the domain's registered name: its -feedback name (but for
	// the always-on waypoints), the save reason "+name" its waypoints are
	// counted under (saved_<name> in the stats file) and the prefix of its
	// own stats keys.
	name() string
	// start readies the domain for f's run, before any execution (f.cfg,
	// f.cov and f.waypoints are set; the domains start in f.doms' order).
	start(f *fuzzer) error
	// check reports whether the execution just handled (out; the probe
	// map and f.cov.lines as coverage.check left them) improves the
	// domain's aggregate. It remembers what it measured for commit but
	// must not change the aggregate: the loop may re-execute the input
	// (recheck) and check again before saving.
	check(out *Outcome, valid bool) bool
	// commit merges the execution last checked into the aggregate; it is
	// called when that execution is saved (for whatever reason), with the
	// name of its corpus file.
	commit(name string)
	// stats writes the domain's own keys of the stats file (and of a
	// worker's feedback file), each starting with the domain's name and an
	// underscore ("perf_max_path").
	stats(kv func(string, any))

	// summary and mergeKey report the keys stats wrote, for this run or
	// merged from the workers' feedback files; they depend on nothing
	// else: the supervisor calls them on a domain it built and never
	// started.

	// summary returns the final summary's lines about the domain (none
	// when the domain did not run) made from the stats keys; get returns
	// a key's value, "" when absent. The saved_<name> counts, summed over
	// workers, are among the keys.
	summary(get func(key string) string) []string
	// mergeKey is the key whose largest value across workers selects the
	// worker whose keys of the domain the supervisor reports ("": the
	// first worker's).
	mergeKey() string
}

// Optional interfaces of a domain. The loop collects the domains that
// implement each at start (f.brackets, f.mutators), so a domain that does
// not costs nothing per execution.

// A bracketing domain measures around every execution (fuzzer.execExt):
// begin is called right before the executor runs, end right after it
// returns, each execution, recheck and shrink candidate included (begin in
// f.doms' order, end in the reverse order). mem reads the allocation
// counters; cmp switches the comparison probes on for the execution.
type bracketing interface {
	begin()
	end()
}

// A processWide domain reads counters of the whole process (mem: the
// allocation counts), which any goroutine of gfz running beside the
// target would change: with one on, the run keeps no such goroutine
// (corpus entries are fsynced inline, workdir.Dir.SyncInline).
type processWide interface {
	processWide()
}

// processWide reports whether a domain of the run reads counters of the
// whole process.
func (f *fuzzer) processWide() bool {
	for _, d := range f.doms {
		if _, ok := d.(processWide); ok {
			return true
		}
	}
	return false
}

// A favoring domain makes the inputs it keeps favored, as coverage's
// responsibility does (entry.resp): credit is called when the execution
// it committed last is queued, at q[idx]. perf is one (PerfFuzz favors the
// inputs that hold an edge's largest count).
type favoring interface {
	credit(q []*entry, idx int)
}

// A mutating domain feeds the engine's mutation with what it measured:
// cmp, whose comparison operands become tokens (an input-to-state
// dictionary). child makes, some of the time, a child of parent in dst
// from them, drawing from r; ok false leaves the child to the engine's
// own mutation. Engines ask through fuzzer.domainChild (zestTurns.next
// does: zest's children, and ei's and bediv's of parents without choices).
type mutating interface {
	child(r *prng, dst, parent []byte) (c []byte, ok bool)
	// token makes a child from one token every time it has one (the
	// adaptive engine's cmp arm, auto.go); tokens is how many it has.
	token(r *prng, dst, parent []byte) (c []byte, ok bool)
	tokens() int
}

// A warning domain needs something a binary may lack (cmp: comparison
// probes, gfz-build -cmp): warning is what a run of this binary with the
// domain is told at its start, "" when nothing is missing. Run prints it;
// a worker does not, its supervisor's caller does (FeedbackWarnings).
type warning interface {
	warning() string
}

// domainDef is a registered domain.
type domainDef struct {
	name  string
	build func() domain
	// always: on in every run, not a -feedback name (the target's
	// waypoints, T.Maximize and T.Minimize: they cost nothing for a
	// target that reports none).
	always bool
}

// domains is the feedback domain registry: each domain's name and its
// builder, which makes a domain that is not yet started (start readies it
// for a run). Its order is that of FeedbackNames (hence of -feedback's
// messages) and of the final summary's lines.
var domains = []domainDef{
	{name: "perf", build: newPerfDomain},
	{name: "mem", build: newMemDomain},
	{name: "cmp", build: newCmpDomain},
	{name: "waypoint", build: newWaypointDomain, always: true},
	{name: "diff", build: newDiffDomain},
}

// registered builds the registered domain named name (nil if there is
// none).
func registered(name string) domain {
	for _, d := range domains {
		if d.name == name {
			return d.build()
		}
	}
	return nil
}

// FeedbackNames returns the names -feedback accepts, in documentation
// order (the registry's).
func FeedbackNames() []string {
	var n []string
	for _, d := range domains {
		if !d.always {
			n = append(n, d.name)
		}
	}
	return n
}

// FeedbackList is FeedbackNames for messages: "a, b, c or d".
func FeedbackList() string {
	n := FeedbackNames()
	return strings.Join(n[:len(n)-1], ", ") + " or " + n[len(n)-1]
}

// ParseFeedback parses a -feedback value, a comma-separated list of
// feedback names ("" and "none" are none), into the names in the order
// given, without duplicates. An unknown name is an error naming the valid
// ones.
func ParseFeedback(s string) ([]string, error) {
	var out []string
	if strings.TrimSpace(s) == "none" {
		return nil, nil
	}
	names := FeedbackNames()
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(names, name) {
			return nil, fmt.Errorf("unknown feedback %q (want a comma-separated list of %s)", name, FeedbackList())
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// FeedbackWarnings returns the warnings a run of this binary with the
// feedback named gets at its start (a domain needing what the binary
// lacks: cmp without comparison probes), in the order of feedback. Run
// prints them, except in a worker: the driver prints them once for the
// supervisor.
func FeedbackWarnings(feedback []string) []string {
	var out []string
	for _, name := range feedback {
		if w, ok := registered(name).(warning); ok {
			if s := w.warning(); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// setDomains makes and starts the always-on domains, then those of
// cfg.Feedback in its order, and collects the ones with per-execution
// hooks and mutation.
func (f *fuzzer) setDomains() error {
	names := FeedbackNames()
	for _, name := range f.cfg.Feedback {
		if !slices.Contains(names, name) {
			return fmt.Errorf("engine: unknown feedback %q (want %s)", name, FeedbackList())
		}
	}
	f.doms, f.brackets, f.mutators = nil, nil, nil
	var on []string
	for _, d := range domains {
		if d.always {
			on = append(on, d.name)
		}
	}
	for _, name := range f.cfg.Feedback {
		if !slices.Contains(on, name) {
			on = append(on, name)
		}
	}
	for _, name := range on {
		d := registered(name)
		if err := d.start(f); err != nil {
			return err
		}
		f.doms = append(f.doms, d)
		if b, ok := d.(bracketing); ok {
			f.brackets = append(f.brackets, b)
		}
		if m, ok := d.(mutating); ok {
			f.mutators = append(f.mutators, m)
		}
	}
	if f.cfg.SharedMem == "" { // a worker's supervisor prints them
		for _, w := range FeedbackWarnings(f.cfg.Feedback) {
			f.warnf("%s", w)
		}
	}
	f.domSaved = make([]int64, len(f.doms))
	return nil
}

// checkDomains asks every domain whether the execution just handled
// improves it; the result has bit i set for f.doms[i]. Every domain is
// asked (each remembers its measurement for commitDomains).
func (f *fuzzer) checkDomains(out *Outcome, valid bool) uint64 {
	var m uint64
	for i, d := range f.doms {
		if d.check(out, valid) {
			m |= 1 << i
		}
	}
	return m
}

// commitDomains merges the execution being saved, whose consumed input is
// data, into every domain, and counts it under the first domain that kept
// it when coverage did not (imp is checkDomains' result).
func (f *fuzzer) commitDomains(data []byte, imp uint64, byCoverage bool) {
	name := workdir.ContentName(data)
	for _, d := range f.doms {
		d.commit(name)
	}
	if !byCoverage && imp != 0 {
		for i := range f.doms {
			if imp&(1<<i) != 0 {
				f.domSaved[i]++
				break
			}
		}
	}
}

// warnInert warns, once a run, that a feedback domain kept an input (imp
// is checkDomains' result) under an engine that never mutates what it
// keeps (random, rl): the domain cannot steer such a run, which a target
// reporting waypoints, or a user who named the engine and -feedback,
// would not expect. (The driver runs zest when -feedback is given without
// -engine, so this is the case of waypoints, or of both flags given.)
func (f *fuzzer) warnInert(imp uint64) {
	f.inertWarned = true
	name := engineName(f.cfg.Engine)
	for i, d := range f.doms {
		if imp&(1<<i) == 0 {
			continue
		}
		what := "-feedback " + d.name()
		if d == domain(f.waypoints) {
			what = "the target's waypoints (T.Maximize, T.Minimize)"
		}
		if !f.cfg.QuietSetup { // once a run: worker 0's first incarnation speaks
			f.warnf("%s kept an input, but engine %s does not mutate the inputs it keeps, so %s cannot steer this run: run with -engine zest (or another engine that mutates)",
				what, name, what)
		}
		return
	}
}

// creditDomains lets the favoring domains credit the input just queued
// (the last of the queue).
func (f *fuzzer) creditDomains() {
	for _, d := range f.doms {
		if fd, ok := d.(favoring); ok {
			fd.credit(f.queue, len(f.queue)-1)
		}
	}
}

// domainChild makes a child of parent from the mutating domains' tokens,
// the first that makes one (ok false: none did, the engine mutates). It
// inlines to a length check when there is none.
func (f *fuzzer) domainChild(dst, parent []byte) ([]byte, bool) {
	if len(f.mutators) == 0 {
		return dst, false
	}
	return f.mutatorChild(dst, parent)
}

func (f *fuzzer) mutatorChild(dst, parent []byte) ([]byte, bool) {
	for _, m := range f.mutators {
		if c, ok := m.child(f.r, dst, parent); ok {
			return c, true
		}
	}
	return dst, false
}

// tokens is the number of the mutating domains' tokens.
func (f *fuzzer) tokens() int {
	n := 0
	for _, m := range f.mutators {
		n += m.tokens()
	}
	return n
}

// tokenChild makes a child of parent from one token of a mutating domain
// (the first that has tokens), whatever the domain's own odds.
func (f *fuzzer) tokenChild(dst, parent []byte) ([]byte, bool) {
	for _, m := range f.mutators {
		if c, ok := m.token(f.r, dst, parent); ok {
			return c, true
		}
	}
	return dst, false
}

// domainStats writes the domains' stats keys: saved_<name> for each
// domain (inputs saved for it and not for coverage), then each domain's own.
func (f *fuzzer) domainStats(kv func(string, any)) {
	for i, d := range f.doms {
		kv("saved_"+d.name(), f.domSaved[i])
	}
	for _, d := range f.doms {
		d.stats(kv)
	}
	if rs, ok := f.strat.(reportingStrategy); ok {
		rs.stats(kv)
	}
}

// domainKV returns the domains' stats keys in order.
func (f *fuzzer) domainKV() []kvPair {
	var out []kvPair
	f.domainStats(func(k string, v any) { out = append(out, kvPair{k, fmt.Sprint(v)}) })
	return out
}

// kvPair is one stats line.
type kvPair struct{ k, v string }

// lookup returns the value of key k in kvs ("" if absent).
func lookup(kvs []kvPair, k string) string {
	for _, p := range kvs {
		if p.k == k {
			return p.v
		}
	}
	return ""
}

// feedbackSummary makes the final summary's lines about the feedback
// domains from their stats keys (this run's, or the workers' merged): the
// inputs saved for them alone, then each registered domain's summary, in
// the registry's order.
func feedbackSummary(kvs []kvPair) []string {
	var out, saved []string
	for _, p := range kvs {
		if strings.HasPrefix(p.k, "saved_") && p.v != "0" {
			saved = append(saved, "+"+strings.TrimPrefix(p.k, "saved_")+" "+p.v)
		}
	}
	if len(saved) > 0 {
		out = append(out, "feedback: inputs saved for a feedback domain alone: "+strings.Join(saved, ", "))
	}
	get := func(k string) string { return lookup(kvs, k) }
	for _, d := range domains {
		out = append(out, d.build().summary(get)...)
	}
	return out
}
