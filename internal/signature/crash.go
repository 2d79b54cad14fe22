package signature

import (
	"os"
	"strconv"
	"strings"
)

// Crash kinds recorded by the supervisor (besides "fatal error: ...",
// "panic: ...", "signal SIGxxx" and "exit status N").
const (
	KindTimeout     = "timeout"
	KindOutOfMemory = "out of memory"
	KindGoexit      = "runtime.Goexit"
	// KindStackOverflow is the kind of a goroutine stack past its limit
	// (the Go runtime's fatal error).
	KindStackOverflow = "fatal error: stack overflow"
)

// GoexitMarker is the line a worker's executor writes on stderr before
// exiting when the fuzz target called runtime.Goexit.
const GoexitMarker = "gfz-worker: the fuzz target called runtime.Goexit"

// DeathSignature is the signature the supervisor gives to a process that
// died with this stderr tail and exit state, killed by the supervisor for
// kill (KindTimeout, KindOutOfMemory) or not ("").
func DeathSignature(stderrTail string, ps *os.ProcessState, kill string) string {
	kind, stack, framed := Classify(stderrTail, ps, kill)
	return OfDeath(kind, stack, framed)
}

// OfDeath is the signature of a worker's death: the kind, then the
// top user frames of the crash trace when they say where it happened
// (framed), or, for a hang, of the goroutine running the fuzz function.
func OfDeath(kind, stack string, framed bool) string {
	if kind == KindTimeout {
		return Hang(stack)
	}
	if framed {
		if fr := CrashFrames(stack); fr != "" {
			return kind + "\n" + fr
		}
	}
	return kind
}

// CrashSignature is the failure signature the supervisor gives to a
// process that died with this stderr tail and exit state.
func CrashSignature(stderrTail string, ps *os.ProcessState) string {
	kind, stack, framed := Classify(stderrTail, ps, "")
	return OfDeath(kind, stack, framed)
}

// CrashKind names what a process running a fuzz target died of, from the
// tail of its stderr and its exit state, as the supervisor names it in
// failure reports ("panic: ...", "fatal error: ...", "signal SIGSEGV",
// "exit status 3", "runtime.Goexit").
func CrashKind(stderrTail string, ps *os.ProcessState) string {
	kind, _, _ := Classify(stderrTail, ps, "")
	return kind
}

// Classify names what a worker died of from its stderr tail and exit
// state, and returns the part of the tail holding the crash trace and
// whether the signature should include the trace's top user frames (not
// for timeouts, memory exhaustion and asynchronous signals, whose traces
// show wherever the process happened to be).
func Classify(tail string, ps *os.ProcessState, kill string) (kind, stack string, framed bool) {
	switch kill {
	case KindTimeout:
		if i := strings.Index(tail, "SIGQUIT"); i >= 0 {
			return KindTimeout, tail[i:], false
		}
		return KindTimeout, "", false
	case KindOutOfMemory:
		return KindOutOfMemory, "", false
	}
	if i := strings.LastIndex(tail, GoexitMarker); i >= 0 {
		return KindGoexit, tail[i+len(GoexitMarker):], true
	}
	// The crash is what the process printed last: a tail that holds the
	// output of many executions may have lines that look like a crash
	// (a logger's "fatal error: config ...", a recovery middleware's
	// "panic: ..."), so the last such line is the one (a fatal error only
	// when it is after the last panic line: it may report a panic's end).
	fatal, panicked := lastLineIndex(tail, "fatal error: "), lastLineIndex(tail, "panic: ")
	if i := fatal; i >= 0 && i > panicked {
		line := firstLine(tail[i:])
		rest := strings.TrimPrefix(line, "fatal error: ")
		switch {
		case strings.Contains(rest, "out of memory"):
			return KindOutOfMemory, tail[i:], false
		case strings.HasPrefix(rest, "unexpected signal"):
			// A fault in non-Go code: synchronous, the trace shows where.
			if sig := signalName(tail[i:]); sig != "" {
				return "signal " + sig, tail[i:], true
			}
		}
		return "fatal error: " + NormalizeMessage(rest), tail[i:], true
	}
	if i := panicked; i >= 0 {
		line := firstLine(tail[i:])
		if j := strings.LastIndex(line, " [recovered"); j > 0 && strings.HasSuffix(line, "]") {
			line = line[:j] // re-panicked after a recover
		}
		return "panic: " + NormalizeMessage(strings.TrimPrefix(line, "panic: ")), tail[i:], true
	}
	if i := lastLineIndex(tail, "SIG"); i >= 0 {
		// "SIGSEGV: segmentation violation" with no fatal error: a signal
		// sent to the process, which the runtime cannot attribute.
		if sig, _, ok := strings.Cut(firstLine(tail[i:]), ":"); ok && !strings.Contains(sig, " ") {
			return "signal " + sig, tail[i:], false
		}
	}
	if sig, ok := exitSignal(ps); ok {
		return "signal " + sig, "", false
	}
	return "exit status " + strconv.Itoa(ps.ExitCode()), "", false
}

// lastLineIndex returns the offset of the last line of s starting with
// prefix, or -1.
func lastLineIndex(s, prefix string) int {
	if i := strings.LastIndex(s, "\n"+prefix); i >= 0 {
		return i + 1
	}
	if strings.HasPrefix(s, prefix) {
		return 0
	}
	return -1
}

// signalName extracts SIGxxx from a "[signal SIGxxx: ...]" line.
func signalName(s string) string {
	i := strings.Index(s, "[signal ")
	if i < 0 {
		return ""
	}
	name, _, _ := strings.Cut(s[i+len("[signal "):], ":")
	return name
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
