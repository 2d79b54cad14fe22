// Package waypoint is a gfz example of T.Maximize: a target that tells the
// engine how far an input got.
//
// Lock is a combination lock of Digits digits: Try returns how many digits
// of a guess are right, comparing in constant time (no branch depends on
// the digits, as in cryptographic code). Coverage therefore sees the same
// path for a guess with one right digit and one with seven; the fuzz target
// reports the count with t.Maximize, so every guess that gets one more
// digit right is kept and mutated.
package waypoint

import "crypto/subtle"

// Digits is the length of the combination.
const Digits = 8

// Lock is a combination lock.
type Lock struct{ combination [Digits]byte }

// New returns a lock with the given combination (digits 0-9).
func New(c [Digits]byte) *Lock { return &Lock{c} }

// Try returns the number of digits of guess (of length Digits) that match
// the combination, in constant time.
func (l *Lock) Try(guess []byte) int {
	n := 0
	for i := range Digits {
		n += subtle.ConstantTimeByteEq(guess[i], l.combination[i])
	}
	return n
}
