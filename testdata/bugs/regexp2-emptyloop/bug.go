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

// Site is a push on the runner's track or grouping stack, when it is
// full, in execute (the push helpers are inlined there: their index
// r.runtrackpos or r.runstackpos runs to -1). A counted loop of an empty
// body jumps back to its own instruction and never grows the stacks, so
// whichever push comes next overflows: which one depends on the count and
// on the loop's kind ((?:){17} at the Capturemark push, line 256; (?:){18}
// at Branchcount's trackPushNeg2, 383; (?:){40} at its trackPush1, 386;
// a lazy (?:){100,}? at Lazybranchcount's trackPushNeg1, 427). Lines are
// every line of execute that calls a push helper. The lazy-loop stack
// corruption of issue #37, also in v1.3.0, panics elsewhere (popcrawl,
// uncapture, backtrack).
var Site = bugkit.Site{Func: "github.com/dlclark/regexp2.(*runner).execute", File: "runner.go",
	Lines: []int{208, 219, 220, 225, 226, 236, 243, 256, 264, 278, 279, 282, 291, 297, 311, 313, 320, 322, 338, 339, 349,
		353, 354, 359, 360, 383, 386, 387, 402, 406, 414, 427, 428, 431, 448, 449, 453, 465, 469, 470, 497, 723, 748, 773,
		788, 803, 818, 833, 852, 871, 890},
	Inner: []string{
		"github.com/dlclark/regexp2.(*runner).trackPush", "github.com/dlclark/regexp2.(*runner).trackPush1",
		"github.com/dlclark/regexp2.(*runner).trackPush2", "github.com/dlclark/regexp2.(*runner).trackPush3",
		"github.com/dlclark/regexp2.(*runner).trackPushNeg1", "github.com/dlclark/regexp2.(*runner).trackPushNeg2",
		"github.com/dlclark/regexp2.(*runner).stackPush", "github.com/dlclark/regexp2.(*runner).stackPush2",
	}}

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
