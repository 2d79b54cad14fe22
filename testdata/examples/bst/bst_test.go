package bst

import (
	"slices"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// genTree draws a binary tree, left subtree first, with at most depth levels.
// Most drawn trees are not valid search trees; the target rejects those with
// t.Assume.
func genTree(t *gfz.T, depth int) *Node {
	if depth == 0 || !gen.Bool().Draw(t) {
		return nil
	}
	n := &Node{Key: gen.IntRange(0, 63).Draw(t)}
	n.Left = genTree(t, depth-1)
	n.Right = genTree(t, depth-1)
	return n
}

var tree = gen.Custom(func(t *gfz.T) *Node { return genTree(t, 5) })

func FuzzDelete(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		root := tree.Draw(t)
		t.Assume(root != nil && Valid(root))
		keys := Keys(root)
		key := keys[gen.IntRange(0, len(keys)-1).Draw(t)]
		root = Delete(root, key)
		if !Valid(root) {
			t.Fatalf("tree is no longer a search tree after deleting %d", key)
		}
		want := slices.DeleteFunc(slices.Clone(keys), func(k int) bool { return k == key })
		if got := Keys(root); !slices.Equal(got, want) {
			t.Fatalf("after deleting %d from %v: got keys %v, want %v", key, keys, got, want)
		}
	})
}

func TestDeleteSimple(t *testing.T) {
	var root *Node
	for _, k := range []int{5, 3, 8, 1, 4} {
		root = Insert(root, k)
	}
	root = Delete(root, 3)
	if got := Keys(root); !slices.Equal(got, []int{1, 4, 5, 8}) {
		t.Fatalf("got %v", got)
	}
}
