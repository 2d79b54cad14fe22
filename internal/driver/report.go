package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gfz-dev/gfz/internal/report"
)

// -report DIR: after the run, the supervisor writes the HTML report of the
// work directory to DIR/index.html. Worker 0 writes the coverage profile
// it renders (-coverprofile's file, or <workdir>/coverprofile) and the
// functions of its blocks (the profile's path + report.FuncsSuffix).

// profilePath is the coverage profile worker 0 writes at the end ("" for
// none).
func (c *config) profilePath() string {
	if c.coverprofile == "" && c.report != "" {
		return filepath.Join(c.run.Workdir, report.ProfileFile)
	}
	return c.coverprofile
}

// withReport runs the campaign and then, with -report, writes the report.
// A report that cannot be written makes the exit status ExitUsage.
func (c *config) withReport(run func(*config) int) int {
	if c.report == "" {
		return run(c)
	}
	// A profile older than this run (less a second or two for file
	// systems with coarse timestamps) is an earlier run's.
	prof, start := c.profilePath(), time.Now().Truncate(time.Second).Add(-time.Second)
	code := run(c)
	if c.summary == nil && code == ExitUsage {
		// Refused before it ran (a locked work directory, a target that
		// does not start): no report of a run that did not happen (of a
		// work directory another process may be using).
		return code
	}
	if fi, err := os.Stat(prof); err != nil || fi.ModTime().Before(start) {
		// No worker wrote it (the run stopped before its end): never
		// report an earlier run's as this one's. The report says so.
		prof = ""
	}
	path, err := report.ForBinary(c.report, c.run.Workdir, prof)
	if err != nil {
		fmt.Fprintf(c.stderr, "gfz: -report: %v\n", err)
		return ExitUsage
	}
	fmt.Fprintf(c.stderr, "gfz: report: %s\n", path)
	return code
}

// writeCoverage writes the coverage profile to path and, with -report,
// the functions of its blocks.
func (c *config) writeCoverage(path string) error {
	if err := writeCoverProfile(path); err != nil {
		return err
	}
	if c.report == "" {
		return nil
	}
	if err := report.WriteFuncs(path + report.FuncsSuffix); err != nil {
		return fmt.Errorf("-report: %w", err)
	}
	return nil
}
