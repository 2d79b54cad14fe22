// Package intern keeps one copy of each of a bounded number of strings, so
// that callers can store a string without retaining their argument (which
// would make it escape to the heap: generators built inline, whose names
// and labels are passed in, could then not stay on the stack).
package intern

import (
	"strings"
	"sync"
	"sync/atomic"
)

// maxStrings bounds the copies kept: strings made up anew for every input
// are copied each time rather than kept for ever.
const maxStrings = 1024

// The copies, shared by every caller (go test makes a new Source and T per
// input): a map under a lock, and in front of it a few atomic slots that
// answer the common case (the same few strings again and again) without
// locking.
var (
	mu     sync.RWMutex
	copies = map[string]*string{}
	slots  [16]atomic.Pointer[string]
)

// String returns a copy of s that is kept and shared: the same copy for
// every call with an equal string, while fewer than 1024 distinct strings
// have been kept.
func String(s string) string {
	slot := &slots[len(s)&15]
	if p := slot.Load(); p != nil && *p == s {
		return *p
	}
	mu.RLock()
	p, ok := copies[s]
	mu.RUnlock()
	if !ok {
		c := strings.Clone(s)
		p = &c
		mu.Lock()
		if q, ok := copies[s]; ok {
			p = q
		} else if len(copies) < maxStrings {
			copies[c] = p
		}
		mu.Unlock()
	}
	slot.Store(p)
	return *p
}
