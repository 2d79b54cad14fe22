package engine

import "github.com/gfz-dev/gfz/internal/workdir"

// CodecExecutor is implemented by executors whose inputs are written with
// their own workdir.Codec; Run uses it for the corpus and the failures it saves
// and reads.
type CodecExecutor interface {
	Codec() workdir.Codec
}

// codecOf returns ex's codec, workdir.BytesCodec when it has none.
func codecOf(ex Executor) workdir.Codec {
	if ce, ok := ex.(CodecExecutor); ok {
		if c := ce.Codec(); c != nil {
			return c
		}
	}
	return workdir.BytesCodec{}
}

// InputExtender is implemented by codecs of targets whose decoding depends
// on the input's length (a native target's last []byte or string argument
// takes the bytes left), so that extending an input with PRNG bytes to the
// size cap, as the engine does to save a crash or hang input of a gfz
// target, would change it. ExtendInput returns instead the sequence an
// execution of params with extension seed ext reads, which replays
// identically with any extension seed.
type InputExtender interface {
	ExtendInput(params []byte, ext uint64, max int) []byte
}

// extendFor is extendedInput, or the codec's ExtendInput.
func extendFor(c workdir.Codec, params []byte, ext uint64, max int) []byte {
	if e, ok := c.(InputExtender); ok {
		return e.ExtendInput(params, ext, max)
	}
	return extendedInput(params, ext, max)
}
