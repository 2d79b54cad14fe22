package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gfz-dev/gfz/internal/build"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// TestCISummaryStats: the summary table's EXECS, COVERAGE and CORPUS come
// from each work directory's stats file; "-" for a key absent or empty, or
// for a work directory without stats.
func TestCISummaryStats(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		wd := filepath.Join(dir, name)
		if err := os.MkdirAll(wd, 0o755); err != nil {
			t.Fatal(err)
		}
		if data != "" {
			if err := os.WriteFile(filepath.Join(wd, "stats"), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return wd
	}
	var jobs []*ciJob
	for _, tc := range []struct{ target, stats string }{
		{"FuzzA", "target: FuzzA\nexecs: 3532450\ncorpus: 58\ntotal_cov: 106\n"},
		{"FuzzB", "target: FuzzB\r\nexecs: 12\r\ncorpus: 3\r\ntotal_cov: \r\n"}, // CRLF, empty coverage
		{"FuzzC", "execs: 1\ngarbage\nexecs: 7\ncorpus"},                        // the last execs; corpus cut
		{"FuzzD", ""}, // no stats file
	} {
		j := &ciJob{bin: build.Binary{Package: "example.com/p"}, target: tc.target, wd: write(tc.target, tc.stats), ran: true}
		j.stats, _, _ = workdir.ReadStats(filepath.Join(j.wd, "stats"))
		jobs = append(jobs, j)
	}
	out := ciSummaryText(jobs, false, filepath.Join(dir, "failures"), dir)
	for _, want := range []string{
		`(?m)^example\.com/p +FuzzA +ok +3532450 +106 +58 +0 +0$`,
		`(?m)^example\.com/p +FuzzB +ok +12 +- +3 +0 +0$`,
		`(?m)^example\.com/p +FuzzC +ok +7 +- +- +0 +0$`,
		`(?m)^example\.com/p +FuzzD +ok +- +- +- +0 +0$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("summary lacks %s:\n%s", want, out)
		}
	}
}
