package signature

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Failure signatures.
//
// A failure's signature is its deduplication key: the kind of failure
// ("panic: <message as the Go runtime prints it, numbers replaced by N>",
// "fatal" for t.Fatal/t.Error, "fatal error: ...", "timeout", ...), then
// the top Frames frames of the user's code, one
// "function file.go:line" per line. The same rules apply whether a failure
// is caught in the worker (a panic recovered by the executor, frames from
// runtime.Callers) or by the supervisor (frames parsed from the crash
// trace the Go runtime printed), so that one bug gets one signature
// however it was caught. The frames start at the innermost user frame
// that is not a standard-library helper (std.go): a failure's site (its
// group) is the signature's first two lines, the kind and that frame.

// Frames is the number of user frames in a failure signature.
const Frames = 3

// Functions where the frames of the fuzz function end: the executor of
// package gfz that calls it, the goroutine of package gfz that runs a
// native f.Fuzz function, and the engine's execution (for executors that
// run the target directly).
const (
	runFunc       = "github.com/gfz-dev/gfz.run"
	nativeRunFunc = "github.com/gfz-dev/gfz.runNativeJob"
	execFunc      = "github.com/gfz-dev/gfz/internal/engine.(*fuzzer).execExt"
)

// IsBoundaryFrame reports whether fn is where the frames of the fuzz
// function end (gfz's executors or the engine).
func IsBoundaryFrame(fn string) bool { return fn == runFunc || fn == nativeRunFunc || fn == execFunc }

// internalPrefixes are the function name prefixes of code that is never
// the user's: the Go runtime, the testing machinery, reflection, sync and
// os (the crash of a user callback shows these frames in between), and gfz.
var internalPrefixes = []string{
	"runtime.", "runtime/", "testing.", "internal/", "reflect.", "sync.", "os.",
	"github.com/gfz-dev/gfz.",
	"github.com/gfz-dev/gfz/internal/",
	"github.com/gfz-dev/gfz/param.",
	"github.com/gfz-dev/gfz/generators.",
	"github.com/gfz-dev/gfz/runtime.",
}

// IsInternalFrame reports whether the function named fn (as runtime frames
// and Go tracebacks name it) belongs to the Go runtime, the testing
// machinery, gfz, or gfz's instrumentation (the _gfzHit probe helpers
// gfz-build adds to every instrumented package), never the user's code.
func IsInternalFrame(fn string) bool {
	if fn == "panic" {
		// The runtime's panic, as a crash trace names it when a deferred
		// function panicked again (a subtest's panic, re-panicked by the
		// testing package): the frames under it are where it started.
		return true
	}
	for _, p := range internalPrefixes {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return IsInstrumentationFrame(fn)
}

// IsInstrumentationFrame reports whether fn is one of the probe helpers
// gfz-build adds to instrumented packages (pkg._gfzHit, pkg._gfzHitE, any
// pkg._gfz*) or gfz's probe runtime.
func IsInstrumentationFrame(fn string) bool {
	if strings.HasPrefix(fn, "github.com/gfz-dev/gfz/runtime.") {
		return true
	}
	last := fn[strings.LastIndexByte(fn, '/')+1:]
	_, name, ok := strings.Cut(last, ".")
	return ok && strings.HasPrefix(name, "_gfz")
}

// FrameLine formats one signature frame: "function file.go:line".
func FrameLine(fn, file string, line int) string {
	return fmt.Sprintf("%s %s:%d", fn, filepath.Base(file), line)
}

// NormalizeMessage makes failure messages that differ only in numbers or
// in the input text they quote equal: it keeps the first line, replaces
// every run of decimal digits and every hexadecimal number written 0x...
// by N, the content of every double-quoted string ("...", with backslash
// escapes, as %q writes it) by _ and of every single-quoted rune literal
// ('x', '\n', '\u00e9') by _, and keeps at most 120 characters. A lone
// apostrophe (can't) is text. Parsers panic with the character or token
// they choked on ("expected valid escape code after \, but got ','"): one
// bug, one signature, whichever character the input had there; messages
// that differ outside the quotes stay apart.
func NormalizeMessage(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if c == '0' && i+2 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') && isHex(s[i+2]) {
				i += 2
				for i < len(s) && isHex(s[i]) {
					i++
				}
			} else {
				for i < len(s) && s[i] >= '0' && s[i] <= '9' {
					i++
				}
			}
			b.WriteByte('N')
		case c == '"' || c == '\'':
			n := quotedLen(s[i:])
			if n == 0 {
				b.WriteByte(c)
				i++
				break
			}
			b.WriteByte(c)
			b.WriteByte('_')
			b.WriteByte(c)
			i += n
		default:
			b.WriteByte(c)
			i++
		}
		if b.Len() >= 120 {
			b.WriteString("...")
			break
		}
	}
	return b.String()
}

