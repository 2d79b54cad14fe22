package engine

import (
	"testing"
)

// TestReplayOnly: with ReplayOnly (libFuzzer's -runs=0) a run executes
// the seeds and the work directory's corpus and stops without fuzzing;
// without it the same run goes on to mutate until its budget.
func TestReplayOnly(t *testing.T) {
	seeds := [][]byte{{1}, {2, 2}, {3, 3, 3}}
	base := Config{Engine: "zest", Seed: 1, Seeds: seeds, Runs: 500, NoRecheck: true}

	cfg := base
	cfg.Workdir = t.TempDir()
	cfg.ReplayOnly = true
	s := run(t, cfg, newMaze([]byte("abc"), 7, 200))
	// (init runs one more input when no seed ran VALID or INVALID.)
	if s.Execs < int64(len(seeds)) || s.Execs > int64(len(seeds))+1 {
		t.Errorf("replay only: %d executions, want the %d seeds (and init's one fallback input)", s.Execs, len(seeds))
	}

	// A second replay-only run of that work directory replays its corpus
	// (the saved seeds) and still does not fuzz.
	cfg.Seeds = nil
	if s2 := run(t, cfg, newMaze([]byte("abc"), 7, 200)); s2.Execs < int64(s.Corpus) || s2.Execs > int64(s.Corpus)+1 {
		t.Errorf("replay of the corpus: %d executions, want the corpus's %d", s2.Execs, s.Corpus)
	}

	cfg = base
	cfg.Workdir = t.TempDir()
	if s := run(t, cfg, newMaze([]byte("abc"), 7, 200)); s.Execs != 500 {
		t.Errorf("without ReplayOnly: %d executions, want the budget of 500", s.Execs)
	}
}
