package engine

import (
	"fmt"
	"runtime"
)

// -feedback mem: FuzzFactory's mem domain, per execution rather than per
// allocation site (Go gives no cheap per-site count): two keys, the bytes
// and the number of heap objects the execution allocated, each reduced
// with max. An execution that allocates more bytes or more objects than
// any saved input is saved.
//
// The counts are runtime.MemStats' TotalAlloc and Mallocs read before and
// after the executor's call: exact, and deterministic for a deterministic
// target, but each read stops the world (about 7 µs on the 2-core machine
// of docs/BENCHMARKS.md, so about 15 µs per execution). runtime/metrics'
// /gc/heap/allocs:bytes is cheaper (about 1.2 µs) but counts small
// allocations only when their span is refilled, so its per-execution delta
// is 0 or a whole span's worth: too coarse for small targets and
// dependent on the heap's state, which would make runs irreproducible.
// The counts include the executor's own allocations for the execution
// (the parameter source's buffers), the same for every input.

type memDomain struct {
	ms                 runtime.MemStats
	bytes0, objs0      uint64 // at the start of the execution
	bytes, objs        uint64 // the last execution's counts
	maxBytes, maxObjs  uint64 // the largest of a saved input
	lastBytes, lastObj uint64 // the last checked execution's counts
	largest            string // the saved input that allocated most bytes
}

func newMemDomain() domain { return &memDomain{} }

func (m *memDomain) name() string { return "mem" }

func (m *memDomain) start(*fuzzer) error { return nil }

// processWide: the counts are the process's (engine.go's Run fsyncs
// corpus entries inline with mem on).
func (m *memDomain) processWide() {}

// begin and end bracket the executor's call (fuzzer.execExt; mem is a
// bracketing domain).
func (m *memDomain) begin() {
	runtime.ReadMemStats(&m.ms)
	m.bytes0, m.objs0 = m.ms.TotalAlloc, m.ms.Mallocs
}

func (m *memDomain) end() {
	runtime.ReadMemStats(&m.ms)
	m.bytes, m.objs = m.ms.TotalAlloc-m.bytes0, m.ms.Mallocs-m.objs0
}

func (m *memDomain) check(*Outcome, bool) bool {
	m.lastBytes, m.lastObj = m.bytes, m.objs
	return m.bytes > m.maxBytes || m.objs > m.maxObjs
}

func (m *memDomain) commit(name string) {
	if m.lastBytes > m.maxBytes || m.largest == "" {
		m.largest = name
	}
	m.maxBytes = max(m.maxBytes, m.lastBytes)
	m.maxObjs = max(m.maxObjs, m.lastObj)
}

func (m *memDomain) stats(kv func(string, any)) {
	kv("mem_max_bytes", m.maxBytes)
	kv("mem_max_objects", m.maxObjs)
	if m.largest != "" {
		kv("mem_largest", "corpus/"+m.largest)
	}
}

func (m *memDomain) summary(get func(string) string) []string {
	s := get("mem_largest")
	if s == "" {
		return nil
	}
	return []string{fmt.Sprintf("mem: most allocating input %s: %s bytes; most heap objects in one execution %s",
		s, get("mem_max_bytes"), get("mem_max_objects"))}
}

// mergeKey: the worker whose input allocated most reports.
func (m *memDomain) mergeKey() string { return "mem_max_bytes" }
