package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// Results files (-results): one JSON object per line, one line per
// finished run, of either mode: a bug-mode run (a BugRun, which has a Bug)
// or a target-mode run (a Result, which has a Target). A file may hold
// both; each report reads the runs of its own mode.

// runStore is a results file being written. Each run is added by
// rewriting the file through a temporary file and a rename, so the file
// always holds whole lines, whatever interrupts the evaluation.
type runStore struct {
	path string
}

// load returns the keys (bugKey, targetKey) of the runs already in the
// file that did not fail (none if the file does not exist): the runs not
// to do again.
func (s *runStore) load() (map[string]bool, error) {
	bugs, targets, err := ReadResults(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	done := map[string]bool{}
	for _, r := range bugs {
		if r.Err == "" {
			done[bugKey(r)] = true
		}
	}
	for _, r := range targets {
		if r.Err == "" {
			done[targetKey(r)] = true
		}
	}
	return done, nil
}

// add appends run (a BugRun or a Result) as a line.
func (s *runStore) add(run any) error {
	line, err := json.Marshal(run)
	if err != nil {
		return fmt.Errorf("bench: save run: %w", err)
	}
	old, err := os.ReadFile(s.path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("bench: save run: %w", err)
	}
	if len(old) > 0 && old[len(old)-1] != '\n' {
		old = append(old, '\n')
	}
	if err := workdir.WriteFileAtomic(s.path, append(append(old, line...), '\n')); err != nil {
		return fmt.Errorf("bench: save run in %s: %w", s.path, err)
	}
	return nil
}

// runKey identifies a run of contender on bug or target name: a later line
// of a results file with the key of an earlier one replaces it.
func runKey(name, contender string, rep int, budget float64) string {
	return fmt.Sprintf("%s\x00%s\x00%d\x00%g", name, contender, rep, budget)
}

// bugKey is a bug-mode run's key: bug, contender, repetition and time
// budget.
func bugKey(r BugRun) string { return runKey(r.Bug, r.Contender, r.Rep, r.BudgetS) }

// targetKey is a target-mode run's key: target, contender, repetition,
// time budget, execution budget and whether it kept going after a
// failure (its figures cover another span).
func targetKey(r Result) string {
	return runKey(r.Target, r.Contender, r.Rep, r.TimeS) + fmt.Sprintf("\x00%d\x00%t", r.Runs, r.KeepGoing)
}

// ReadResults reads the runs of one or more results files, bug-mode runs
// and target-mode runs apart, each in the order of its first line. A later
// line with the key of an earlier one (the same bug or target, contender,
// repetition and budget) replaces it, so files of several sessions can be
// concatenated. A line that is neither kind of run is an error.
func ReadResults(paths ...string) (bugs []BugRun, targets []Result, err error) {
	bugAt, targetAt := map[string]int{}, map[string]int{}
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, fmt.Errorf("bench: read results: %w", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for n := 1; sc.Scan(); n++ {
			line := sc.Bytes()
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var kind struct{ Bug, Target string }
			err := json.Unmarshal(line, &kind)
			switch {
			case err != nil:
			case kind.Bug != "":
				var r BugRun
				if err = json.Unmarshal(line, &r); err == nil {
					bugs = upsert(bugs, bugAt, bugKey(r), r)
				}
			case kind.Target != "":
				var r Result
				if err = json.Unmarshal(line, &r); err == nil {
					targets = upsert(targets, targetAt, targetKey(r), r)
				}
			default:
				err = errors.New("neither a bug-mode run (no Bug) nor a target-mode run (no Target)")
			}
			if err != nil {
				return nil, nil, fmt.Errorf("bench: read results %s line %d: %w", path, n, err)
			}
		}
		if err := sc.Err(); err != nil {
			return nil, nil, fmt.Errorf("bench: read results %s: %w", path, err)
		}
	}
	return bugs, targets, nil
}

// upsert replaces the element of list with key k (at[k] its index) by v,
// or appends v.
func upsert[T any](list []T, at map[string]int, k string, v T) []T {
	if i, ok := at[k]; ok {
		list[i] = v
		return list
	}
	at[k] = len(list)
	return append(list, v)
}

// ReadBugRuns reads the bug-mode runs of one or more results files
// (ReadResults).
func ReadBugRuns(paths ...string) ([]BugRun, error) {
	bugs, _, err := ReadResults(paths...)
	return bugs, err
}

// ReadTargetResults reads the target-mode runs of one or more results
// files (ReadResults).
func ReadTargetResults(paths ...string) ([]Result, error) {
	_, targets, err := ReadResults(paths...)
	return targets, err
}

// resultJSON is a Result as saved (report.json, results files) without
// its methods.
type resultJSON Result

// MarshalJSON encodes ExecsPerSec as a string: it may be NaN (a rate
// that could not be measured), which encoding/json refuses. Another
// non-finite measurement, which would make the whole run unsavable, is
// saved as unknown: ValidPct and CorpusValidPct -1, an Engine value left
// out (the tables print n/a for all of them).
func (res Result) MarshalJSON() ([]byte, error) {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if !finite(res.ValidPct) {
		res.ValidPct = -1
	}
	if !finite(res.CorpusValidPct) {
		res.CorpusValidPct = -1
	}
	var engine map[string]float64
	for k, v := range res.Engine {
		if finite(v) {
			if engine == nil {
				engine = map[string]float64{}
			}
			engine[k] = v
		}
	}
	res.Engine = engine
	return json.Marshal(struct {
		resultJSON
		ExecsPerSec string
	}{resultJSON(res), strconv.FormatFloat(res.ExecsPerSec, 'g', -1, 64)})
}

// UnmarshalJSON decodes what MarshalJSON encodes (ExecsPerSec a string;
// a number is accepted too).
func (res *Result) UnmarshalJSON(b []byte) error {
	v := struct {
		*resultJSON
		ExecsPerSec any
	}{resultJSON: (*resultJSON)(res)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch x := v.ExecsPerSec.(type) {
	case string:
		res.ExecsPerSec, _ = strconv.ParseFloat(x, 64)
	case float64:
		res.ExecsPerSec = x
	}
	return nil
}
