package workdir

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// ShrinkNote is what a failure report says about the shrink of its input.
type ShrinkNote struct {
	OrigLen, Len         int
	OrigChoices, Choices int // -1: unknown (no record)
	Execs                int64
	Took                 time.Duration
	Stopped              string // why it ended before its fixpoint
	NotReproducing       bool
	Changed              bool   // the shrunk input differs from the original (shorter, or the same length with simpler values)
	Original             string // path of the file keeping the original input ("" if not shrunk)
	OrigValue            string // the original input's values
	Where                string // "in -repro processes" for a death
}

// NotReproducingText is what a report's shrink line says of an input that
// did not fail the same way when the shrink ran it again.
const NotReproducingText = "the input did not fail the same way when run again (flaky?)"

// Summary is the one-line description of a shrink ("23 -> 5 bytes, ...").
func (n *ShrinkNote) Summary() string {
	if n.NotReproducing {
		if n.Stopped != "" {
			return "not shrunk: " + n.Stopped
		}
		return "not shrunk: " + NotReproducingText
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d -> %d bytes", n.OrigLen, n.Len)
	switch {
	case !n.Changed:
		b.WriteString(" (unchanged)")
	case n.Len == n.OrigLen:
		// Values lowered or simplified in place: a native target's
		// integers (17 -> 1), a string's bytes made printable.
		b.WriteString(" (same size, values made simpler)")
	}
	if n.OrigChoices >= 0 && n.Choices >= 0 {
		fmt.Fprintf(&b, ", %d -> %d choices", n.OrigChoices, n.Choices)
	}
	fmt.Fprintf(&b, ", %d executions%s in %v; ", n.Execs, n.Where, n.Took.Round(time.Millisecond))
	if n.Stopped != "" {
		b.WriteString("stopped early: " + n.Stopped)
	} else {
		// Simpler: shorter, or as long with smaller values (see
		// ENGINE.md, "Shrinking").
		b.WriteString("no simpler input fails the same way under the shrink passes")
	}
	return b.String()
}

// Lines is what the "new failure" message adds about the shrink ("" for
// none).
func (n *ShrinkNote) Lines() string {
	if n == nil {
		return ""
	}
	s := "\n\tshrunk: " + n.Summary()
	if n.Original != "" {
		s += "\n\toriginal: " + n.Original
	}
	return s
}

// Write adds the shrink lines to a report.
func (n *ShrinkNote) Write(b *bytes.Buffer) {
	if n == nil {
		return
	}
	fmt.Fprintf(b, "shrunk: %s\n", n.Summary())
	if n.Original != "" {
		fmt.Fprintf(b, "original input: %s\n", n.Original)
	}
}

// OriginalPath is where a shrunk failure keeps its original input: next
// to it, under a name that does not end in .input (so it is not taken for
// a failure of its own).
func OriginalPath(inputPath string) string {
	return strings.TrimSuffix(inputPath, ".input") + ".original"
}

// RewriteShrunk keeps rep's original input in OriginalPath, then replaces
// the saved input by the shrunk one and rewrites the report, each write
// atomic: at every moment the failure's files are a complete report and a
// failing input, and the original is never lost.
func (w *Dir) RewriteShrunk(rep *Report, path string, orig []byte) error {
	if rep.Shrink.Original != "" {
		if err := WriteFileAtomic(rep.Shrink.Original, w.Encode(orig)); err != nil {
			return fmt.Errorf("engine: keep the original of a shrunk failure: %w", err)
		}
		if err := WriteFileAtomic(path, w.Encode(rep.Input)); err != nil {
			return fmt.Errorf("engine: save shrunk failure: %w", err)
		}
	}
	if err := WriteFileAtomic(strings.TrimSuffix(path, ".input")+".txt", rep.Format()); err != nil {
		return fmt.Errorf("engine: save shrunk failure report: %w", err)
	}
	return nil
}

// RewriteReport rewrites the report of the failure saved at path (its
// .input) from rep, atomically: the values a re-run described after the
// save.
func (w *Dir) RewriteReport(rep *Report, path string) error {
	if err := WriteFileAtomic(strings.TrimSuffix(path, ".input")+".txt", rep.Format()); err != nil {
		return fmt.Errorf("engine: rewrite failure report: %w", err)
	}
	return nil
}
