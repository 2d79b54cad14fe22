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
	"internal/formatreg": {"param"},
	"internal/engine":    {"runtime", "param", "internal/proc", "internal/signature", "internal/workdir"},
	"internal/screen":    {},
	"internal/report":    {"cover", "runtime", "internal/workdir"},
	"internal/driver": {"cover", "runtime", "internal/cliflag", "internal/engine", "internal/native", "internal/formatreg", "internal/proc",
		"internal/report", "internal/screen", "internal/signature", "internal/userdict", "internal/workdir"},
	".": {"param", "internal/callsite", "internal/driver", "internal/engine", "internal/formatreg", "internal/intern", "internal/native",
		"internal/signature", "internal/userdict", "internal/workdir"},
	"generators":          {".", "param", "internal/callsite", "internal/userdict"},
	"generators/gentest":  {".", "generators", "param"},
	"generators/gojson":   {".", "generators", "param"},
	"generators/gosrc":    {".", "generators", "param"},
	"generators/goxml":    {".", "generators", "param"},
	"generators/nearmiss": {".", "generators", "param"},
	"generators/gotoml":   {".", "generators", "generators/nearmiss", "param"},
	"generators/goyaml":   {".", "generators", "generators/nearmiss", "param"},
	"generators/gomd":     {".", "generators", "generators/nearmiss", "param"},
	"generators/gohtml":   {".", "generators", "generators/nearmiss", "param"},
	"generators/gourl":    {".", "generators", "generators/nearmiss", "param"},
	"generators/gocsv":    {".", "generators", "generators/nearmiss", "param"},
	"generators/formats": {".", "generators", "generators/gocsv", "generators/gohtml", "generators/gojson", "generators/gomd",
		"generators/gosrc", "generators/gotoml", "generators/gourl", "generators/goxml", "generators/goyaml", "generators/nearmiss",
		"internal/formatreg", "param"},
	// The tools module (cmd/, module github.com/gfz-dev/gfz/cmd).
	"cmd/internal/instrument": {"github.com/dave/dst/..."},
	"cmd/internal/build": {"cmd/internal/instrument", "internal/native", "internal/workdir", "golang.org/x/mod/...", "golang.org/x/sync/...",
		"golang.org/x/tools/..."},
	"cmd/internal/build/bench/prepare": {"cmd/internal/build"},
	"cmd/internal/release/localproxy":  {"golang.org/x/mod/..."},
	"cmd/internal/bench": {"cmd/internal/build", "internal/engine", "internal/signature", "internal/workdir",
		"golang.org/x/mod/...", "golang.org/x/tools/...", "gonum.org/v1/plot/..."},
	"cmd/gfz-build":      {"cmd/internal/build"},
	"cmd/internal/sched": {},
	"cmd/gfz-run": {"cmd/internal/build", "cmd/internal/sched", "internal/cliflag", "internal/engine", "internal/formatreg", "internal/report", "internal/screen", "internal/signature",
		"internal/workdir"},
	"cmd/gfz-bench": {"cmd/internal/bench", "internal/workdir"},
}

// toolsDir is the directory of the tools module, the one nested module
// the rules cover; every other package belongs to the library module,
// which users require and which must need only the standard library.
const toolsDir = "cmd"

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
			if p != root && p != filepath.Join(root, toolsDir) {
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

func TestImportRules(t *testing.T) {
	pkgs := imports(t, filepath.Join("..", ".."))
	if len(pkgs) < 20 {
		t.Fatalf("found only %d packages: is the module root ../..?", len(pkgs))
	}
	for _, b := range check(pkgs, rules) {
		t.Error(b)
	}
	for _, b := range libraryImports(pkgs) {
		t.Error(b)
	}
}

// libraryImports returns the imports of library packages (all but the
// tools module's) that are neither the standard library nor the library's
// own packages: requiring gfz must move no version of a user's build list.
func libraryImports(pkgs map[string][]string) []string {
	var bad []string
	for pkg, imps := range pkgs {
		if pkg == toolsDir || strings.HasPrefix(pkg, toolsDir+"/") {
			continue
		}
		for _, ip := range imps {
			l, ok := local(ip)
			if !isStd(ip) && (!ok || l == toolsDir || strings.HasPrefix(l, toolsDir+"/")) {
				bad = append(bad, "library package "+pkg+" imports "+ip+", outside the standard library and the library module")
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestLibraryGoMod: the library's go.mod requires nothing (adding gfz to
// a module moves no other module's version) and its go directive is old
// enough for modules that have not moved to the newest Go.
func TestLibraryGoMod(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "require", "replace", "tool", "toolchain":
			t.Errorf("the library's go.mod has %q: it must need only the standard library", line)
		case "go":
			if len(f) < 2 || !strings.HasPrefix(f[1], "1.") {
				t.Fatalf("go directive %q", line)
			}
			if minor, err := strconv.Atoi(strings.SplitN(f[1][2:], ".", 2)[0]); err != nil || minor > 22 {
				t.Errorf("the library's go directive is %s: raise it only when the library's code needs it (users requiring gfz get at least this go line)", f[1])
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
	lib := libraryImports(map[string][]string{
		"x":             {"os", module + "/y", module + "/cmd/internal/build", "golang.org/x/term"},
		"cmd/gfz-build": {"golang.org/x/tools/go/packages"},
	})
	if want := []string{
		"library package x imports " + module + "/cmd/internal/build, outside the standard library and the library module",
		"library package x imports golang.org/x/term, outside the standard library and the library module",
	}; !slices.Equal(lib, want) {
		t.Errorf("libraryImports = %q\nwant %q", lib, want)
	}
}
