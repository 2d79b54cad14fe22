package magic

import (
	"errors"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// packet draws a header, a command and a payload: plain bytes and a plain
// string, so the magic and the keyword can only come from the engine.
var packet = gen.Custom(func(t *gfz.T) [3]string {
	header := gen.BytesRange(4, 4).Draw(t)
	cmd := gen.StringRange(0, 12).Draw(t)
	payload := gen.BytesRange(0, 4).Draw(t)
	return [3]string{string(header), cmd, string(payload)}
})

func FuzzHandle(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		p := packet.Draw(t)
		_, err := Handle([]byte(p[0]), p[1], []byte(p[2]))
		t.Assume(!errors.Is(err, ErrShort) && !errors.Is(err, ErrMagic))
	})
}

func TestHandle(t *testing.T) {
	h := []byte{0xef, 0xbe, 0xad, 0xde}
	if magic != 0xdeadbeef {
		t.Fatalf("magic %#x", magic)
	}
	if got, err := Handle(h, "ping", nil); got != "pong" || err != nil {
		t.Errorf("ping: %q, %v", got, err)
	}
	if _, err := Handle(h[:3], "ping", nil); !errors.Is(err, ErrShort) {
		t.Errorf("short: %v", err)
	}
	if _, err := Handle([]byte{1, 2, 3, 4}, "ping", nil); !errors.Is(err, ErrMagic) {
		t.Errorf("magic: %v", err)
	}
	if got, _ := Handle(h, "echo", []byte{7}); got != "\x07" {
		t.Errorf("echo: %q", got)
	}
}
