package engine

import (
	"bytes"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/param"
)

// rawProbe is a probe without a record: the failure is "the sequence
// holds a byte >= 200 somewhere after a byte equal to 9", unless it holds
// a 1 (then it fails another way: not the same failure). The signature
// comparison itself is tested end to end (TestShrinkKeepsSignature).
func rawProbe(calls *int) shrinkProbe {
	return func(cand []byte) (bool, []byte, *param.Record) {
		*calls++
		if bytes.IndexByte(cand, 1) >= 0 {
			return false, cand, nil // fails with another signature
		}
		i := bytes.IndexByte(cand, 9)
		if i < 0 {
			return false, cand, nil
		}
		for _, c := range cand[i+1:] {
			if c >= 200 {
				return true, cand, nil
			}
		}
		return false, cand, nil
	}
}

var rawInput = []byte{3, 4, 9, 17, 250, 8, 77, 2, 9, 5}

func TestShrinkRaw(t *testing.T) {
	var calls int
	res := shrink(rawInput, rawProbe(&calls), shrinkBounds{Runs: 10_000, Time: time.Hour})
	if want := []byte{9, 200}; !bytes.Equal(res.Input, want) {
		t.Errorf("shrunk %v to %v, want %v", rawInput, res.Input, want)
	}
	if res.Stopped != "" || res.Execs != int64(calls) || res.OrigLen != 10 || res.Len != 2 || res.Choices != -1 {
		t.Errorf("result %+v after %d calls", res, calls)
	}
}

// TestShrinkBound: the execution bound is exact (the first run, of the
// original, counts), and the same bound gives the same result.
func TestShrinkBound(t *testing.T) {
	for _, n := range []int64{1, 2, 5, 17} {
		var calls int
		res := shrink(rawInput, rawProbe(&calls), shrinkBounds{Runs: n, Time: time.Hour})
		if int64(calls) != n || res.Execs != n || res.Stopped != "execution bound reached" {
			t.Errorf("bound %d: %d calls, result %+v", n, calls, res)
		}
		again := shrink(rawInput, rawProbe(&calls), shrinkBounds{Runs: n, Time: time.Hour})
		if !bytes.Equal(res.Input, again.Input) {
			t.Errorf("bound %d: %v then %v", n, res.Input, again.Input)
		}
	}
}

// TestShrinkNotReproducing: an input that does not fail again is left
// alone and said so.
func TestShrinkNotReproducing(t *testing.T) {
	var calls int
	res := shrink([]byte{5, 5}, rawProbe(&calls), shrinkBounds{Runs: 100, Time: time.Hour})
	if !res.NotReproducing || res.Shrunk() || calls != 1 || !bytes.Equal(res.Input, []byte{5, 5}) {
		t.Errorf("result %+v after %d calls", res, calls)
	}
}

func TestShrinkBoundsOf(t *testing.T) {
	for _, c := range []struct {
		runs int64
		d    time.Duration
		want shrinkBounds
	}{
		{0, 0, shrinkBounds{Runs: DefaultShrinkRuns, Time: DefaultShrinkTime}},
		{5, time.Second, shrinkBounds{Runs: 5, Time: time.Second}},
		{NoShrink, 0, shrinkBounds{}},
		{0, NoShrink, shrinkBounds{}},
	} {
		if got := shrinkBoundsOf(c.runs, c.d, DefaultShrinkRuns); got.Runs != c.want.Runs || got.Time != c.want.Time {
			t.Errorf("shrinkBoundsOf(%d, %v) = %+v, want %+v", c.runs, c.d, got, c.want)
		}
	}
}
