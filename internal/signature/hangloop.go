package signature

// A hung goroutine is interrupted wherever it happens to be: a loop that
// spans several functions shows a different innermost frame in each dump.
// Two dumps of one hang (the worker's and a re-run's) share the frames
// from the fuzz function down to the loop; the innermost of those are the
// loop's place (HangLoop). Two loops whose innermost shared frames agree
// (both call one helper chain) differ in the call that enters the chain:
// a loop is told by its innermost LoopFrames shared frames, one more than
// a signature names. The frames further out are the context the loop was
// reached from (a recursive parser reaches one loop at any nesting), which
// does not make another loop.

// LoopFrames is the number of innermost frames that tell two hung loops
// apart: the signature's Frames and the call that enters them.
const LoopFrames = Frames + 1

// A Loop is where a hung goroutine loops, from two dumps of the same hang
// (HangLoop).
type Loop struct {
	// Sig is the hang's signature: the innermost Frames shared frames,
	// the innermost named without its line.
	Sig string
	// frames are the shared user frames, innermost first; the innermost
	// is compared by function only (the dumps interrupted it at different
	// lines, or called the same function from it and diverged below).
	frames []Frame
}

// HangLoop is the loop of a hang seen in two dumps of the same input (the
// worker's and a re-run's). Stacks that share only the fuzz function make
// a loop in the fuzz function itself. With nothing shared, it is a Loop
// without frames whose Sig is Hang(a); when a holds no stack of the fuzz
// function, Hang(b)'s.
func HangLoop(a, b string) Loop {
	fa, fb := hangStack(a), hangStack(b)
	if len(fa) == 0 {
		return Loop{Sig: Hang(b)} // a has no stacks (killed before it printed them): b's
	}
	n := 0
	for n < len(fa) && n < len(fb) {
		x, y := fa[len(fa)-1-n], fb[len(fb)-1-n]
		if x.Func != y.Func {
			break
		}
		n++
		if !sameCall(x, y) {
			break // the innermost shared frame: the same function, elsewhere in it
		}
	}
	if n == 0 {
		return Loop{Sig: Hang(a)}
	}
	shared := fa[len(fa)-n:] // innermost first
	l := Loop{Sig: KindTimeout + "\n" + FrameLines(shared, nil, true)}
	l.frames = shared[sigStart(shared, func(f Frame) bool { return !IsInternalFrame(f.Func) }):] // where FrameLines starts
	return l
}

// HangOf is the signature of a hang seen in two dumps of the same input:
// HangLoop(a, b).Sig. One loop gets one signature wherever it was
// interrupted.
func HangOf(a, b string) string { return HangLoop(a, b).Sig }

// HangPoint is where one dump of a hang was interrupted: its innermost
// LoopFrames user frames (the innermost without its line). Two hangs
// interrupted at one point are in one loop; a point's signature (Hang)
// names a frame fewer, which two loops through one helper can share.
func HangPoint(dump string) string {
	if fr := hangFramesN(dump, LoopFrames); fr != "" {
		return KindTimeout + "\n" + fr
	}
	return KindTimeout
}

// Same reports whether l and m are one loop: the innermost frame of one
// is on the other's path (by function), and the LoopFrames-1 calls
// outwards from there agree, by function and call line, as far as both
// go. Two dumps of one loop may share more or fewer of its frames (where
// they were interrupted), so the two need not end at the same frame; the
// frames further out are the context the loop was reached from. Loops
// without frames are the same when their signatures are.
func (l Loop) Same(m Loop) bool {
	if len(l.frames) == 0 || len(m.frames) == 0 {
		return l.Sig == m.Sig
	}
	return onPath(l.frames, m.frames) || onPath(m.frames, l.frames)
}

// Holds reports whether the hung goroutine of dump (one dump, wherever it
// was interrupted) runs through loop l: l's innermost shared frame is on
// the dump's stack (by function) and the calls outwards from it agree
// with l's (by function and call line, as far as both go). Unlike Same, a
// dump interrupted further out than l (in a caller of l's frames, or in
// the fuzz function) is not in l. A loop deeper than l entered from l's
// innermost function holds too: l's innermost frame is known by function
// only (its two dumps were interrupted at different lines in it). A loop
// without frames holds a dump of the same signature.
func (l Loop) Holds(dump string) bool {
	if len(l.frames) == 0 {
		return l.Sig == Hang(dump)
	}
	fr := hangStack(dump)
	return len(fr) > 0 && onPath(l.frames, fr)
}

// onPath reports whether the loop whose shared frames are s lies on the
// path d (both innermost first): s's innermost function is one of d's
// frames, and the calls outwards from it agree (see Same).
func onPath(s, d []Frame) bool {
	for j := range d {
		if d[j].Func != s[0].Func {
			continue
		}
		ok := true
		for i := 1; ok && i < LoopFrames && i < len(s) && j+i < len(d); i++ {
			ok = s[i].Func == d[j+i].Func && sameCall(s[i], d[j+i])
		}
		if ok {
			return true
		}
	}
	return false
}

// sameCall reports whether frames a and b of one function are at the same
// call: the same line, or any line of a standard-library helper (which of
// its lines called on, an iterator's several yields, depends on the input:
// signatures name such frames without their line, FrameLines).
func sameCall(a, b Frame) bool {
	return a.File == b.File && (a.Line == b.Line || stdHelper(a.Func, a.File))
}

// Apart returns l with a signature that differs from those of others
// (loops that are not the same as l): when another loop's signature is
// l's, l's names its next frame outwards, the call that enters its chain
// (two loops through one helper differ there). Loops without frames, or
// with no frame beyond their signature's, keep their signature.
func (l Loop) Apart(others []Loop) Loop {
	for _, o := range others {
		if o.Sig == l.Sig && len(l.frames) > Frames {
			l.Sig = KindTimeout + "\n" + frameLines(l.frames, nil, true, LoopFrames)
			return l
		}
	}
	return l
}
