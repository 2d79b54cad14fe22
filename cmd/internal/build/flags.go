package build

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// AddFlags registers on fs the build flags gfz-build and gfz-run share:
// -cover, -instrument, -skip, -tags, -race, -cmp, -mapbits, -counts, -testfiles, -harness and -cache,
// storing into o.
// Call o.CheckFlags after parsing.
func (o *Options) AddFlags(fs *flag.FlagSet) {
	fs.Var((*patternList)(&o.Cover), "cover", "also instrument these `packages` (comma or space separated), e.g. std packages such as encoding/json")
	fs.Var((*patternList)(&o.Only), "instrument", "instrument only the dependencies matching these import path `patterns` (comma or space separated, ... wildcards); default: every non-std dependency")
	fs.Var((*patternList)(&o.Skip), "skip", "do not instrument the dependencies matching these import path `patterns` (comma or space separated, ... wildcards); -skip ... instruments only the named packages")
	fs.StringVar(&o.Tags, "tags", "", "comma-separated list of build `tags`")
	fs.BoolVar(&o.Race, "race", false, "build with the race detector")
	fs.Var(cmpFlag{o}, "cmp", "insert comparison probes (integer and string comparisons, switch cases) for the fuzz binary's -feedback cmp; default: only when a package has native targets (f.Fuzz), which then run with -feedback cmp; -cmp=false: never")
	fs.IntVar(&o.MapBits, "mapbits", 0, "log2 of the coverage map size (`n`, 8..28); default: chosen from the probe count")
	fs.BoolVar(&o.Counts, "counts", false, "count edge hits past 255 exactly (needed by the fuzz binary's -feedback perf); makes every probe larger")
	fs.Var(testFilesFlag{o}, "testfiles", "instrument the _test.go files of every package with fuzz targets too (the fuzz functions' own branches and their helpers); default: only of the packages with native targets (f.Fuzz), not of those with gfz targets only, whose generators are there; -testfiles=false: none")
	fs.BoolVar(&o.Harness, "harness", false, "instrument the harness packages too: dependencies that only the fuzz targets' tests import and that import gfz (shared generators); default: left out, like a gfz target's test files")
	fs.StringVar(&o.Cache, "cache", "", "`directory` of the build cache of instrumented packages, or off; default build in gfz's cache directory ($GFZCACHE)")
}

// CheckFlags validates the values set through AddFlags.
func (o *Options) CheckFlags() error {
	if o.MapBits != 0 && (o.MapBits < 8 || o.MapBits > 28) {
		return fmt.Errorf("-mapbits must be between 8 and 28, got %d", o.MapBits)
	}
	for _, p := range append(append([]string(nil), o.Only...), o.Skip...) {
		if p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
			return fmt.Errorf("-instrument and -skip take import path patterns (such as github.com/x/y/...), not directories: %q", p)
		}
	}
	return nil
}

// patternList is a flag.Value collecting comma- or space-separated package
// patterns; it may be repeated.
type patternList []string

func (p *patternList) String() string { return strings.Join(*p, ",") }

func (p *patternList) Set(s string) error {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		*p = append(*p, f)
	}
	return nil
}

// cmpFlag is -cmp, a boolean flag with a third state, not given: -cmp sets
// Options.Cmp (comparison probes in every build), -cmp=false Options.NoCmp
// (none, not even for native targets); neither leaves the default
// (probes when a package has native targets).
type cmpFlag struct{ o *Options }

func (f cmpFlag) IsBoolFlag() bool { return true }

func (f cmpFlag) String() string {
	switch {
	case f.o == nil || !f.o.Cmp && !f.o.NoCmp:
		return ""
	case f.o.Cmp:
		return "true"
	}
	return "false"
}

func (f cmpFlag) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false, got %q", s)
	}
	f.o.Cmp, f.o.NoCmp = b, !b
	return nil
}

// testFilesFlag is -testfiles, a boolean flag with a third state, not
// given: -testfiles sets Options.TestFiles (the test files of every
// package with fuzz targets), -testfiles=false Options.NoTestFiles (none);
// neither leaves the default (those of packages with native targets).
type testFilesFlag struct{ o *Options }

func (f testFilesFlag) IsBoolFlag() bool { return true }

func (f testFilesFlag) String() string {
	switch {
	case f.o == nil || !f.o.TestFiles && !f.o.NoTestFiles:
		return ""
	case f.o.TestFiles:
		return "true"
	}
	return "false"
}

func (f testFilesFlag) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false, got %q", s)
	}
	f.o.TestFiles, f.o.NoTestFiles = b, !b
	return nil
}