// quotedLen returns the length of the quoted string ("..." with backslash
// escapes) or rune literal ('x', '\n', '\x41', '\u00e9', '\”) that s
// starts with, or 0 if s does not start with one.
func quotedLen(s string) int {
	if s[0] == '"' {
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return 0
	}
	// A rune literal: one rune or one escape, then the closing quote.
	j := 1
	if j >= len(s) || s[j] == '\'' {
		return 0
	}
	if s[j] == '\\' {
		j++
		if j >= len(s) {
			return 0
		}
		switch s[j] {
		case 'x':
			j += 3
		case 'u':
			j += 5
		case 'U':
			j += 9
		default:
			if s[j] >= '0' && s[j] <= '7' {
				j += 3
			} else {
				j++
			}
		}
	} else {
		_, size := utf8.DecodeRuneInString(s[j:])
		j += size
	}
	if j < len(s) && s[j] == '\'' {
		return j + 1
	}
	return 0
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// PanicText is what the Go runtime prints after "panic: " when a panic
// with value r ends the process: the Error or String method's result, a
// string as is, a basic value, a named basic type as T(v), anything else
// as "(T) address". The signature of a panic the executor recovers is made
// from it, so that it matches the signature the supervisor computes from
// the runtime's crash output for the same panic in another goroutine.
func PanicText(r any) string {
	switch v := r.(type) {
	case nil:
		return "nil"
	case error:
		return v.Error()
	case fmt.Stringer:
		return v.String()
	case string:
		return v
	case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr,
		float32, float64, complex64, complex128:
		return fmt.Sprint(v)
	}
	t := reflect.TypeOf(r)
	switch t.Kind() {
	case reflect.String:
		return fmt.Sprintf("%s(%q)", t, reflect.ValueOf(r).String())
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return fmt.Sprintf("%s(%v)", t, r)
	}
	return fmt.Sprintf("(%s) 0x0", t)
}

// PanicKind is the first line of the signature of a panic with
// value r.
func PanicKind(r any) string { return "panic: " + NormalizeMessage(PanicText(r)) }

// Frame is one frame of a call stack: its function, named as runtime
// frames and Go tracebacks name it, file and line.
type Frame struct {
	Func, File string
	Line       int
}

func (f Frame) String() string { return FrameLine(f.Func, f.File, f.Line) }

// goroutineBlocks splits a crash output into its goroutine traces, each
// starting at its "goroutine N [...]:" line.
func goroutineBlocks(dump string) []string {
	lines := strings.Split(dump, "\n")
	var blocks []string
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "goroutine ") && strings.HasSuffix(l, ":") {
			if start >= 0 {
				blocks = append(blocks, strings.Join(lines[start:i], "\n"))
			}
			start = i
		}
	}
	if start >= 0 {
		blocks = append(blocks, strings.Join(lines[start:], "\n"))
	}
	return blocks
}

// parseFrames returns the frames of a goroutine trace (starting at its
// "goroutine" line), innermost first, up to the boundary frame (gfz's
// executor or engine) or the end of the trace.
func parseFrames(block string) []Frame {
	lines := strings.Split(block, "\n")
	var out []Frame
	for i := 1; i+1 < len(lines); i += 2 {
		fn, loc := lines[i], lines[i+1]
		if fn == "" || strings.HasPrefix(fn, "created by ") || !strings.HasPrefix(loc, "\t") {
			break
		}
		fn = funcName(fn)
		if IsBoundaryFrame(fn) {
			break
		}
		file, line := parseLocation(strings.TrimPrefix(loc, "\t"))
		out = append(out, Frame{fn, file, line})
	}
	return out
}

// funcName strips the argument list from a trace's function line.
func funcName(l string) string {
	if j := strings.LastIndexByte(l, '('); j > 0 {
		return l[:j]
	}
	return l
}

// parseLocation splits a trace's location line ("/src/x.go:12 +0x1c
// fp=... sp=... pc=...") into file and line.
func parseLocation(loc string) (string, int) {
	i := strings.LastIndex(loc, ".go:")
	if i < 0 {
		f, _, _ := strings.Cut(loc, " ")
		return f, 0
	}
	file, rest := loc[:i+3], loc[i+4:]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	n, _ := strconv.Atoi(rest[:j])
	return file, n
}

