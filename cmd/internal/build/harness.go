package build

import (
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Harness packages.
//
// A gfz target's generators are harness code, not the code under test:
// their branches record which shapes an input took, so probes in them make
// structural variety look like new coverage (and cost every execution).
// gfz-build therefore leaves a gfz target's _test.go files uninstrumented
// by default (testfiles.go). Generators shared between targets live in a
// package of their own, which the targets' tests import; by the same rule
// such a package is left out by default too.
//
// A harness package is a package that
//   - imports one of gfz's own packages (gfz, generators, param: the API
//     generators are written with) in its non-test files,
//   - is not imported, directly or transitively, by the non-test code of a
//     matched package: only the tests reach it, and
//   - if the patterns match it (gfz-build ./... matches a module's
//     generator package too), has no fuzz target of its own.
//
// Code reached from the matched packages' own code is always instrumented,
// even if it imports gfz; the harness packages' dependencies are
// instrumented as usual (the code under test may be reached only through a
// harness's check functions). Options.Harness (-harness) instruments them
// too.

// harnessPackages returns the import paths of the packages that are
// harness packages if they have no fuzz targets (see above): among deps,
// the test roots' dependencies, and the matched packages, matched being
// the matched packages as their non-test build sees them.
func harnessPackages(matched, deps []*packages.Package) map[string]bool {
	var imported []*packages.Package
	isMatched := map[string]bool{}
	for _, m := range matched {
		isMatched[m.PkgPath] = true
		for _, q := range m.Imports {
			imported = append(imported, q)
		}
	}
	prod := map[string]bool{}
	for _, p := range dependencies(imported) {
		prod[p.PkgPath] = true
	}
	out := map[string]bool{}
	for _, p := range matched {
		if !prod[p.PkgPath] && importsGfz(p) {
			out[p.PkgPath] = true
		}
	}
	// A test variant of a dependency ("d [p.test]") imports what the
	// plain package does.
	for _, p := range deps {
		if !isMatched[p.PkgPath] && !prod[p.PkgPath] && importsGfz(p) {
			out[p.PkgPath] = true
		}
	}
	return out
}

// importsGfz reports whether p imports gfz's API for generators directly:
// the gfz package, generators (and its subpackages) or param. The probe
// runtime and cover are not that API (a package may import the runtime to
// be instrumented with -cover, as testdata/instrument/thirdparty does).
func importsGfz(p *packages.Package) bool {
	for path := range p.Imports {
		if path == GfzPath || path == GfzPath+"/param" || path == GfzPath+"/generators" || strings.HasPrefix(path, GfzPath+"/generators/") {
			return true
		}
	}
	return false
}

// HarnessLine is the one line that reports the harness packages left
// uninstrumented.
func HarnessLine(paths []string) string {
	paths = slices.Clone(paths)
	slices.Sort(paths)
	what, verb, them, they := "package", "imports", "it", "it"
	if len(paths) > 1 {
		what, verb, them, they = "packages", "import", "them", "they"
	}
	return "not instrumented: the harness " + what + " " + strings.Join(paths, ", ") +
		": only the fuzz targets' tests use " + them + ", and " + they + " " + verb +
		" gfz (shared generators, left out like a gfz target's test files); -harness instruments " + them
}
