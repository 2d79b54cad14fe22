package engine

// ArgShrinker is implemented by the codec of a native target's work
// directory (native.Codec, through workdir.Dir.Codec): its inputs are the
// fuzz function's typed arguments, which the shrinker then shrinks as
// values, argument by argument, instead of with its passes over the
// generator record (a native target's record has one flat span per
// argument, and its little-endian fixed-size values do not shrink by the
// shortlex order of their bytes). One strict order decides what is
// simpler, so the shrink reaches a fixpoint.
type ArgShrinker interface {
	// SimplerArgs reports whether the parameter sequence a decodes to
	// simpler arguments than b.
	SimplerArgs(a, b []byte) bool
	// ShrinkArgs runs one round of the argument passes on the input
	// current returns, calling try with each candidate (it runs it and
	// reports whether it was kept: current then returns it) until stop
	// reports the bounds spent.
	ShrinkArgs(current func() []byte, try func(cand []byte) bool, stop func() bool)
}

// argShrinkerOf returns the codec's ArgShrinker, or nil.
func argShrinkerOf(c any) ArgShrinker {
	a, _ := c.(ArgShrinker)
	return a
}
