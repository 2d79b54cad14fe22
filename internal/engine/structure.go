package engine

import "github.com/gfz-dev/gfz/param"

// Structure or value: which choices decide the shape of an input.
//
// BeDivFuzz separates structural choices (a generator branches on them:
// lengths, which alternative, whether a node has a child) from value
// choices (leaf data), and needed them labelled by hand. gfz labels them
// itself, by this rule:
//
//  1. A draw a generator declares structural (param.Structure: lengths,
//     alternatives, optional presence) is structural.
//  2. A draw of a site (param.Draw.Site: the same place of the generators'
//     code) is structural once gfz has seen a change of that one choice
//     alone change the shape of the call tree: a guided child that differs
//     from its parent in exactly that choice, both executions VALID, whose
//     shape (shapeOf: the execution indexes of every call and draw) differs
//     from its parent's. So the Bool that decides whether a tree node has a
//     left child becomes structural the first time flipping it adds or
//     removes the subtree; the node's value stays a value.
//  3. A draw inside a generator marked with AsStructure or AsValue
//     (param.Source.Mark) has the marked kind, whatever 1 and 2 say.
//
// Everything else is a value. Learning only adds structural sites; they
// are learned by every engine that makes single-choice guided children
// (ei, bediv) and shared by the engines of one process.

// siteKinds holds the sites learned structural (rule 2).
type siteKinds struct {
	structural map[uint64]bool
}

func newSiteKinds() *siteKinds { return &siteKinds{structural: map[uint64]bool{}} }

// kind returns the kind of draw d by the rules above.
func (k *siteKinds) kind(d *param.Draw) param.Kind {
	if d.Forced || d.Kind == param.Structure {
		return d.Kind
	}
	if k != nil && k.structural[d.Site] {
		return param.Structure
	}
	return param.Value
}

// learn applies rule 2 to a guided child of parent that changed only the
// choice d, whose execution has record rec and result res. It reports
// whether the site was newly learned structural.
func (k *siteKinds) learn(parent *entry, d *param.Draw, rec *param.Record, res Result) bool {
	if k == nil || rec == nil || res != Valid || !parent.valid || d.Forced || d.Kind == param.Structure || k.structural[d.Site] {
		return false
	}
	if shapeOf(rec) == parent.shape {
		return false
	}
	k.structural[d.Site] = true
	return true
}
