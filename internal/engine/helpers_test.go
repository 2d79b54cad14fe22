package engine

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gfz-dev/gfz/param"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// hit simulates a probe on edge e.
func hit(e int) { gfzrt.Map[e%gfzrt.MapSize]++ }

// mazeExec is a fake target driven by a real param.Source (so PRNG
// extension and trimming behave as with a real generator). It reads a
// header byte and then the maze bytes one at a time; each byte equal to
// the key (compared modulo mod) lights a new edge, the first wrong byte
// ends the maze. The input is valid iff the header byte is below
// validBelow (an assumption), and the planted failure needs the whole maze
// solved by a valid input: a failure behind a valid-only path.
type mazeExec struct {
	src        *param.Source
	key        []byte
	mod        byte
	validBelow byte
}

func newMaze(key []byte, mod, validBelow byte) *mazeExec {
	return &mazeExec{src: param.New(nil, 0), key: key, mod: mod, validBelow: validBelow}
}

func (m *mazeExec) Exec(params []byte, ext uint64) Outcome {
	m.src.Reset(params, ext)
	return m.run(m.src)
}

// SetRecording and ExecGuided let the structure-aware engines run the
// maze.
func (m *mazeExec) SetRecording(on bool) { m.src.SetRecording(on) }

func (m *mazeExec) ExecGuided(g param.Guide, ext uint64) Outcome {
	return guidedOn(m.src, g, ext, m.run)
}

// guidedOn runs run(src) as a guided execution (the test executors'
// ExecGuided): the outcome carries the bytes drawn and the record, and
// src's recording setting is kept.
func guidedOn(src *param.Source, g param.Guide, ext uint64, run func(*param.Source) Outcome) Outcome {
	rec := src.Recording()
	src.ResetGuided(g, ext)
	out := run(src)
	out.Consumed = src.Consumed()
	out.Record = src.Record()
	src.SetRecording(rec)
	return out
}

// run is the maze on a source already reset.
func (m *mazeExec) run(s *param.Source) Outcome {
	h := byte(s.Uint(1, param.Value))
	valid := h < m.validBelow
	if valid {
		hit(1)
	} else {
		hit(2)
	}
	solved := true
	for i, k := range m.key {
		b := byte(s.Uint(1, param.Value))
		if b%m.mod != k%m.mod {
			hit(1000 + i)
			solved = false
			break
		}
		hit(100 + i)
	}
	out := Outcome{Consumed: s.Consumed(), Result: Invalid}
	if s.Recording() {
		out.Record = s.Record()
	}
	if valid {
		out.Result = Valid
		if solved {
			out.Result = Failure
			out.Failure = &FailureInfo{Kind: "panic: maze solved", Message: "you found it",
				Stack: "maze.go:42", Signature: "panic: maze solved\nmaze.go:42", Value: "maze{...}"}
		}
	}
	return out
}

// trivialExec is a minimal target: it reads one byte and lights one of
// four edges.
type trivialExec struct{ src *param.Source }

func (t *trivialExec) Exec(params []byte, ext uint64) Outcome {
	t.src.Reset(params, ext)
	hit(int(t.src.Uint(1, param.Value) & 3))
	return Outcome{Result: Valid, Consumed: t.src.Consumed()}
}

func run(t testing.TB, cfg Config, ex Executor) *Summary {
	t.Helper()
	s, err := Run(context.Background(), cfg, ex)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return s
}

// dirContents maps file names (temp files excluded) to contents.
func dirContents(t testing.TB, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func resetAndHit() {
	gfzrt.Reset()
	for e := 0; e < 40; e++ {
		hit(e * 977)
	}
}
