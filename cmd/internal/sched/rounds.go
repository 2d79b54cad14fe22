package sched

import "time"

// Round lengths. A round is how long an allocation lasts before the next
// is decided; a target that keeps its cores keeps running across rounds,
// so the length bounds how soon a discovery or a dry spell changes the
// allocation, not how often processes restart.
const (
	// MinFirstRound and MaxFirstRound bound the rounds of the first pass.
	MinFirstRound = time.Second
	MaxFirstRound = 2 * time.Second
	// MinRound and MaxRound bound the later rounds.
	MinRound = 2 * time.Second
	MaxRound = 10 * time.Second
)

// FirstRound is the length of a first-pass round for n targets on the
// given cores within budget (0: no budget): a tenth of a fair share of
// the budget, budget x cores / (10 n), within [MinFirstRound,
// MaxFirstRound] (MaxFirstRound without a budget). With so many targets
// that even MinFirstRound each does not fit, the last ones get no round.
func FirstRound(budget time.Duration, n, cores int) time.Duration {
	if budget <= 0 {
		return MaxFirstRound
	}
	d := budget * time.Duration(max(cores, 1)) / time.Duration(10*max(n, 1))
	return min(max(d, MinFirstRound), MaxFirstRound).Truncate(time.Millisecond)
}

// Round is the length of a later round within budget (0: no budget): a
// fiftieth of the budget within [MinRound, MaxRound] (MaxRound without a
// budget).
func Round(budget time.Duration) time.Duration {
	if budget <= 0 {
		return MaxRound
	}
	return min(max(budget/50, MinRound), MaxRound).Truncate(time.Millisecond)
}
