// Package regexp2emptyloop pins github.com/dlclark/regexp2 v1.3.0, whose
// matcher panics (index out of range [-1]) on a counted repetition of a
// group that matches the empty string, repeated more times than the
// backtracking stack has room for, as "(?:){40}": each iteration pushes
// on the track stack and jumps back to the same instruction, and the
// runner grew its stacks only on jumps to an earlier instruction, so the
// push runs off the front of the stack:
// https://github.com/dlclark/regexp2/issues/31 (found by fuzzing; fixed in
// v1.4.0 by bbc9f75, "grow stack spaces when performing a jump operation
// backward AND to the same address").
//
// A matcher bug: the pattern must compile, and the crash needs a loop of
// that shape (an empty body, a repeat count above the stack's initial
// size) to run on a subject.
package regexp2emptyloop

import (
	"fmt"
	"time"

	"example.com/bugkit"
	"github.com/dlclark/regexp2"
)

// Issue is the upstream report.
const Issue = "https://github.com/dlclark/regexp2/issues/31"

// Site is the push of the loop's mark on the track stack (the inlined
// trackPush1) in the runner's execute, in the branch of a greedy counted
// loop (Branchcount, line 386) or of a lazy one (Lazybranchcount, line
// 256): the two loop instructions whose jump back to the same address
// did not grow the stacks.
var Site = bugkit.Site{Func: "github.com/dlclark/regexp2.(*runner).execute", File: "runner.go", Lines: []int{256, 386},
	Inner: []string{"github.com/dlclark/regexp2.(*runner).trackPush1"}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// FindAll compiles pattern with ECMAScript semantics (as JavaScript
// engines built on the module do) and returns every match of it in
// subject, each search limited to 100 ms, as a tool that applies
// user-written patterns does.
func FindAll(pattern, subject string) ([]string, error) {
	re, err := regexp2.Compile(pattern, regexp2.ECMAScript)
	if err != nil {
		return nil, fmt.Errorf("compile %q: %w", pattern, err)
	}
	re.MatchTimeout = 100 * time.Millisecond
	var out []string
	m, err := re.FindStringMatch(subject)
	for m != nil && err == nil && len(out) < 1000 {
		out = append(out, m.String())
		m, err = re.FindNextMatch(m)
	}
	if err != nil {
		return out, fmt.Errorf("match %q: %w", pattern, err)
	}
	return out, nil
}
