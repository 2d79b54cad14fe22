package engine

import (
	"strings"
	"testing"
)

// TestStabilityNote: a run of one worker on a target whose coverage was
// unstable says that the same seed may not give the same run; a stable
// target or a run of several workers (never exactly reproducible) gets
// no note.
func TestStabilityNote(t *testing.T) {
	for _, c := range []struct {
		stability float64
		workers   int
		want      bool
	}{
		{99.9, 1, true},
		{50, 1, true},
		{100, 1, false},
		{99.9, 2, false},
		{100, 4, false},
	} {
		note := stabilityNote(c.stability, c.workers)
		if got := note != ""; got != c.want {
			t.Errorf("stabilityNote(%v, %d) = %q, want a note: %v", c.stability, c.workers, note, c.want)
		}
		if c.want && (!strings.Contains(note, "-seed") || !strings.Contains(note, "99.9%") && c.stability == 99.9) {
			t.Errorf("stabilityNote(%v, %d) = %q: should give the figure and name -seed", c.stability, c.workers, note)
		}
	}
}
