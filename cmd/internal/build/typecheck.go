package build

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"hash"
	"os"
	"slices"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

// errCgo makes resolve fall back to go/packages, which runs cgo.
var errCgo = errors.New("cgo package")

// goPackagesOnly makes Prepare type-check with go/packages, as for cgo
// (tests compare the two).
var goPackagesOnly bool

// apiFingerprint hashes what importers of tp can see of it: its exported
// constants (with their values), variables and functions with their types,
// and every named type, exported or not (an exported function may return
// an unexported type), with its type parameters, underlying type and
// methods (unexported ones too: they decide which interfaces it
// implements). Positions, function bodies and unexported functions,
// variables and constants are left out, since no importer can name them:
// editing a body, a comment, the layout of a file or an unexported helper
// leaves it unchanged. Types of other packages appear by path and name;
// their own fingerprints stand for them.
func apiFingerprint(tp *types.Package) string { return fingerprint(tp, false) }

// packageFingerprint is apiFingerprint with the unexported declarations:
// what one file of the package sees of the others.
func packageFingerprint(tp *types.Package) string { return fingerprint(tp, true) }

func fingerprint(tp *types.Package, unexported bool) string {
	h := sha256.New()
	q := func(p *types.Package) string { return p.Path() }
	ts := func(t types.Type) string { return types.TypeString(t, q) }
	fmt.Fprintf(h, "package %s %s\n", tp.Path(), tp.Name())
	sc := tp.Scope()
	for _, name := range sc.Names() {
		obj := sc.Lookup(name)
		if _, isType := obj.(*types.TypeName); !isType && !obj.Exported() && !unexported {
			continue
		}
		switch o := obj.(type) {
		case *types.Const:
			fmt.Fprintf(h, "const %s %s %s\n", name, ts(o.Type()), o.Val().ExactString())
		case *types.Var:
			fmt.Fprintf(h, "var %s %s\n", name, ts(o.Type()))
		case *types.Func:
			fmt.Fprintf(h, "func %s %s\n", name, ts(o.Type()))
		case *types.TypeName:
			if o.IsAlias() {
				fmt.Fprintf(h, "alias %s %s\n", name, ts(types.Unalias(o.Type())))
				continue
			}
			fmt.Fprintf(h, "type %s\n", name)
			named, ok := o.Type().(*types.Named)
			if !ok {
				fmt.Fprintf(h, "\t%s\n", ts(o.Type()))
				continue
			}
			for i := range named.TypeParams().Len() {
				tpar := named.TypeParams().At(i)
				fmt.Fprintf(h, "\ttparam %s %s\n", tpar.Obj().Name(), ts(tpar.Constraint()))
			}
			fmt.Fprintf(h, "\tunderlying %s\n", ts(named.Underlying()))
			methods := make([]string, named.NumMethods())
			for i := range methods {
				m := named.Method(i)
				methods[i] = fmt.Sprintf("\tmethod %s %s\n", m.Name(), ts(m.Type()))
			}
			slices.Sort(methods)
			for _, m := range methods {
				fmt.Fprint(h, m)
			}
		default:
			fmt.Fprintf(h, "%T %s\n", o, name)
		}
	}
	return hexSum(h)
}

func hexSum(h hash.Hash) string { return fmt.Sprintf("%x", h.Sum(nil)) }

// readExport reads the export data of path from file into view.
func readExport(fset *token.FileSet, view map[string]*types.Package, path, file string) error {
	if file == "" {
		return fmt.Errorf("no export data for %s (it does not compile?)", path)
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("export data of %s: %w", path, err)
	}
	defer f.Close()
	// go list -export gives archives (__.PKGDEF first) with the Go
	// releases of today (1.26); Read alone reads only the cmd/export files
	// that Go 1.29 is to bring.
	//lint:ignore SA1019 the export data here is in an archive
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return fmt.Errorf("export data of %s: %w", path, err)
	}
	if _, err := gcexportdata.Read(r, fset, view, path); err != nil {
		return fmt.Errorf("export data of %s: %w", path, err)
	}
	return nil
}

// sortedImports returns p's imports in import-path order.
func sortedImports(p *packages.Package) []*packages.Package {
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	out := make([]*packages.Package, len(paths))
	for i, path := range paths {
		out[i] = p.Imports[path]
	}
	return out
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
