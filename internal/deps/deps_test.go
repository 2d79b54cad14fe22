package deps

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gfz-dev/gfz"

// rules lists, for every package of the module (by its path inside the
// module, "." for the root), what its non-test files may import besides the
// standard library: other packages of the module (by their path inside the
// module) and packages of other modules (by full import path, a trailing
// "/..." for every package below). "NOSTD" forbids the standard library
// too. A package missing here is a failure, so a new package needs a rule.
var rules = map[string][]string{
	"runtime":            {"NOSTD"}, // instrumented std packages import it
	"cover":              {"runtime"},
	"param":              {"internal/intern"},
	"internal/intern":    {},
	"internal/callsite":  {},
	"internal/userdict":  {},
	"internal/cliflag":   {},
	"internal/signature": {},
	"internal/proc":      {"internal/signature"},
	"internal/testmod":   {},
	"internal/deps":      {},
	"internal/workdir":   {"internal/signature"},
	"internal/native":    {"param"},
	"internal/engine":    {"runtime", "param", "internal/proc", "internal/signature", "internal/workdir", "golang.org/x/sys/cpu"},
	"internal/screen":    {"golang.org/x/term"},
	"internal/report":    {"cover", "runtime", "internal/workdir"},
	"internal/driver": {"cover", "runtime", "internal/cliflag", "internal/engine", "internal/native", "internal/proc", "internal/report",
		"internal/screen", "internal/signature", "internal/userdict", "internal/workdir"},
	".": {"param", "internal/callsite", "internal/driver", "internal/engine", "internal/intern", "internal/native",
		"internal/signature", "internal/userdict", "internal/workdir"},
	"generators":          {".", "param", "internal/callsite", "internal/userdict"},
	"generators/gentest":  {".", "generators", "param"},
	"generators/gojson":   {".", "generators", "param"},
	"generators/gosrc":    {".", "generators", "param"},
	"generators/goxml":    {".", "generators", "param"},
	"internal/instrument": {"github.com/dave/dst/..."},
	"internal/build": {"internal/instrument", "internal/native", "golang.org/x/mod/...", "golang.org/x/sync/...",
		"golang.org/x/tools/..."},
	"internal/build/bench/prepare": {"internal/build"},
	"internal/bench": {"internal/build", "internal/engine", "internal/signature", "internal/workdir",
		"golang.org/x/mod/...", "golang.org/x/tools/...", "gonum.org/v1/plot/..."},
	"cmd/gfz-build": {"internal/build"},
	"cmd/gfz-run":   {"internal/build", "internal/cliflag", "internal/engine", "internal/report", "internal/workdir"},
	"cmd/gfz-bench": {"internal/bench", "internal/workdir"},
}

// library is what users import; with everything it imports it must stay
// free of the tools' dependencies, so that requiring gfz adds no x/tools,
// dst, x/mod, x/sync or gonum to a user's build.
var library = []string{".", "generators", "generators/gojson", "generators/gosrc", "generators/goxml", "param", "runtime", "cover"}

var toolModules = []string{"github.com/dave/dst", "golang.org/x/tools", "golang.org/x/mod", "golang.org/x/sync", "gonum.org/v1/plot"}

// imports returns the packages of the module (relative path -> the import
// paths of its non-test files, whatever their build constraints).
func imports(t *testing.T, root string) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if p != root {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		if _, ok := pkgs[rel]; !ok {
			pkgs[rel] = nil
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(pkgs[rel], ip) {
				pkgs[rel] = append(pkgs[rel], ip)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func isStd(ip string) bool { return !strings.Contains(strings.Split(ip, "/")[0], ".") }

// local is the module-relative path of an import of the module ("" if it
// is not one).
func local(ip string) (string, bool) {
	if ip == module {
		return ".", true
	}
	if rest, ok := strings.CutPrefix(ip, module+"/"); ok {
		return rest, true
	}
	return "", false
}

func allowed(rule []string, ip string) bool {
	if isStd(ip) {
		return !slices.Contains(rule, "NOSTD") && ip != "C"
	}
	want := ip
	if l, ok := local(ip); ok {
		want = l
	}
	for _, r := range rule {
		if r == want {
			return true
		}
		if pre, ok := strings.CutSuffix(r, "/..."); ok && (want == pre || strings.HasPrefix(want, pre+"/")) {
			return true
		}
	}
	return false
}

// check returns the violations of rules in pkgs.
func check(pkgs map[string][]string, rules map[string][]string) []string {
	var bad []string
	for pkg, imps := range pkgs {
		rule, ok := rules[pkg]
		if !ok {
			bad = append(bad, pkg+": no import rule (add one here and a row to docs/ARCHITECTURE.md)")
			continue
		}
		for _, ip := range imps {
			if !allowed(rule, ip) {
				bad = append(bad, pkg+" imports "+ip)
			}
		}
	}
	for pkg := range rules {
		if _, ok := pkgs[pkg]; !ok {
			bad = append(bad, pkg+": a rule for a package that does not exist")
		}
	}
	sort.Strings(bad)
	return bad
}

// closure returns every import path reached from the roots.
func closure(pkgs map[string][]string, roots []string) map[string]bool {
	seen := map[string]bool{}
	var visit func(pkg string)
	visit = func(pkg string) {
		for _, ip := range pkgs[pkg] {
			if seen[ip] {
				continue
			}
			seen[ip] = true
			if l, ok := local(ip); ok {
				visit(l)
			}
		}
	}
	for _, r := range roots {
		visit(r)
	}
	return seen
}

func TestImportRules(t *testing.T) {
	pkgs := imports(t, filepath.Join("..", ".."))
	if len(pkgs) < 20 {
		t.Fatalf("found only %d packages: is the module root ../..?", len(pkgs))
	}
	for _, b := range check(pkgs, rules) {
		t.Error(b)
	}
	for ip := range closure(pkgs, library) {
		for _, m := range toolModules {
			if ip == m || strings.HasPrefix(ip, m+"/") {
				t.Errorf("the library (%s) reaches %s, a dependency of the tools only", strings.Join(library, ", "), ip)
			}
		}
	}
}

// TestCheckFindsViolations: the checker itself reports an import outside
// a rule, a package without a rule, a stale rule, std where NOSTD holds,
// and accepts "/..." rules.
func TestCheckFindsViolations(t *testing.T) {
	pkgs := map[string][]string{
		"a":   {"fmt", module + "/b", "golang.org/x/tools/go/packages"},
		"b":   {"os"},
		"new": {},
	}
	got := check(pkgs, map[string][]string{"a": {"golang.org/x/tools/..."}, "b": {"NOSTD"}, "gone": {}})
	want := []string{
		"a imports " + module + "/b",
		"b imports os",
		"gone: a rule for a package that does not exist",
		"new: no import rule (add one here and a row to docs/ARCHITECTURE.md)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("check = %q\nwant %q", got, want)
	}
	if c := closure(map[string][]string{"x": {module + "/y"}, "y": {"gonum.org/v1/plot"}}, []string{"x"}); !c["gonum.org/v1/plot"] {
		t.Errorf("closure misses a transitive import: %v", c)
	}
}