// FrameLines formats the frames of a failure signature from a call stack
// (innermost first, ending where the fuzz function's frames end): the top
// Frames user frames, one "function file.go:line" per line. User frames
// are those neither IsInternalFrame nor skip (the executor's helpers,
// marked by T.Helper; skip may be nil) leaves out. They start at the
// innermost user frame that is not a standard-library helper (see
// stdHelper) if there is one: a std function the user's code called is not
// the site of its failure. With noInnerLine the first frame is named
// without its line (where a hung loop was interrupted varies, the function
// does not). A standard-library helper's frame past the first is named
// without its line too: which of its lines called on (an iterator's
// several yields, one sort or another of sort.Slice) depends on the input,
// not on the bug, and would split one failure into several (unless the
// stack has no other frames: the std code is then the code under test).
func FrameLines(frames []Frame, skip func(fn string) bool, noInnerLine bool) string {
	return frameLines(frames, skip, noInnerLine, Frames)
}

// frameLines is FrameLines with at most max frames.
func frameLines(frames []Frame, skip func(fn string) bool, noInnerLine bool, max int) string {
	user := func(f Frame) bool { return !IsInternalFrame(f.Func) && (skip == nil || !skip(f.Func)) }
	start := sigStart(frames, user)
	// Std frames are the code under test when they are all there is.
	stdLines := start >= len(frames) || !user(frames[start]) || stdHelper(frames[start].Func, frames[start].File)
	var b strings.Builder
	n := 0
	for _, f := range frames[start:] {
		if n == max {
			break
		}
		if !user(f) {
			continue
		}
		if n == 0 && noInnerLine || n > 0 && !stdLines && stdHelper(f.Func, f.File) {
			b.WriteString(f.Func + "\n")
		} else {
			b.WriteString(f.String() + "\n")
		}
		n++
	}
	return b.String()
}

// sigStart is where a signature's frames start: the first of frames that
// user accepts and that is not a standard-library helper the target called
// (stdHelper), whose frames would name the helper rather than the code that
// called it; 0 if there is none.
func sigStart(frames []Frame, user func(Frame) bool) int {
	for i, f := range frames {
		if user(f) && !stdHelper(f.Func, f.File) {
			return i
		}
	}
	return 0
}

// CrashFrames returns the top user frames of the first goroutine trace in
// a crash output, one "function file.go:line" per line.
func CrashFrames(trace string) string {
	blocks := goroutineBlocks(trace)
	if len(blocks) == 0 {
		return ""
	}
	return FrameLines(parseFrames(blocks[0]), nil, false)
}

// hangFrames returns the top user frames of the goroutine that was running
// the fuzz function in a dump of all goroutines (SIGQUIT, or the engine's
// watchdog), the innermost without its line; "" if there is none.
func hangFrames(dump string) string { return hangFramesN(dump, Frames) }

// hangFramesN is hangFrames with at most max frames.
func hangFramesN(dump string, max int) string {
	if b := fuzzBlock(goroutineBlocks(dump)); b != "" {
		return frameLines(parseFrames(b), nil, true, max)
	}
	return ""
}

// hangStack returns the user frames of the goroutine that was running the
// fuzz function in a dump of all goroutines, innermost first (nil if
// there is none).
func hangStack(dump string) []Frame {
	b := fuzzBlock(goroutineBlocks(dump))
	if b == "" {
		return nil
	}
	var user []Frame
	for _, f := range parseFrames(b) {
		if !IsInternalFrame(f.Func) {
			user = append(user, f)
		}
	}
	return user
}

// fuzzBlock returns the trace of the goroutine that was running the fuzz
// function among blocks ("" if none): gfz's executor calls it in the
// engine's goroutine, a native target's runs in a goroutine of its own
// while the engine's waits for it. When that goroutine waits in t.Run for
// a subtest (which runs in a goroutine of its own), it is the subtest's
// goroutine, and so on down nested subtests.
func fuzzBlock(blocks []string) string {
	found := ""
	for _, marker := range []string{"\n" + runFunc + "(", "\n" + nativeRunFunc + "(", "\n" + execFunc + "("} {
		for _, b := range blocks {
			if found == "" && strings.Contains(b, marker) {
				found = b
			}
		}
	}
	for found != "" && strings.Contains(found, "\ntesting.(*T).Run(") {
		id, _, _ := strings.Cut(strings.TrimPrefix(found, "goroutine "), " ")
		sub := ""
		for _, b := range blocks {
			if strings.Contains(b, "\ncreated by testing.(*T).Run in goroutine "+id+"\n") {
				sub = b
				break
			}
		}
		if sub == "" {
			break
		}
		found = sub
	}
	return found
}

// FuzzGoroutine returns the header line ("goroutine 7 [running]:") of the
// goroutine that was running the fuzz function in a dump of goroutines
// (see fuzzBlock: a native target's, not the engine's goroutine waiting
// for it), "" if there is none.
func FuzzGoroutine(dump string) string {
	head, _, _ := strings.Cut(fuzzBlock(goroutineBlocks(dump)), "\n")
	return head
}

