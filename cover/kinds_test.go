package cover

import "testing"

// TestProfileKinds: the kinds ProfileBlocks tells apart are numbered as
// KindName names them, and so as instrument.Kind does
// (cmd/internal/instrument's TestKindsMatchCover).
func TestProfileKinds(t *testing.T) {
	for k, want := range map[int]string{kindFunc: "func", kindThen: "then", kindElse: "else", kindImplicit: "implicit-else",
		kindCase: "case", kindDefault: "implicit-default", kindSelect: "select", kindLoop: "loop", kindLoopExit: "loop-exit",
		kindCond: "cond", kindLabel: "label"} {
		if got := KindName(uint8(k)); got != want {
			t.Errorf("kind %d is %q, want %q", k, got, want)
		}
	}
}
