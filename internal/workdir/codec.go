package workdir

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

// BytesCodec is the default Codec: one []byte value (EncodeInput,
// DecodeInput).
type BytesCodec struct{}

func (BytesCodec) EncodeFile(params []byte) []byte        { return EncodeInput(params) }
func (BytesCodec) DecodeFile(file []byte) ([]byte, error) { return DecodeInput(file) }

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

// Encode is the file content of an input of this work directory.
func (w *Dir) Encode(data []byte) []byte {
	if w.Codec == nil {
		return EncodeInput(data)
	}
	return w.Codec.EncodeFile(data)
}

// ReadInput reads one input file of this work directory.
func (w *Dir) ReadInput(path string) ([]byte, error) { return ReadFileWith(w.Codec, path) }
