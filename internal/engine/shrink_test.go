package engine

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/workdir"
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

// TestShrinkStoppedNotFlaky: when the run stops while the original input
// runs (its probe cut short: Ctrl-C), the note says the run stopped, not
// that the input did not fail again (it was reported as flaky, and
// -regress warned that go test might pass).
func TestShrinkStoppedNotFlaky(t *testing.T) {
	stopped := false
	probe := func([]byte) (bool, []byte, *param.Record) {
		stopped = true // the interrupt arrives while the input runs
		return false, nil, nil
	}
	res := shrink(rawInput, probe, shrinkBounds{Runs: 100, Time: time.Hour, stop: func() bool { return stopped }})
	if !res.NotReproducing || !strings.HasPrefix(res.Stopped, "the run stopped while the input was run again") {
		t.Fatalf("result %+v: want not shrunk, stopped", res)
	}
	note := workdir.ShrinkNote{NotReproducing: res.NotReproducing, Stopped: res.Stopped}
	if strings.Contains(note.Summary(), workdir.NotReproducingText) {
		t.Errorf("shrink line %q calls the input flaky", note.Summary())
	}
	// Not stopped: a probe that does not fail is the flaky case.
	res = shrink(rawInput, func([]byte) (bool, []byte, *param.Record) { return false, nil, nil },
		shrinkBounds{Runs: 100, Time: time.Hour, stop: func() bool { return false }})
	if !res.NotReproducing || res.Stopped != "" {
		t.Errorf("result %+v: want not reproducing, not stopped", res)
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

// slowFail fails (signature "slow") when its input has at least 40 bytes
// and one of them is 200 or more; every execution takes 2ms.
type slowFail struct{}

func (slowFail) Exec(params []byte, _ uint64) Outcome {
	time.Sleep(2 * time.Millisecond)
	out := Outcome{Result: Valid, Consumed: params}
	for _, c := range params {
		if c >= 200 && len(params) >= 40 {
			out.Result, out.Failure = Failure, &FailureInfo{Kind: "t.Fatal", Signature: "slow"}
		}
	}
	return out
}

// TestShrinkNotAHang: a shrink of hundreds of quick candidates, longer in
// all than the per-input timeout, is not taken for a hung execution: each
// candidate is published as an execution of its own.
func TestShrinkNotAHang(t *testing.T) {
	old := exitProcess
	var exited atomic.Bool
	exitProcess = func(int) { exited.Store(true) }
	defer func() { exitProcess = old }()
	seed := bytes.Repeat([]byte{17, 250, 3, 99}, 16)
	var status bytes.Buffer
	sum := run(t, Config{Engine: "zest", Seed: 1, Runs: 1, Seeds: [][]byte{seed}, Workdir: t.TempDir(), Timeout: 200 * time.Millisecond, Status: &status}, slowFail{})
	if exited.Load() || strings.Contains(status.String(), "TIMEOUT") {
		t.Fatalf("the shrink was taken for a hang:\n%s", status.String())
	}
	if sum.NewFailures != 1 || !strings.Contains(status.String(), "shrunk: 64 -> 40 bytes") {
		t.Errorf("summary %+v, status:\n%s", sum, status.String())
	}
}

// valueFail fails (signature "value") when its input holds a byte of 200
// or more; its failures carry their values (an executor that cannot
// describe values as drawn, ValueDescriber).
type valueFail struct{}

func (valueFail) Exec(params []byte, _ uint64) Outcome {
	out := Outcome{Result: Valid, Consumed: params}
	for _, c := range params {
		if c >= 200 {
			out.Result = Failure
			out.Failure = &FailureInfo{Kind: "t.Fatal", Signature: "value", Value: fmt.Sprintf("params = %v", params)}
		}
	}
	return out
}

// TestShrinkReportsShrunkValue: the report of a shrunk failure shows the
// values of the shrunk input (its .input), also from an executor without
// ValueDescriber (a native target's was one), and the original's under
// their own heading; it showed the original's as the value.
func TestShrinkReportsShrunkValue(t *testing.T) {
	wd := t.TempDir()
	sum := run(t, Config{Engine: "zest", Seed: 1, Runs: 1, Seeds: [][]byte{{7, 7, 250, 7}}, Workdir: wd, Timeout: NoTimeout}, valueFail{})
	if sum.NewFailures != 1 {
		t.Fatalf("summary %+v", sum)
	}
	txt, err := os.ReadFile(strings.TrimSuffix(sum.FailureFiles[0], ".input") + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	rep := string(txt)
	if !strings.Contains(rep, "\nvalue:\n\tparams = [200]\n") || !strings.Contains(rep, "\noriginal value (before shrinking):\n\tparams = [7 7 250 7]\n") {
		t.Errorf("report:\n%s", rep)
	}
}
