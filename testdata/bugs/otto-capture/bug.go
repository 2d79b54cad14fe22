// Package ottocapture pins github.com/robertkrimen/otto v0.2.1, whose
// RegExp.prototype.test panics (slice bounds out of range [:-1]) when the
// regular expression matches but one of its first nine capturing groups
// takes no part in the match, as /(a)|b/.test("b") or /x(y)?/.test("x"):
// since v0.2.0 (pull request #466, which made test set RegExp.$1 to $9 as
// exec does) test copies each group's text out of the subject by the
// offsets the Go matcher returned, and a group that did not participate
// has the offsets -1, -1. Fixed in v0.3.0 by pull request #477 ("fix:
// missing regexp capture panic"), which sets such a group's $n to "":
// https://github.com/robertkrimen/otto/pull/477
//
// A semantic bug of a builtin: the script must parse, build a regular
// expression that Go's RE2 accepts (otto translates the pattern; a
// lookahead or backreference is a SyntaxError), call test on it (exec,
// match, replace, search and split are not affected), outside a try
// block (otto turns a Go panic inside try into a JavaScript exception),
// on a subject it matches without one of its groups: a group under ?, *,
// {0,n} or in an alternative the match did not take.
package ottocapture

import (
	"errors"
	"time"

	"example.com/bugkit"
	"github.com/robertkrimen/otto"
)

// Issue is the upstream fix (its pull request; no issue was filed).
const Issue = "https://github.com/robertkrimen/otto/pull/477"

// Site is the slicing of the subject by a group's offsets in
// builtinRegExp_test (builtin_regexp.go:74), whatever calls test (a method
// call, RegExp.prototype.test.call or apply, a callback).
var Site = bugkit.Site{Func: "github.com/robertkrimen/otto.builtinRegExp_test", File: "builtin_regexp.go", Lines: []int{74}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Budget is how long a script may run before the watchdog halts it, well
// under gfz's shortest per-input timeout (200 ms), so that a slow script
// is an error, never a hang report. StackDepth is the JavaScript call
// depth allowed (deeper recursion is a RangeError instead of a Go stack
// overflow).
const (
	Budget     = 100 * time.Millisecond
	StackDepth = 100
)

// ErrHalted is the error of a script the watchdog stopped.
var ErrHalted = errors.New("script halted: it ran longer than the budget")

// Run runs a script as a program embedding otto to run user scripts does:
// a fresh VM with a call-depth limit and a fixed random source, a
// watchdog that halts the script through the Interrupt channel after
// Budget (otto's documented way to stop a runaway script: the interrupt
// function panics with a value of the host's own, which the host
// recovers), then the script's completion value exported to Go, an
// object or array first serialized with JSON.stringify (Export itself
// recurses forever on a cyclic object). An uncaught JavaScript exception,
// a syntax error or a halted script is an error; a Go panic of the
// library is re-raised.
func Run(src string) (result any, err error) {
	vm := otto.New()
	vm.SetStackDepthLimit(StackDepth)
	seed := uint64(1)
	vm.SetRandomSource(func() float64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return float64(seed>>11) / (1 << 53)
	})
	vm.Interrupt = make(chan func(), 1)
	done := make(chan struct{})
	defer close(done)
	go watchdog(vm.Interrupt, done)
	defer func() {
		if r := recover(); r != nil {
			if r == ErrHalted {
				result, err = nil, ErrHalted
				return
			}
			panic(r)
		}
	}()
	v, err := vm.Run(src)
	if err != nil {
		return nil, err
	}
	if v.IsObject() {
		if v, err = vm.Call("JSON.stringify", nil, v); err != nil {
			return nil, err
		}
	}
	return v.Export()
}

// watchdog sends the halting function once Budget has passed, and again
// every millisecond until the run ends: a try/catch in the script
// catches a halt like any exception, so one is not always enough.
func watchdog(interrupt chan<- func(), done <-chan struct{}) {
	timer := time.NewTimer(Budget)
	defer timer.Stop()
	select {
	case <-done:
		return
	case <-timer.C:
	}
	halt := func() { panic(ErrHalted) }
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case interrupt <- halt:
		case <-done:
			return
		}
		select {
		case <-tick.C:
		case <-done:
			return
		}
	}
}
