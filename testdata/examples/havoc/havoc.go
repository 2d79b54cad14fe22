// Package havoc is a gfz example reproducing the checkLTR/checkRTL pair of
// the "Havoc Paradox" paper: two semantically identical checks on a binary
// tree that differ only in the order they inspect the children. Trees are
// generated left child first, so with linear parameter sequences a single
// byte mutation easily removes the right subtree of a seed (reaching the
// error path of CheckLTR) but removing the left subtree re-interprets every
// later byte (the havoc effect), which makes CheckRTL's error path harder.
package havoc

// Node is a binary tree node.
type Node struct {
	Left, Right *Node
	Value       int
}

// CheckLTR reports whether the tree's root is a leaf, testing the left
// child first. The error path is the "true" result.
func CheckLTR(n *Node) bool {
	if n.Left == nil && n.Right == nil {
		return true // error path
	}
	return false
}

// CheckRTL is CheckLTR testing the right child first.
func CheckRTL(n *Node) bool {
	if n.Right == nil && n.Left == nil {
		return true // error path
	}
	return false
}
