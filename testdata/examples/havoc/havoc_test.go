package havoc

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// genNode follows the paper's generator: decide on a left child, generate
// it, decide on a right child, generate it, then draw the value.
func genNode(t *gfz.T, depth int) *Node {
	n := &Node{}
	if depth > 0 && gen.Bool().Draw(t) {
		n.Left = genNode(t, depth-1)
	}
	if depth > 0 && gen.Bool().Draw(t) {
		n.Right = genNode(t, depth-1)
	}
	n.Value = gen.IntRange(0, 255).Draw(t)
	return n
}

var tree = gen.Custom(func(t *gfz.T) *Node { return genNode(t, 3) })

// seed is the parameter sequence of a root with two leaf children, the
// starting point of the paper's experiment (each Bool reads the low bit of
// one byte, each value one byte).
var seed = []byte{1, 0, 0, 3, 1, 0, 0, 2, 1}

func FuzzCheckLTR(f *testing.F) {
	f.Add(seed)
	gfz.Fuzz(f, func(t *gfz.T) {
		if CheckLTR(tree.Draw(t)) {
			t.Fatal("reached the error path of checkLTR")
		}
	})
}

func FuzzCheckRTL(f *testing.F) {
	f.Add(seed)
	gfz.Fuzz(f, func(t *gfz.T) {
		if CheckRTL(tree.Draw(t)) {
			t.Fatal("reached the error path of checkRTL")
		}
	})
}