// Hang is the signature of a hang whose goroutines were dumped.
func Hang(dump string) string {
	if fr := hangFrames(dump); fr != "" {
		return KindTimeout + "\n" + fr
	}
	return KindTimeout
}

// TrimInstrumentation removes the frames of gfz's instrumentation (the
// _gfzHit probe helpers, gfz's probe runtime) from a Go trace: they are
// not the user's code and only add noise to the stacks reports show.
func TrimInstrumentation(trace string) string {
	if !strings.Contains(trace, "_gfz") && !strings.Contains(trace, "github.com/gfz-dev/gfz/runtime.") {
		return trace
	}
	lines := strings.SplitAfter(trace, "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "\t") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") &&
			IsInstrumentationFrame(funcName(strings.TrimRight(l, "\n"))) {
			i++ // and its location line
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// MaxMessagesPerFrames bounds the failures kept at the same frames with
// different first lines (kind and message): a message built from the
// input ("native panic " + s, fmt.Sprint of a drawn value), which
// NormalizeMessage cannot make equal, made a failure of every failing
// input (2,402 in 40 s at one panic line). Past it, a failure at those
// frames is not saved as new (MessageFlood).
const MaxMessagesPerFrames = 3

// FramesOf returns the frame lines of a signature: all but its first line
// ("" for a signature without frames).
func FramesOf(sig string) string {
	_, rest, _ := strings.Cut(sig, "\n")
	return rest
}

// MessageFlood reports whether known (signatures, as keys) holds
// MaxMessagesPerFrames or more other signatures with sig's frames.
func MessageFlood(sig string, known map[string]string) bool {
	fr := FramesOf(sig)
	if fr == "" {
		return false
	}
	n := 0
	for k := range known {
		if k != sig && FramesOf(k) == fr {
			n++
		}
	}
	return n >= MaxMessagesPerFrames
}

// Flood applies MaxMessagesPerFrames for a process that records failures
// (a worker, the supervisor). The zero Flood is ready to use.
type Flood struct {
	sigs   map[string]bool // signatures found past the cap (not scanned for again)
	frames map[string]bool // the places whose cap was announced
}

// Capped reports whether sig was found past the cap before.
func (fl *Flood) Capped(sig string) bool { return fl.sigs[sig] }

// Check reports whether sig is past the cap given the known signatures,
// remembering it if so; note is the line to print the first time a place
// is capped ("" after that).
func (fl *Flood) Check(sig string, known map[string]string) (capped bool, note string) {
	if !fl.sigs[sig] && !MessageFlood(sig, known) {
		return false, ""
	}
	if fl.sigs == nil {
		fl.sigs, fl.frames = map[string]bool{}, map[string]bool{}
	}
	fl.sigs[sig] = true
	fr := FramesOf(sig)
	if fl.frames[fr] {
		return true, ""
	}
	fl.frames[fr] = true
	first, _, _ := strings.Cut(fr, "\n")
	return true, fmt.Sprintf("more than %d failures at %s with different messages (the message varies with the input): the others there are not saved as new failures", MaxMessagesPerFrames, first)
}

// SiteOf returns the site of a failure signature: its first two lines, the
// kind and the innermost user frame that is not a standard-library helper
// (the whole signature if it has no frame). Failures at one site are one
// bug reached from different callers.
func SiteOf(sig string) string {
	kind, rest, ok := strings.Cut(sig, "\n")
	if !ok {
		return sig
	}
	first, _, _ := strings.Cut(rest, "\n")
	if first == "" {
		return kind
	}
	return kind + "\n" + first
}

// SiteName is the short name of a site (12 hex digits of its hash), shown
// in reports as the failure's group.
func SiteName(site string) string {
	h := sha256.Sum256([]byte(site))
	return hex.EncodeToString(h[:6])
}

// CountSites counts the distinct sites of a set of signatures.
func CountSites(known map[string]string) int {
	sites := map[string]bool{}
	for sig := range known {
		sites[SiteOf(sig)] = true
	}
	return len(sites)
}

// FailuresText describes known failures for status lines and summaries:
// "failures 0", or "failures 4 sites (14 signatures)".
func FailuresText(known map[string]string) string {
	if len(known) == 0 {
		return "failures 0"
	}
	return fmt.Sprintf("failures %s (%s)", Plural(CountSites(known), "site"), Plural(len(known), "signature"))
}

// Plural is a count with its noun, for the texts of failure counts: "1
// site", "3 sites".
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// FinalFailuresText is the final summary's count of failures: "2 new
// unique failures (3 known in total, at 2 sites)".
func FinalFailuresText(newFailures int, known map[string]string) string {
	return fmt.Sprintf("%s (%d known in total, at %s)", Plural(newFailures, "new unique failure"), len(known), Plural(CountSites(known), "site"))
}
