package engine

import (
	"fmt"
	"os"
)

// Codec converts parameter sequences to and from the files of the corpus
// and failures directories. Without one (and for gfz targets) the engine
// writes a single []byte value in Go's native corpus format (EncodeInput,
// DecodeInput). A native target (a fuzz function of several typed
// arguments, see package internal/native) has its own: its files hold its
// arguments in their own types, so that go test replays them.
type Codec interface {
	// EncodeFile returns the file content for a parameter sequence.
	EncodeFile(params []byte) []byte
	// DecodeFile returns the parameter sequence of a file's content, or
	// an error naming what is wrong with it.
	DecodeFile(file []byte) ([]byte, error)
}

// CodecExecutor is implemented by executors whose inputs are written with
// their own Codec; Run uses it for the corpus and the failures it saves
// and reads.
type CodecExecutor interface {
	Codec() Codec
}

// BytesCodec is the default Codec: one []byte value (EncodeInput,
// DecodeInput).
type BytesCodec struct{}

func (BytesCodec) EncodeFile(params []byte) []byte        { return EncodeInput(params) }
func (BytesCodec) DecodeFile(file []byte) ([]byte, error) { return DecodeInput(file) }

// codecOf returns ex's codec, BytesCodec when it has none.
func codecOf(ex Executor) Codec {
	if ce, ok := ex.(CodecExecutor); ok {
		if c := ce.Codec(); c != nil {
			return c
		}
	}
	return BytesCodec{}
}

// ReadFileWith reads and decodes one input file with codec c (nil:
// BytesCodec). Errors name the file.
func ReadFileWith(c Codec, path string) ([]byte, error) {
	if c == nil {
		c = BytesCodec{}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read input: %w", err)
	}
	v, err := c.DecodeFile(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// encode is the file content of an input of this work directory.
func (w *workdir) encode(data []byte) []byte {
	if w.codec == nil {
		return EncodeInput(data)
	}
	return w.codec.EncodeFile(data)
}

// readInput reads one input file of this work directory.
func (w *workdir) readInput(path string) ([]byte, error) { return ReadFileWith(w.codec, path) }

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
func extendFor(c Codec, params []byte, ext uint64, max int) []byte {
	if e, ok := c.(InputExtender); ok {
		return e.ExtendInput(params, ext, max)
	}
	return extendedInput(params, ext, max)
}
