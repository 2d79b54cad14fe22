package signature

// A hung goroutine is interrupted wherever it happens to be: a loop that
// spans several functions shows a different innermost frame in each dump.
// Two dumps of one hang (the worker's and a re-run's) share the frames
// from the fuzz function down to the loop; those frames are the loop's
// place, and two loops whose innermost frames agree (both call one helper)
// still differ in them.

// A Loop is where a hung goroutine loops, from two dumps of the same hang
// (HangLoop): the frames the two share from the fuzz function inwards.
type Loop struct {
	// Sig is the hang's signature: the innermost Frames shared frames,
	// the innermost named without its line.
	Sig string
	// frames are the shared frames, outermost first. The innermost is
	// compared by function only (the dumps interrupted it at different
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
		if x.Line != y.Line {
			break // the innermost shared frame: the same function, elsewhere in it
		}
	}
	if n == 0 {
		return Loop{Sig: Hang(a)}
	}
	shared := fa[len(fa)-n:] // innermost first
	l := Loop{Sig: KindTimeout + "\n" + FrameLines(shared, nil, true)}
	for i := len(shared) - 1; i >= 0; i-- {
		l.frames = append(l.frames, shared[i])
	}
	return l
}

// HangOf is the signature of a hang seen in two dumps of the same input:
// HangLoop(a, b).Sig. One loop gets one signature wherever it was
// interrupted.
func HangOf(a, b string) string { return HangLoop(a, b).Sig }

// Admits reports whether dump may show a goroutine hung in the loop l:
// its stack, from the fuzz function inwards, follows l's frames as far as
// both go (each call on the way from the same function and line; the
// innermost frame of either by function only). A dump whose path leaves
// l's above l's innermost frame (the same function called from another
// line, or another function) is another loop's. A Loop without frames
// admits every dump, and so does a dump without the fuzz function's stack.
func (l Loop) Admits(dump string) bool {
	fr := hangStack(dump)
	for i, j := 0, len(fr)-1; i < j; i, j = i+1, j-1 {
		fr[i], fr[j] = fr[j], fr[i]
	}
	return agree(l.frames, fr)
}

// Same reports whether l and m may be one loop: both have frames and they
// follow the same path as far as both go (as Admits). Loops without frames
// are the same when their signatures are.
func (l Loop) Same(m Loop) bool {
	if len(l.frames) == 0 || len(m.frames) == 0 {
		return l.Sig == m.Sig
	}
	return agree(l.frames, m.frames)
}

// agree reports whether two paths, outermost first, agree as far as both
// go: the same functions, called from the same lines except at the
// innermost frame of either.
func agree(a, b []Frame) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].Func != b[i].Func {
			return false
		}
		if i < len(a)-1 && i < len(b)-1 && a[i].Line != b[i].Line {
			return false
		}
	}
	return true
}

// Apart returns l with a signature that differs from those of others
// (loops that are not the same as l): when another loop's signature is
// l's, l's names more of its frames, outwards, until it differs (two
// loops through one helper differ where their paths part). Loops without
// frames keep their signature.
func (l Loop) Apart(others []Loop) Loop {
	if len(l.frames) == 0 {
		return l
	}
	inner := make([]Frame, len(l.frames))
	for i, f := range l.frames {
		inner[len(inner)-1-i] = f
	}
	for max := Frames; ; max++ {
		sig := KindTimeout + "\n" + frameLines(inner, nil, true, max)
		taken := false
		for _, o := range others {
			taken = taken || o.Sig == sig
		}
		if !taken || max >= len(inner) {
			l.Sig = sig
			return l
		}
	}
}
