package proc

import (
	"strings"
	"sync"
	"testing"
)

func TestTailWriter(t *testing.T) {
	var out strings.Builder
	var mu sync.Mutex
	w := &Tail{Fwd: &out, Mu: &mu, Max: 64 << 10}
	w.Write([]byte("noise\ngfz: new failure\n\tinput: x\nmore noise\ngfz: par"))
	w.Write([]byte("tial\n\n==================\nWARNING: DATA RACE\n  x.go:1\n==================\nnoise\n"))
	if out.String() != "gfz: new failure\n\tinput: x\ngfz: partial\n==================\nWARNING: DATA RACE\n  x.go:1\n==================\n" {
		t.Errorf("forwarded %q", out.String())
	}
	if !strings.HasPrefix(w.String(), "noise\n") {
		t.Errorf("tail %q", w.String())
	}
}

// TestTailKeepsEnd: the tail is the last Max bytes, whatever the sizes of
// the writes; with All everything is forwarded, without a shared lock.
func TestTailKeepsEnd(t *testing.T) {
	var out strings.Builder
	w := &Tail{Fwd: &out, All: true, Max: 8}
	for _, s := range []string{"0123", "456789", "abcdefghijkl", "m"} {
		w.Write([]byte(s))
	}
	if got := w.String(); got != "fghijklm" {
		t.Errorf("tail %q, want the last 8 bytes", got)
	}
	if out.String() != "0123456789abcdefghijklm" {
		t.Errorf("forwarded %q", out.String())
	}
}

// TestUnforwarded: the lines a Tail does not forward are those
// Unforwarded returns, and only those.
func TestUnforwarded(t *testing.T) {
	out := "noise\ngfz: new failure\n\tinput: x\nmore noise\n==================\nWARNING: DATA RACE\n==================\nlast"
	got := strings.Join(Unforwarded(out), "|")
	if got != "noise|more noise|last" {
		t.Errorf("Unforwarded = %q", got)
	}
}
