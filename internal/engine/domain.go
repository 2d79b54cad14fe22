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

// A domain is one kind of feedback beyond coverage.
type domain interface {
	// reason is the save reason ("+perf") its waypoints are counted under.
	reason() string
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
	// stats writes the domain's keys of the stats file, each starting
	// with the domain's name and an underscore ("perf_max_path"). The
	// final summary is made from them (feedbackSummary), and so is the
	// supervisor's merge of its workers' (mergeFeedback).
	stats(kv func(string, any))
}

// A bracketing domain measures around every execution (fuzzer.execExt):
// begin is called right before the executor runs, end right after it
// returns, each execution, recheck and shrink candidate included (begin in
// f.doms' order, end in the reverse order). setDomains collects them in
// f.brackets, so a domain that is not one costs nothing per execution. mem
// is one (it reads the allocation counters).
type bracketing interface {
	begin()
	end()
}

// A favoring domain makes the inputs it keeps favored, as coverage's
// responsibility does (entry.resp): credit is called when the execution
// it committed last is queued, at q[idx]. perf is one (PerfFuzz favors the
// inputs that hold an edge's largest count).
type favoring interface {
	credit(q []*entry, idx int)
}

// Feedback names (Config.Feedback, the fuzz binary's -feedback): a
// contract. cmp's domain is built by the comparison-probe feedback.
var feedbackNames = []string{"perf", "mem", "cmp", "diff"}

// domainBuilders makes each named domain for f; a name without a builder
// is accepted by ParseFeedback but refused by Run.
var domainBuilders = map[string]func(f *fuzzer) (domain, error){
	"perf": newPerfDomain,
	"mem":  newMemDomain,
	"diff": func(f *fuzzer) (domain, error) { return f.waypoints.enableDiff(), nil },
}

// FeedbackNames returns the names -feedback accepts, in documentation
// order.
func FeedbackNames() []string { return slices.Clone(feedbackNames) }

// FeedbackList is FeedbackNames for messages: "a, b, c or d".
func FeedbackList() string {
	n := feedbackNames
	return strings.Join(n[:len(n)-1], ", ") + " or " + n[len(n)-1]
}

// ParseFeedback parses a -feedback value, a comma-separated list of
// feedback names ("" is none), into the names in the order given, without
// duplicates. An unknown name is an error naming the valid ones.
func ParseFeedback(s string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(feedbackNames, name) {
			return nil, fmt.Errorf("unknown feedback %q (want a comma-separated list of %s)", name, FeedbackList())
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// setDomains makes the domains of cfg.Feedback. The waypoint domain (the
// target's T.Maximize and T.Minimize) is always on: it costs nothing for
// a target that reports no waypoint.
func (f *fuzzer) setDomains() error {
	f.waypoints = newWaypointDomain()
	f.doms = []domain{f.waypoints}
	for _, name := range f.cfg.Feedback {
		if !slices.Contains(feedbackNames, name) {
			return fmt.Errorf("engine: unknown feedback %q (want %s)", name, FeedbackList())
		}
		if name == "cmp" {
			continue // not a domain of this interface: setFeedback (cmp.go)
		}
		build := domainBuilders[name]
		if build == nil {
			return fmt.Errorf("engine: feedback %q is not available in this build", name)
		}
		d, err := build(f)
		if err != nil {
			return err
		}
		if !slices.Contains(f.doms, d) {
			f.doms = append(f.doms, d)
			if b, ok := d.(bracketing); ok {
				f.brackets = append(f.brackets, b)
			}
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

// creditDomains lets the favoring domains credit the input just queued
// (the last of the queue).
func (f *fuzzer) creditDomains() {
	for _, d := range f.doms {
		if fd, ok := d.(favoring); ok {
			fd.credit(f.queue, len(f.queue)-1)
		}
	}
}

// domainStats writes the domains' stats keys: saved_<reason> for each
// domain (inputs saved for it and not for coverage), then each domain's own.
func (f *fuzzer) domainStats(kv func(string, any)) {
	for i, d := range f.doms {
		kv("saved_"+strings.TrimPrefix(d.reason(), "+"), f.domSaved[i])
	}
	for _, d := range f.doms {
		d.stats(kv)
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
// domains from their stats keys: the inputs saved for them alone, then
// each domain's best (for perf, the slowest input and its top edges
// against the corpus median).
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
	if s := lookup(kvs, "perf_slowest"); s != "" {
		out = append(out,
			fmt.Sprintf("perf: slowest input %s: path length %s (corpus median %s), max edge count %s",
				s, lookup(kvs, "perf_slowest_path"), lookup(kvs, "perf_median_path"), lookup(kvs, "perf_max_edge")),
			"perf: its top edges, hits (corpus median): "+lookup(kvs, "perf_slowest_edges"))
	}
	if s := lookup(kvs, "mem_largest"); s != "" {
		out = append(out, fmt.Sprintf("mem: most allocating input %s: %s bytes; most heap objects in one execution %s",
			s, lookup(kvs, "mem_max_bytes"), lookup(kvs, "mem_max_objects")))
	}
	if n := lookup(kvs, "waypoint_keys"); n != "" {
		out = append(out, fmt.Sprintf("waypoints: %s keys, best %s", n, lookup(kvs, "waypoint_best")))
	}
	if n := lookup(kvs, "diff_keys"); n != "" && n != "0" {
		out = append(out, fmt.Sprintf("diff: %s keys, largest divergence %s", n, lookup(kvs, "diff_max")))
	}
	return out
}
