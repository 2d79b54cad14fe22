package engine

import "bytes"

// killers are the inputs a worker avoids (Config.AvoidInputs): each
// killed a worker of the campaign with a failure already saved, and a
// fuzzer that makes one again (a comparison token, a dictionary value, a
// splice) would pay a worker's restart and its corpus replay for nothing
// new. They are looked up by length first, so that a child of another
// length costs one map read.
type killers struct {
	byLen  map[int][][]byte
	streak int   // children avoided in a row
	n      int64 // children avoided
}

// killerStreakLimit bounds the children avoided in a row: a strategy that
// can make nothing else (a tiny input space) runs the next one, whose
// death restarts the worker with another seed, rather than spin.
const killerStreakLimit = 1000

func newKillers(inputs [][]byte) *killers {
	if len(inputs) == 0 {
		return nil
	}
	k := &killers{byLen: map[int][][]byte{}}
	for _, in := range inputs {
		k.byLen[len(in)] = append(k.byLen[len(in)], in)
	}
	return k
}

// avoid reports whether child is one of the killers, to be skipped.
func (k *killers) avoid(child []byte) bool {
	if k == nil {
		return false
	}
	for _, in := range k.byLen[len(child)] {
		if bytes.Equal(in, child) {
			if k.streak >= killerStreakLimit {
				k.streak = 0
				return false
			}
			k.streak++
			k.n++
			return true
		}
	}
	k.streak = 0
	return false
}
