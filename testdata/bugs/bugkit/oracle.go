// Package bugkit holds what the bug suite under testdata/bugs shares: the
// oracle that recognises a bug by its site in a Go stack trace (this file)
// and, in package gens, the input generators of the gfz targets.
//
// A bug's oracle is a Site: the function, file and lines where the bug
// panics (MatchPanic) or, for an infinite loop, where the hung goroutine
// is found (MatchHang). It reads stack traces as the Go runtime prints
// them (a panic's traceback, debug.Stack, a SIGQUIT dump of every
// goroutine, a test timeout), which is what go test -fuzz, gfz failure
// reports and gfz -repro print, so a harness can classify any failure
// report's text: the bug, or another crash.
package bugkit

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Frame is one frame of a goroutine's stack: the function as the
// traceback names it (package path and receiver, without arguments),
// the file and the line.
type Frame struct {
	Func string
	File string
	Line int
}

func (f Frame) String() string { return fmt.Sprintf("%s %s:%d", f.Func, path.Base(f.File), f.Line) }

// Goroutines parses a traceback into the frames of each goroutine, the
// innermost frame first. Text that is not part of a traceback is skipped;
// "created by" lines are not frames.
func Goroutines(stack string) [][]Frame {
	lines := strings.Split(strings.ReplaceAll(stack, "\r\n", "\n"), "\n")
	var all [][]Frame
	var cur []Frame
	flush := func() {
		if len(cur) > 0 {
			all = append(all, cur)
		}
		cur = nil
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "goroutine ") && strings.HasSuffix(l, ":") {
			flush()
			continue
		}
		if l == "" || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, " ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "\t") {
			continue
		}
		if strings.HasPrefix(l, "created by ") {
			i++
			continue
		}
		fn := l
		if j := strings.LastIndexByte(fn, '('); j > 0 && strings.HasSuffix(fn, ")") {
			fn = fn[:j]
		}
		file, line, ok := fileLine(lines[i+1])
		if !ok {
			continue
		}
		i++
		cur = append(cur, Frame{Func: fn, File: file, Line: line})
	}
	flush()
	return all
}

// fileLine parses "\t/path/file.go:123 +0x1f".
func fileLine(l string) (string, int, bool) {
	l = strings.TrimSpace(l)
	if j := strings.LastIndex(l, " +0x"); j > 0 {
		l = l[:j]
	}
	j := strings.LastIndexByte(l, ':')
	if j < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(l[j+1:])
	if err != nil {
		return "", 0, false
	}
	return l[:j], n, true
}

// PanicFrames returns the frames of the panicking goroutine from the panic
// site down: the frames after the first call of panic (for a panic
// recovered and re-raised, as the testing package and many parsers do,
// the original one is the last panic frame of the trace), runtime frames
// (runtime.panicIndex, runtime.panicdottypeE, ...) skipped. It returns nil
// when the trace holds no panic.
func PanicFrames(stack string) []Frame {
	for _, g := range Goroutines(stack) {
		last := -1
		for i, f := range g {
			if f.Func == "panic" || f.Func == "runtime.gopanic" {
				last = i
			}
		}
		if last < 0 {
			continue
		}
		rest := g[last+1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0].Func, "runtime.") {
			rest = rest[1:]
		}
		return rest
	}
	return nil
}

// Site describes where a bug shows in a stack trace.
type Site struct {
	// Func is the function's full name as tracebacks print it, e.g.
	// "github.com/BurntSushi/toml.(*parser).replaceEscapes".
	Func string
	// File is the base name of its file, e.g. "parse.go".
	File string
	// Lines are the accepted lines of File; empty accepts any line of Func.
	Lines []int
	// Inner are helpers the site calls that may panic on its behalf
	// (lx.backup(), s[i] in a small accessor): their frames, inlined or
	// not, may stand between the panic and the site.
	Inner []string
	// Callers, when set, must be the functions of the frames right below
	// the site, in order (the caller, its caller...): they tell apart two
	// bugs that panic in the same helper.
	Callers []string
}

func (s Site) String() string {
	var b strings.Builder
	b.WriteString(s.Func + " " + s.File)
	for i, l := range s.Lines {
		if i == 0 {
			b.WriteString(":")
		} else {
			b.WriteString(",")
		}
		b.WriteString(strconv.Itoa(l))
	}
	for _, c := range s.Inner {
		b.WriteString(" (via " + c + ")")
	}
	for _, c := range s.Callers {
		b.WriteString(" <- " + c)
	}
	return b.String()
}

func (s Site) frameMatches(f Frame) bool {
	return f.Func == s.Func && path.Base(f.File) == s.File && (len(s.Lines) == 0 || slices.Contains(s.Lines, f.Line))
}

func (s Site) callersMatch(below []Frame) bool {
	if len(below) < len(s.Callers) {
		return false
	}
	for i, c := range s.Callers {
		if below[i].Func != c {
			return false
		}
	}
	return true
}

// MatchPanic reports whether stack is the traceback of a panic raised at
// the site: the first frame below the panic (runtime frames and Inner
// helpers skipped) is the site, followed by its callers.
func (s Site) MatchPanic(stack string) bool {
	fr := PanicFrames(stack)
	for len(fr) > 0 && slices.Contains(s.Inner, fr[0].Func) {
		fr = fr[1:]
	}
	return len(fr) > 0 && s.frameMatches(fr[0]) && s.callersMatch(fr[1:])
}

// MatchHang reports whether some goroutine of stack (a dump of every
// goroutine taken while the input ran too long: a SIGQUIT dump, a test
// timeout) is inside the site: one of its frames matches, followed by its
// callers. The loop's helpers (inlined or not) may be above the site; a
// dump taken at the instant the loop is in a caller of the site, between
// two calls of it, does not match (take another dump).
func (s Site) MatchHang(stack string) bool {
	for _, g := range Goroutines(stack) {
		for i, f := range g {
			if s.frameMatches(f) && s.callersMatch(g[i+1:]) {
				return true
			}
		}
	}
	return false
}
