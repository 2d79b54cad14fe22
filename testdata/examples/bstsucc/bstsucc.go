// Package bstsucc is a gfz example for the call tree of plain recursive
// functions (docs/ENGINE.md, "The call tree"): a binary search tree whose
// Delete has a planted bug that needs a valid tree of a particular shape
// with a relation between two keys, drawn by a recursive function with no
// generator of its own per node (genTree in the test, as in the bst
// example).
//
// The bug: deleting a node with two children whose in-order successor is
// deeper than its right child, holds the key just after the deleted one
// (successor key = key + 1) and has a right child that has a left child
// drops the successor's right subtree.
package bstsucc

// Node is a node of a binary search tree with integer keys.
type Node struct {
	Key         int
	Left, Right *Node
}

// Valid reports whether the tree rooted at n is a binary search tree with
// distinct keys.
func Valid(n *Node) bool { return valid(n, nil, nil) }

func valid(n *Node, lo, hi *int) bool {
	if n == nil {
		return true
	}
	if lo != nil && n.Key <= *lo {
		return false
	}
	if hi != nil && n.Key >= *hi {
		return false
	}
	return valid(n.Left, lo, &n.Key) && valid(n.Right, &n.Key, hi)
}

// Keys returns the keys of the tree in order.
func Keys(n *Node) []int {
	var out []int
	var walk func(*Node)
	walk = func(n *Node) {
		if n == nil {
			return
		}
		walk(n.Left)
		out = append(out, n.Key)
		walk(n.Right)
	}
	walk(n)
	return out
}

// Delete removes key from the tree and returns the new root.
func Delete(n *Node, key int) *Node {
	if n == nil {
		return nil
	}
	switch {
	case key < n.Key:
		n.Left = Delete(n.Left, key)
		return n
	case key > n.Key:
		n.Right = Delete(n.Right, key)
		return n
	}
	if n.Left == nil {
		return n.Right
	}
	if n.Right == nil {
		return n.Left
	}
	// Two children: replace the key with the in-order successor's.
	if n.Right.Left == nil {
		n.Key = n.Right.Key
		n.Right = n.Right.Right
		return n
	}
	parent := n.Right
	succ := parent.Left
	for succ.Left != nil {
		parent, succ = succ, succ.Left
	}
	if succ.Key == n.Key+1 && succ.Right != nil && succ.Right.Left != nil {
		parent.Left = nil // BUG: should be succ.Right
	} else {
		parent.Left = succ.Right
	}
	n.Key = succ.Key
	return n
}
