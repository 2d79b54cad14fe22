package bstsucc

import (
	"slices"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// genTree draws a binary tree, left subtree first, with at most depth
// levels: a plain recursive function, one Custom around it (tree). With
// a recording engine (ei, bediv, zeugma) each call of genTree is a span
// of the call tree, the left and right calls told apart by their call
// sites.
func genTree(t *gfz.T, depth int) *Node {
	if depth == 0 || !gen.Bool().Draw(t) {
		return nil
	}
	n := &Node{Key: gen.IntRange(0, 255).Draw(t)}
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

// FuzzDeletePlain is FuzzDelete with genTree called by the fuzz function
// itself, no Custom around it: before the call tree came from the stack,
// its only spans were the one-draw generator calls.
func FuzzDeletePlain(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		root := genTree(t, 5)
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

// TestDeleteBug pins the planted bug: 10 has two children, its successor
// 11 is the left child of 20 and has a right child 13 with a left child
// 12.
func TestDeleteBug(t *testing.T) {
	root := &Node{Key: 10,
		Left:  &Node{Key: 5},
		Right: &Node{Key: 20, Left: &Node{Key: 11, Right: &Node{Key: 13, Left: &Node{Key: 12}}}},
	}
	if got := Keys(Delete(root, 10)); slices.Equal(got, []int{5, 11, 12, 13, 20}) {
		t.Fatalf("the planted bug is gone: got %v", got)
	}
	ok := &Node{Key: 10,
		Left:  &Node{Key: 5},
		Right: &Node{Key: 20, Left: &Node{Key: 14, Right: &Node{Key: 16, Left: &Node{Key: 15}}}},
	}
	if got := Keys(Delete(ok, 10)); !slices.Equal(got, []int{5, 14, 15, 16, 20}) {
		t.Fatalf("got %v, want [5 14 15 16 20]", got)
	}
}
