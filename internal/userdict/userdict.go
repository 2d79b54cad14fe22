// Package userdict holds the fuzz binary's dictionary, so that package
// generators (which draws tokens from it) and the driver (which writes it
// beside regression inputs) both reach it without importing each other
// (generators imports package gfz, which imports the driver):
//
//   - the literals gfz-build collected, linked in with -X (builtinDict);
//   - the dictionary given on the command line (libFuzzer's -dict=FILE:
//     Set, Tokens), appended to them by All;
//   - under plain go test, the dictionary a regression input was found
//     with, which generators.Dictionary returns instead while that input
//     runs (SetReplay, Replay).
package userdict

import (
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
)

var (
	mu     sync.Mutex
	tokens []string
)

// Set replaces the command-line dictionary. The fuzz binary calls it while
// it parses its command line, before any generator draws.
func Set(t []string) {
	mu.Lock()
	tokens = append([]string(nil), t...)
	mu.Unlock()
}

// Tokens returns the command-line dictionary (nil when none was given).
func Tokens() []string {
	mu.Lock()
	defer mu.Unlock()
	return tokens
}

// builtinDict is set by gfz-build with -ldflags "-X
// github.com/gfz-dev/gfz/internal/userdict.builtinDict=..." to the string
// and number literals of the instrumented packages: the tokens, each
// escaped with url.QueryEscape, joined by commas (Decode). It is empty
// outside a fuzz binary.
var builtinDict string

var (
	allOnce sync.Once
	all     []string
)

// All returns the fuzz binary's dictionary: the literals gfz-build linked
// in, then the tokens of Set (the -dict=FILE entries) that are not among
// them. It is computed at the first call, which must come after Set; the
// slice is shared.
func All() []string {
	allOnce.Do(func() {
		all = Decode(builtinDict)
		if extra := Tokens(); len(extra) > 0 {
			seen := make(map[string]bool, len(all)+len(extra))
			for _, w := range all {
				seen[w] = true
			}
			for _, w := range extra {
				if !seen[w] {
					seen[w] = true
					all = append(all, w)
				}
			}
		}
	})
	return all
}

// Decode decodes the dictionary encoding gfz-build uses (tokens escaped
// with url.QueryEscape, joined by commas). Tokens that do not decode are
// dropped.
func Decode(enc string) []string {
	if enc == "" {
		return nil
	}
	parts := strings.Split(enc, ",")
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if s, err := url.QueryUnescape(p); err == nil {
			out = append(out, s)
		}
	}
	return out
}

// consulted records whether generators drew from the fuzz binary's
// dictionary since the last ResetConsulted: an input that did replays
// under plain go test only with the same dictionary, which -regress then
// writes beside it. consultHook, if set, is called the first time.
var (
	consulted   atomic.Bool
	consultHook atomic.Pointer[func()]
)

// Consult records that a generator draws from the fuzz binary's
// dictionary (generators.Dictionary returned a non-empty one).
func Consult() {
	if !consulted.Load() && consulted.CompareAndSwap(false, true) {
		if h := consultHook.Load(); h != nil {
			(*h)()
		}
	}
}

// ResetConsulted forgets Consult calls: the next execution starts.
func ResetConsulted() { consulted.Store(false) }

// Consulted reports whether Consult was called since ResetConsulted.
func Consulted() bool { return consulted.Load() }

// SetConsultHook makes the first Consult after each ResetConsulted call
// f (nil: nothing), when it happens (a -repro child reports it to its
// parent before the input can crash the process).
func SetConsultHook(f func()) {
	if f == nil {
		consultHook.Store(nil)
		return
	}
	consultHook.Store(&f)
}

// replay is the dictionary generators.Dictionary returns while a
// regression input runs under plain go test (nil: none).
var replay atomic.Pointer[[]string]

// SetReplay makes generators.Dictionary return t (a copy) until the
// returned function is called, which restores what was set before. Plain
// go test runs one input at a time; the fuzz binary never calls it.
func SetReplay(t []string) (restore func()) {
	t = append([]string{}, t...)
	old := replay.Swap(&t)
	return func() { replay.Store(old) }
}

// Replay returns the dictionary set by SetReplay, if one is set.
func Replay() ([]string, bool) {
	if p := replay.Load(); p != nil {
		return *p, true
	}
	return nil, false
}
