// Package bench is the instrumentation-overhead workload: go/parser and
// go/types over real packages of GOROOT/src.
package bench

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	// gfz's runtime must be linked for the -cover'd std packages' probes.
	_ "github.com/gfz-dev/gfz/runtime"
)

// Packages are the GOROOT/src directories of the workload.
var Packages = []string{
	"bufio", "bytes", "strings", "strconv", "fmt", "sort", "errors", "io", "unicode/utf8",
	"encoding/json", "encoding/xml", "encoding/base64", "text/template", "text/template/parse",
	"go/ast", "go/parser", "go/scanner", "go/token", "go/printer", "go/format", "go/constant",
	"regexp", "regexp/syntax", "net/url", "path", "path/filepath", "math/big", "container/heap",
	"compress/flate", "archive/tar", "html/template", "mime", "flag", "log",
}

// Source holds the files of the workload packages, read once.
type Source struct {
	Files map[string]map[string][]byte // package dir -> file name -> content
}

// Load reads the non-test Go files of Packages (build-constrained files
// included as go/build would select them is not needed: files with build
// tags other than the host's are skipped by name suffix only).
func Load() (*Source, error) {
	s := &Source{Files: map[string]map[string][]byte{}}
	for _, p := range Packages {
		dir := filepath.Join(runtime.GOROOT(), "src", p)
		ents, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		s.Files[p] = map[string][]byte{}
		for _, e := range ents {
			n := e.Name()
			if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, n))
			if err != nil {
				return nil, err
			}
			s.Files[p][n] = b
		}
	}
	return s, nil
}

// Check parses and type-checks every package (imports from source through
// one shared importer) and returns the number of files and type errors.
func (s *Source) Check() (files, errs int) {
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	for _, p := range Packages {
		names := make([]string, 0, len(s.Files[p]))
		for n := range s.Files[p] {
			names = append(names, n)
		}
		sort.Strings(names)
		var asts []*ast.File
		for _, n := range names {
			f, err := parser.ParseFile(fset, filepath.Join(p, n), s.Files[p][n], parser.ParseComments)
			if err != nil {
				errs++
				continue
			}
			if f.Name.Name == "main" || f.Name.Name == "documentation" {
				continue
			}
			asts = append(asts, f)
		}
		files += len(asts)
		conf := types.Config{Importer: imp, Error: func(error) { errs++ }}
		conf.Check(p, fset, asts, &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}})
	}
	return files, errs
}
