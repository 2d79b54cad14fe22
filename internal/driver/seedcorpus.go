package driver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// -seedcorpus DIR: more seeds from a directory of inputs in the target's
// own file format, such as the corpus go test -fuzz keeps in its cache
// ($(go env GOCACHE)/fuzz/<import path>/<FuzzTarget>) or another
// project's testdata/fuzz/<FuzzTarget>.

// dirList is a repeatable flag of directories.
type dirList []string

func (d *dirList) String() string { return strings.Join(*d, ",") }

func (d *dirList) Set(s string) error {
	if s == "" {
		return fmt.Errorf("empty directory")
	}
	*d = append(*d, s)
	return nil
}

// packageSeedDir returns target's seed corpus directory in the package
// directory gfz-build recorded, pkgDir/testdata/fuzz/<target>, when it
// exists and the binary runs elsewhere, else "". go test runs a test in its
// package directory, where the testing package reads testdata/fuzz/<target>
// relative to the current directory; a fuzz binary run by hand from another
// directory (the module root, say) would otherwise go without the seeds the
// package holds, silently. Added as a -seedcorpus directory, its files are
// seeds whichever directory the binary runs in.
func packageSeedDir(pkgDir, target string) string {
	if pkgDir == "" || target == "" {
		return ""
	}
	d := filepath.Join(pkgDir, "testdata", "fuzz", target)
	st, err := os.Stat(d)
	if err != nil || !st.IsDir() {
		return ""
	}
	if here, err := os.Stat(filepath.Join("testdata", "fuzz", target)); err == nil && os.SameFile(here, st) {
		return "" // the testing package reads it
	}
	return d
}

// checkSeedDirs reports the first -seedcorpus directory that cannot be
// read, so that a typo stops the run at once rather than running without
// the seeds the user asked for.
func checkSeedDirs(dirs []string) error {
	for _, d := range dirs {
		st, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("-seedcorpus %s: %w", d, err)
		}
		if !st.IsDir() {
			return fmt.Errorf("-seedcorpus %s: not a directory", d)
		}
		if _, err := os.ReadDir(d); err != nil {
			return fmt.Errorf("-seedcorpus %s: %w", d, err)
		}
	}
	return nil
}

// readSeedDirs reads the inputs of dirs (corpusFiles: every regular file,
// recursively, hidden ones skipped, in name order, so the seeds come in the
// same order every run) with read, the target's file reader. A file read
// cannot decode (another target's input, a file of an older version of the
// target with other argument types) is skipped: one line per directory says
// how many and why the first was refused.
func readSeedDirs(dirs []string, read func(path string) ([]byte, error), warn io.Writer) ([][]byte, error) {
	var seeds [][]byte
	for _, d := range dirs {
		files, err := corpusFiles(d)
		if err != nil {
			return nil, fmt.Errorf("-seedcorpus %s: %w", d, err)
		}
		skipped, first := 0, ""
		for _, f := range files {
			data, err := read(f)
			if err != nil {
				if skipped == 0 {
					first = err.Error()
				}
				skipped++
				continue
			}
			seeds = append(seeds, data)
		}
		if skipped > 0 && warn != nil {
			fmt.Fprintf(warn, "gfz: -seedcorpus %s: skipped %d of %d files that are not inputs of this target (first: %s)\n", d, skipped, len(files), first)
		}
	}
	return seeds, nil
}
