package engine

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/param"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// magicExec compares a drawn uint32 with a magic number through the
// comparison probe, as instrumented code does: it lights one edge for
// "wrong" and another for "right", and fails when it matches.
type magicExec struct {
	src   *param.Source
	magic uint32
}

func (m *magicExec) Exec(params []byte, ext uint64) Outcome {
	m.src.Reset(params, ext)
	v := uint32(m.src.Uint(4, param.Value))
	if gfzrt.CmpOn {
		gfzrt.CmpInt(77, 32, uint64(v), uint64(m.magic))
	}
	out := Outcome{Result: Valid, Consumed: m.src.Consumed()}
	if v != m.magic {
		hit(1)
		return out
	}
	hit(2)
	out.Result = Failure
	out.Failure = &FailureInfo{Kind: "panic", Message: "magic", Signature: "panic: magic"}
	return out
}

// An input that raises a comparison site's matching bits is saved with
// -feedback cmp although its coverage is not new, and the operands make
// the magic number findable; without cmp the corpus stays at one input.
func TestCmpFeedbackSavesRaisedSite(t *testing.T) {
	for _, cmp := range []bool{false, true} {
		cfg := Config{Engine: "zest", Seed: 3, Runs: 20000, Workdir: t.TempDir(), StopOnFailure: true}
		if cmp {
			cfg.Feedback = []string{"cmp"}
		}
		var status strings.Builder
		cfg.Status = &status
		s := run(t, cfg, &magicExec{src: param.New(nil, 0), magic: 0x9e3779b9})
		if gfzrt.CmpOn {
			t.Error("CmpOn left on after the run")
		}
		if !cmp {
			if s.Corpus != 1 || s.NewFailures != 0 {
				t.Errorf("without cmp: corpus %d, failures %d; want 1 and 0", s.Corpus, s.NewFailures)
			}
			continue
		}
		if s.NewFailures != 1 || s.Corpus < 2 || s.Execs >= 20000 {
			t.Errorf("with cmp: corpus %d, failures %d after %d execs; want the magic found\n%s", s.Corpus, s.NewFailures, s.Execs, status.String())
		}
		if !strings.Contains(status.String(), "gfz: cmp: 1 comparison sites reached") {
			t.Errorf("no cmp summary:\n%s", status.String())
		}
	}
}

// The domain alone: a score above the best is "raised", committing records
// it, and equal or lower scores are not.
func TestCmpDomainCheckMerge(t *testing.T) {
	c := newCmpDomain().(*cmpDomain)
	gfzrt.CmpReset()
	defer gfzrt.CmpReset()
	gfzrt.CmpInt(5, 32, 0, 0xff)
	if !c.check(nil, true) {
		t.Fatal("first score not raised")
	}
	c.commit("a")
	if c.check(nil, true) {
		t.Fatal("same score raised again")
	}
	gfzrt.CmpReset()
	gfzrt.CmpInt(5, 32, 0xf0, 0xff) // 4 more bits
	if !c.check(nil, true) {
		t.Fatal("better score not raised")
	}
	c.commit("b")
	gfzrt.CmpReset()
	gfzrt.CmpInt(5, 32, 0x0f, 0xff) // as good, not better
	if c.check(nil, true) {
		t.Fatal("equal score raised")
	}
	// Tokens: both directions of both comparisons, 4 bytes each.
	if len(c.toks) != 4 || len(c.toks[0].to) != 4 || c.reach != 1 {
		t.Errorf("tokens %v, reach %d", c.toks, c.reach)
	}
	if fb, err := ParseFeedback("cmp,perf,mem,diff"); err != nil || len(fb) != 4 {
		t.Error(fb, err)
	}
	if _, err := ParseFeedback("cmp,bogus"); err == nil || !strings.Contains(err.Error(), `"bogus"`) {
		t.Errorf("ParseFeedback(cmp,bogus) = %v", err)
	}
}

// TestCmpOperandsFeedMutation: with -feedback cmp, the operands of a saved
// execution's comparisons feed the mutation of zest and of args
// (fuzzer.domainChild): some children of the parent hold the magic number
// the parent was compared with, which the byte mutation alone practically
// never makes. It also fails when the probes are not on during the
// execution (cmp's begin).
func TestCmpOperandsFeedMutation(t *testing.T) {
	const magic = 0x9e3779b9
	want := binary.LittleEndian.AppendUint32(nil, magic)
	for _, tc := range []struct {
		engine string
		cmp    bool
	}{{"zest", false}, {"zest", true}, {"args", false}, {"args", true}} {
		cmp := tc.cmp
		f := newTestFuzzer(t, tc.engine, &magicExec{src: param.New(nil, 0), magic: magic}, 1000)
		if cmp {
			f.cfg.Feedback = []string{"cmp"}
		}
		if err := f.setDomains(); err != nil {
			t.Fatal(err)
		}
		if gfzrt.CmpOn {
			t.Fatal("CmpOn on outside an execution")
		}
		if f.handle(f.exec([]byte{1, 2, 3, 4}), false) == nil {
			t.Fatal("the first input was not queued")
		}
		found := 0
		for range 400 {
			f.child = f.strat.next(f.child)
			if bytes.Contains(f.child, want) {
				found++
			}
		}
		if cmp && found < 10 {
			t.Errorf("%s with cmp: %d of 400 children hold the compared operand, want some (about 1 in 8)", tc.engine, found)
		}
		if !cmp && found != 0 {
			t.Errorf("%s without cmp: %d children hold the operand", tc.engine, found)
		}
	}
}

// TestBytesAbove checks the eight-at-a-time comparison against the
// bytewise one: every pair of values in every byte place, and random words.
func TestBytesAbove(t *testing.T) {
	ref := func(x, y uint64) bool {
		for k := 0; k < 64; k += 8 {
			if uint8(x>>k) > uint8(y>>k) {
				return true
			}
		}
		return false
	}
	for place := 0; place < 64; place += 8 {
		for a := range 256 {
			for b := range 256 {
				x, y := uint64(a)<<place, uint64(b)<<place
				if got := bytesAbove(x, y); got != (a > b) {
					t.Fatalf("bytesAbove(%#x, %#x) = %v", x, y, got)
				}
			}
		}
	}
	r := newPRNG(3)
	for range 100000 {
		x, y := r.next(), r.next()
		if r.below(2) == 0 { // mostly equal words, a few bytes apart
			a, b, c := r.next(), r.next(), r.next()
			y = x ^ (a & b & c)
		}
		if got, want := bytesAbove(x, y), ref(x, y); got != want {
			t.Fatalf("bytesAbove(%#x, %#x) = %v, want %v", x, y, got, want)
		}
	}
}
