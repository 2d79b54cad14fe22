package callsite

import (
	"runtime"
	"strings"
	"sync/atomic"
)

// A Frame is a frame of the user's code on the stack of a generator call:
// a call of a plain function between the fuzz function (or the function a
// generator runs, such as Custom's) and the generator's Draw.
type Frame struct {
	// Func identifies the function: a hash of the source position (file
	// and line) of its entry, the same in every process of one program
	// and for every copy the compiler makes of it.
	Func uint64
	// Site is the return address of the frame: a PC in its caller just
	// after the call.
	Site uintptr
	// Name is the function's name as the runtime reports it.
	Name string
}

// Module is the import path of gfz's library module. Functions of its
// packages are not user code (Library), except those of test packages
// (_test) and of packages under testdata.
const Module = "github.com/gfz-dev/gfz"

// IsLibrary reports whether the function named name (as runtime.Func.Name
// reports it) belongs to gfz's library: a package of Module other than
// an external test package or a package under testdata.
func IsLibrary(name string) bool {
	if !strings.HasPrefix(name, Module) {
		return false
	}
	rest := name[len(Module):]
	if rest == "" {
		return false
	}
	switch rest[0] {
	case '.':
		return true // the root package gfz
	case '/':
	default:
		return false // another module, or gfz_test
	}
	// The package path ends at the first dot: gfz's package paths have
	// none.
	pkg := rest
	if i := strings.IndexByte(rest, '.'); i >= 0 {
		pkg = rest[:i]
	}
	return !strings.HasSuffix(pkg, "_test") && !strings.Contains(pkg+"/", "/testdata/")
}

// info is what is known of the function containing a return address.
type info struct {
	pc   uintptr
	id   uint64 // the function's Frame.Func
	name string // its name
	lib  bool   // the call at pc is made by gfz's library (IsLibrary)
}

// infos caches info by return address: a direct-mapped table, written
// and read atomically, so that it needs no lock; an entry evicted by
// another address is looked up again.
var infos [1 << infoBits]atomic.Pointer[info]

const infoBits = 12

func lookup(pc uintptr) *info {
	h := (uint64(pc) * 0x9e3779b97f4a7c15) >> (64 - infoBits)
	if p := infos[h].Load(); p != nil && p.pc == pc {
		return p
	}
	return resolve(pc, h)
}

// resolve makes the info of pc and caches it in slot h.
//
//go:noinline
func resolve(pc uintptr, h uint64) *info {
	p := &info{pc: pc, id: uint64(pc)}
	// pc-1 is in the call instruction, which a return address just past
	// a function's last call (to a function that does not return) is not.
	if fn := runtime.FuncForPC(pc - 1); fn != nil {
		// FuncForPC names the innermost function inlined at pc, whose
		// code made the call, and gives the entry of the function that
		// owns the frame.
		p.lib = IsLibrary(fn.Name())
		outer := runtime.FuncForPC(fn.Entry())
		if outer == nil {
			outer = fn
		}
		p.name = outer.Name()
		file, line := outer.FileLine(outer.Entry())
		p.id = mix(hashString(file), uint64(line))
	}
	infos[h].Store(p)
	return p
}

// Library reports whether the call that returns to pc is made by code of
// gfz's library (IsLibrary of the innermost function at pc). Results are
// cached by pc.
func Library(pc uintptr) bool { return lookup(pc).lib }

// maxUserFrames bounds the stack User walks: a longer chain of user frames
// (deep recursion) is not resolved.
const maxUserFrames = 4096

// User returns the frames of the user's code on the stack, outermost
// first, appended to buf[:0]: the frames between the caller of a function
// F and the nearest frame above it whose call was made by gfz's library.
// F is User's caller when skip is 0, its caller when skip is 1, and so
// on; like Caller, it only works if the functions from User's caller to
// F are not inlined (//go:noinline). The outermost user frame, the one
// the library called (the fuzz function, the function given to Custom),
// is left out: the library's own span stands for it. ok is false if no
// library frame was found (a goroutine of the user's, or a chain deeper
// than 4096 frames).
//
// Precisely: with p_0, p_1, ... the return addresses of the frames of F,
// of F's caller and so on (p_0 is what Caller returns in F), F_k the
// function whose frame p_{k-1} returns into, and p_j the first return
// address into library code, the result is F_{j-1}, ..., F_1, each with
// Func of F_k and Site p_k. So for a generator's Draw called from g, a
// recursive function the fuzz function called, there is one frame per
// active call of g.
//
//go:noinline
func User(skip int, buf []Frame) (frames []Frame, ok bool) {
	frames = buf[:0]
	var pcs [16]uintptr
	var prev *info
	for i := 0; i < maxUserFrames; {
		// Walk again from here on for each chunk: resolving a PC may
		// have moved the stack since the last one.
		n := Walk(1+skip+i, pcs[:])
		if n == 0 {
			return frames[:0], false
		}
		for _, pc := range pcs[:n] {
			p := lookup(pc)
			if p.lib {
				reverse(frames)
				return frames, true
			}
			if prev != nil {
				frames = append(frames, Frame{Func: prev.id, Site: pc, Name: prev.name})
			}
			prev = p
			i++
		}
	}
	return frames[:0], false
}

func reverse(fs []Frame) {
	for i, j := 0, len(fs)-1; i < j; i, j = i+1, j-1 {
		fs[i], fs[j] = fs[j], fs[i]
	}
}

// hashString is FNV-1a.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// mix is a 64-bit mixing step (splitmix64's finaliser over a running
// state).
func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}
