package build

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// overlayFiles returns the overlay of p as original path -> contents, the
// paths of module copies (per build in the work directory, or in the build
// cache) written as "<copy>/" and the path inside the module.
func overlayFiles(t *testing.T, p *Prepared) map[string]string {
	t.Helper()
	data, err := os.ReadFile(p.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &ov); err != nil {
		t.Fatal(err)
	}
	roots := []string{filepath.Join(p.WorkDir, "mod")}
	if p.Cache.Dir != "" {
		roots = append(roots, filepath.Join(p.Cache.Dir, "mod"))
	}
	out := map[string]string{}
	for orig, file := range ov.Replace {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range roots {
			if within(r, orig) {
				rel, _ := filepath.Rel(r, orig)
				_, inside, _ := strings.Cut(filepath.ToSlash(rel), "/")
				orig = "<copy>/" + inside
				break
			}
		}
		out[orig] = string(src)
	}
	return out
}

// sameBuild fails unless a and b have the same overlay contents and the
// same probes, map size, packages and dictionary.
func sameBuild(t *testing.T, what string, a, b *Prepared) {
	t.Helper()
	fa, fb := overlayFiles(t, a), overlayFiles(t, b)
	for name, src := range fa {
		if other, ok := fb[name]; !ok {
			t.Errorf("%s: %s only in the first overlay", what, name)
		} else if other != src {
			t.Errorf("%s: %s differs:\n%s\n---\n%s", what, name, src, other)
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			t.Errorf("%s: %s only in the second overlay", what, name)
		}
	}
	if a.Probes != b.Probes || a.MapBits != b.MapBits || !reflect.DeepEqual(a.Packages, b.Packages) || !slices.Equal(a.Dictionary, b.Dictionary) ||
		!reflect.DeepEqual(a.BinaryProbes, b.BinaryProbes) || !reflect.DeepEqual(a.TestPackages, b.TestPackages) || !reflect.DeepEqual(a.BinaryTestProbes, b.BinaryTestProbes) {
		t.Errorf("%s: builds differ: %d/%d probes, mapbits %d/%d, packages %+v / %+v, test files %+v / %+v, %d/%d dictionary tokens",
			what, a.Probes, b.Probes, a.MapBits, b.MapBits, a.Packages, b.Packages, a.TestPackages, b.TestPackages, len(a.Dictionary), len(b.Dictionary))
	}
}

func pkgPaths(ips []InstrumentedPackage) []string {
	var out []string
	for _, p := range ips {
		out = append(out, p.Path)
	}
	slices.Sort(out)
	return out
}

// TestCacheSameOverlay: a build from an empty cache, a rebuild from the
// cache, a build with the cache off and one type-checked by go/packages
// write byte-identical overlays: on the fixture (with and without -cmp and
// a build tag), on github.com/BurntSushi/toml from the module cache (a
// module copy) and on a standard-library package (-cover, linkname
// scheme); and a cached template filled in for another map size is what
// an uncached build with that size writes.
func TestCacheSameOverlay(t *testing.T) {
	fixture := fixtureDir(t)
	third := filepath.Join(repoRoot(t), "testdata", "instrument", "thirdparty")
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"fixture", Options{Patterns: []string{"./..."}, Dir: fixture, NoCmp: true}}, // its native target would add comparison probes
		{"fixture-cmp-tag", Options{Patterns: []string{"./..."}, Dir: fixture, Cmp: true, Tags: "fixturetag"}},
		{"modcache-std", Options{Patterns: []string{"."}, Dir: third, Cover: []string{"strconv"}, Cmp: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := t.TempDir()
			with := func(cacheSetting string, bits int) Options {
				o := c.opts
				o.Cache, o.MapBits = cacheSetting, bits
				return o
			}
			off := prepare(t, with("off", 0))
			if off.Cache.Dir != "" || len(off.Cache.Hits)+len(off.Cache.Misses) != 0 {
				t.Errorf("cache off: stats %+v", off.Cache)
			}
			goPackagesOnly = true
			gp := prepare(t, with("off", 0))
			goPackagesOnly = false
			sameBuild(t, "go/packages vs own type-checking", gp, off)

			cold := prepare(t, with(cache, 0))
			if len(cold.Cache.Hits) != 0 || !isSubset(pkgPaths(cold.Packages), cold.Cache.Misses) {
				t.Errorf("empty cache: hits %v, misses %v; instrumented %v", cold.Cache.Hits, cold.Cache.Misses, pkgPaths(cold.Packages))
			}
			sameBuild(t, "empty cache vs cache off", off, cold)
			warm := prepare(t, with(cache, 0))
			if len(warm.Cache.Misses) != 0 || !slices.Equal(warm.Cache.Hits, cold.Cache.Misses) {
				t.Errorf("rebuild: hits %v, misses %v; the first build missed %v", warm.Cache.Hits, warm.Cache.Misses, cold.Cache.Misses)
			}
			if len(warm.checked.full)+len(warm.checked.decls) != 0 {
				t.Errorf("rebuild type-checked %v %v", warm.checked.full, warm.checked.decls)
			}
			sameBuild(t, "rebuild vs cache off", off, warm)

			bits := off.MapBits + 3
			warmBits := prepare(t, with(cache, bits))
			if len(warmBits.Cache.Misses) != 0 {
				t.Errorf("-mapbits %d: misses %v", bits, warmBits.Cache.Misses)
			}
			sameBuild(t, fmt.Sprintf("-mapbits %d from the cache vs cache off", bits), prepare(t, with("off", bits)), warmBits)
		})
	}
}

func isSubset(sub, of []string) bool {
	for _, s := range sub {
		if !slices.Contains(of, s) {
			return false
		}
	}
	return true
}

// editModule writes the module example.com/m: package a (with a native
// fuzz target) imports b, which imports c. a's && operand b.Debug is a
// constant, which gets no probe: whether it does depends on package b.
func editModule(t *testing.T) string {
	dir := t.TempDir()
	testmod.Write(t, dir, map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nimport \"example.com/m/b\"\n\nfunc A(x int) bool {\n\tif x > 2 && b.Debug {\n\t\treturn b.B(x)\n\t}\n\treturn false\n}\n",
		"a/a2.go":     "package a\n\nfunc A2(x int) int {\n\tif x > limit {\n\t\treturn 1\n\t}\n\treturn 0\n}\n\nconst limit = 7\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc FuzzA(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, x int) { A(x) })\n}\n",
		"b/b.go":      "package b\n\nimport \"example.com/m/c\"\n\nconst Debug = false\n\nfunc B(x int) bool {\n\tif x > 4 {\n\t\treturn c.C(x) > 0\n\t}\n\treturn false\n}\n",
		"c/c.go":      "package c\n\nimport \"strconv\"\n\nfunc C(x int) int {\n\tif x > 8 {\n\t\treturn 1\n\t}\n\treturn len(strconv.Itoa(x))\n}\n",
	})
	return dir
}

func appendTo(t *testing.T, file, text string) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCacheReinstrumentsWhatChanged: a rebuild instruments, and
// type-checks with function bodies, only the packages whose files changed,
// and their importers only when what they see of them changed (here a
// constant became a variable, and a result type changed); the packages an
// instrumented package imports are type-checked without bodies; a
// _test.go edit re-instruments the package's test files only (testfiles.go:
// a's test variant is type-checked, its imports without bodies), and an
// edit of the package's own files its test files too; -cmp=false (the comparison
// probes a native target gets by default left out) and -tags miss, -cmp
// (the default here), -counts (which changes only the runtime's constants)
// and -mapbits hit.
func TestCacheReinstrumentsWhatChanged(t *testing.T) {
	dir := editModule(t)
	cache := t.TempDir()
	opts := Options{Patterns: []string{"./a"}, Dir: dir, Cache: cache}
	const a, b, c = "example.com/m/a", "example.com/m/b", "example.com/m/c"
	step := func(what string, o Options, hits, misses, decls []string) *Prepared {
		t.Helper()
		p := prepare(t, o)
		if !slices.Equal(p.Cache.Hits, hits) || !slices.Equal(p.Cache.Misses, misses) || !slices.Equal(p.checked.full, misses) || !slices.Equal(p.checked.decls, decls) {
			t.Errorf("%s: hits %v, misses %v, type-checked %v and without bodies %v; want %v, %v, %v and %v",
				what, p.Cache.Hits, p.Cache.Misses, p.checked.full, p.checked.decls, hits, misses, misses, decls)
		}
		return p
	}
	edit := func(file, from, to string) {
		t.Helper()
		file = filepath.Join(dir, file)
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), from) {
			t.Fatalf("%s lacks %q", file, from)
		}
		if err := os.WriteFile(file, []byte(strings.Replace(string(src), from, to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all := []string{a, b, c}
	if p := step("first build", opts, nil, all, nil); !slices.Equal(p.checked.listed, []string{"strconv", "testing"}) ||
		!slices.Equal(p.Cache.TestMisses, []string{a}) || !slices.Equal(p.checked.tests, []string{a}) {
		t.Errorf("first build: go list -export of %v, want strconv and testing; test files instrumented %v, type-checked %v, want a's", p.checked.listed, p.Cache.TestMisses, p.checked.tests)
	}
	if p := step("rebuild", opts, all, nil, nil); !slices.Equal(p.Cache.TestHits, []string{a}) || len(p.checked.tests) != 0 {
		t.Errorf("rebuild: test files from the cache %v, type-checked %v; want a's from the cache", p.Cache.TestHits, p.checked.tests)
	}
	appendTo(t, filepath.Join(dir, "a", "a.go"), "\n// edited\n")
	// c's import of strconv comes from export data, whose file the first
	// build's go list -export named: no go list this time. Only the
	// edited file of a is printed again.
	if p := step("a edited", opts, []string{b, c}, []string{a}, []string{b, c}); len(p.checked.listed) != 0 || !slices.Equal(p.checked.files, []string{filepath.Join(dir, "a", "a.go")}) ||
		!slices.Equal(p.Cache.TestMisses, []string{a}) {
		t.Errorf("a edited: go list -export of %v, want none (the standard library's export files are known); files instrumented %v, want a.go; test files instrumented %v, want a's", p.checked.listed, p.checked.files, p.Cache.TestMisses)
	}
	// A constant of a2.go that a.go does not use changes: the package's
	// declarations changed, so both files are instrumented again.
	edit("a/a2.go", "limit = 7", "limit = 8")
	if p := step("a's constant edited", opts, []string{b, c}, []string{a}, []string{b, c}); len(p.checked.files) != 2 {
		t.Errorf("a's constant edited: files instrumented %v, want a.go and a2.go", p.checked.files)
	}
	appendTo(t, filepath.Join(dir, "a", "a_test.go"), "\n// edited\n")
	if p := step("a's test edited", opts, all, nil, []string{b, c}); !slices.Equal(p.Cache.TestMisses, []string{a}) || !slices.Equal(p.checked.tests, []string{a}) {
		t.Errorf("a's test edited: test files instrumented %v, type-checked %v; want a's", p.Cache.TestMisses, p.checked.tests)
	}
	if p := step("a's test edited, rebuild", opts, all, nil, nil); len(p.Cache.TestMisses) != 0 || len(p.checked.tests) != 0 {
		t.Errorf("a's test edited, rebuild: test files instrumented %v, type-checked %v; want none", p.Cache.TestMisses, p.checked.tests)
	}
	edit("c/c.go", "return 1", "return 2")
	step("a body in c edited", opts, []string{a, b}, []string{c}, nil)
	appendTo(t, filepath.Join(dir, "c", "c.go"), "\nfunc helper() int { return 3 }\n")
	step("an unexported function added to c", opts, []string{a, b}, []string{c}, nil)

	// b.Debug becomes a variable: a's && operand now gets a probe.
	before := step("rebuild", opts, all, nil, nil)
	edit("b/b.go", "const Debug", "var Debug")
	after := step("b's constant made a variable", opts, []string{c}, []string{a, b}, []string{c})
	if probesOf(after, a) != probesOf(before, a)+1 {
		t.Errorf("a has %d probes after b.Debug became a variable, %d before: want one more", probesOf(after, a), probesOf(before, a))
	}
	sameBuild(t, "after the edit, cached vs cache off", prepare(t, Options{Patterns: opts.Patterns, Dir: dir, Cache: "off"}), after)
	// c.C's result type changes: b sees it; so may b's importers (b's
	// declarations can name c's types), so a is instrumented again too.
	edit("c/c.go", "func C(x int) int {", "func C(x int) int64 {")
	step("c's result type changed", opts, nil, all, nil)

	// a has a native target, so the default build has comparison probes:
	// -cmp=false misses, and -cmp is the default.
	o := opts
	o.NoCmp = true
	step("-cmp=false", o, nil, all, nil)
	step("-cmp=false rebuild", o, all, nil, nil)
	o = opts
	o.Cmp = true
	step("-cmp", o, all, nil, nil)
	o = opts
	o.Tags = "sometag"
	step("-tags", o, nil, all, nil)
	o = opts
	o.Counts = true
	counts := step("-counts", o, all, nil, nil)
	fc, fa := overlayFiles(t, counts), overlayFiles(t, prepare(t, opts))
	for name, src := range fa {
		if filepath.Base(name) == "mapsize.go" {
			if !strings.Contains(fc[name], "CountLaps = true") || !strings.Contains(src, "CountLaps = false") {
				t.Errorf("-counts: mapsize.go\n%s\nwithout:\n%s", fc[name], src)
			}
		} else if fc[name] != src {
			t.Errorf("-counts changed %s", name)
		}
	}
	o = opts
	o.MapBits = 14
	step("-mapbits", o, all, nil, nil)
}

// entryFile returns the cache file holding the entry of package path (not
// of its test files), or with file != "", the entry of that file of the
// package.
func entryFile(t *testing.T, cache, path, file string) string {
	t.Helper()
	var found string
	filepath.WalkDir(filepath.Join(cache, "pkg"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		e, err := decodeEntry(data, d.Name())
		if err != nil || e.Template.Path != path {
			return nil
		}
		if file == "" && e.API != fileEntry && e.API != testEntry || file != "" && e.API == fileEntry && e.Template.Files[0].Name == file {
			found = p
		}
		return nil
	})
	if found == "" {
		t.Fatalf("no cache entry for %s", path)
	}
	return found
}

// TestCacheDamagedEntry: an entry that is truncated, has a flipped byte,
// holds another key's entry or an ill-formed template is detected, the
// package is instrumented again (the build is the same as without the
// cache) and the entry rewritten; never a crash.
func TestCacheDamagedEntry(t *testing.T) {
	dir := editModule(t)
	cache := t.TempDir()
	opts := Options{Patterns: []string{"./a"}, Dir: dir, Cache: cache}
	const a, b = "example.com/m/a", "example.com/m/b"
	prepare(t, opts)
	ref := prepare(t, Options{Patterns: opts.Patterns, Dir: dir, Cache: "off"})
	fileA := entryFile(t, cache, a, "")
	good, err := os.ReadFile(fileA)
	if err != nil {
		t.Fatal(err)
	}
	otherEntry, err := os.ReadFile(entryFile(t, cache, b, ""))
	if err != nil {
		t.Fatal(err)
	}
	badTemplate := func() []byte {
		e, err := decodeEntry(good, filepath.Base(fileA))
		if err != nil {
			t.Fatal(err)
		}
		e.Template.Files[0].IDs[0].Offset = len(e.Template.Files[0].Src) + 5
		c := &buildCache{dir: t.TempDir()}
		if err := c.put(e); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(c.entryPath(e.Key))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}()
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	for name, data := range map[string][]byte{
		"truncated":        good[:len(good)/2],
		"empty":            nil,
		"flipped byte":     flipped,
		"another key":      otherEntry,
		"bad template":     badTemplate,
		"header only":      []byte(entryHeader),
		"not an entry":     []byte("package a\n"),
		"trailing garbage": append(slices.Clone(good), "x"...),
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(fileA, data, 0o644); err != nil {
				t.Fatal(err)
			}
			p := prepare(t, opts)
			if !slices.Equal(p.Cache.Corrupt, []string{a}) || !slices.Equal(p.Cache.Misses, []string{a}) {
				t.Errorf("corrupt %v, misses %v; want %s in both", p.Cache.Corrupt, p.Cache.Misses, a)
			}
			sameBuild(t, "after a damaged entry", ref, p)
			again := prepare(t, opts)
			if len(again.Cache.Misses) != 0 || len(again.Cache.Corrupt) != 0 {
				t.Errorf("the entry was not rewritten: misses %v, corrupt %v", again.Cache.Misses, again.Cache.Corrupt)
			}
		})
	}
	// A damaged entry of one file is found when its package misses: the
	// file is instrumented again.
	t.Run("file entry", func(t *testing.T) {
		aGo := filepath.Join(dir, "a", "a.go")
		f := entryFile(t, cache, a, aGo)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0x40
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
		appendTo(t, filepath.Join(dir, "a", "a2.go"), "\n// edited\n")
		p := prepare(t, opts)
		if !slices.Equal(p.Cache.Corrupt, []string{a}) || !slices.Equal(p.checked.files, []string{aGo, filepath.Join(dir, "a", "a2.go")}) {
			t.Errorf("corrupt %v, files instrumented %v; want %s, and both files of a", p.Cache.Corrupt, p.checked.files, a)
		}
		sameBuild(t, "after a damaged file entry", prepare(t, Options{Patterns: opts.Patterns, Dir: dir, Cache: "off"}), p)
	})
	// So is a damaged entry of a package's test files.
	t.Run("test files entry", func(t *testing.T) {
		opts := opts
		opts.Cache = t.TempDir() // one entry of a's test files
		prepare(t, opts)
		var f string
		filepath.WalkDir(filepath.Join(opts.Cache, "pkg"), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, _ := os.ReadFile(p)
			if e, err := decodeEntry(data, d.Name()); err == nil && e.API == testEntry && e.Template.Path == a {
				f = p
			}
			return nil
		})
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0x40
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
		p := prepare(t, opts)
		if !slices.Equal(p.Cache.Corrupt, []string{a}) || len(p.Cache.Misses) != 0 || !slices.Equal(p.Cache.TestMisses, []string{a}) {
			t.Errorf("corrupt %v, misses %v, test files instrumented %v; want %s's test files only", p.Cache.Corrupt, p.Cache.Misses, p.Cache.TestMisses, a)
		}
		sameBuild(t, "after a damaged test files entry", prepare(t, Options{Patterns: opts.Patterns, Dir: dir, Cache: "off"}), p)
	})
}

// TestCacheDamagedModuleCopy: a module copy in the cache that lost a file
// or whose file changed size is made again.
func TestCacheDamagedModuleCopy(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "instrument", "thirdparty")
	cache := t.TempDir()
	opts := Options{Patterns: []string{"."}, Dir: dir, Cache: cache}
	ref := prepare(t, opts)
	copies, err := filepath.Glob(filepath.Join(cache, "mod", "*", "decode.go"))
	if err != nil || len(copies) != 1 {
		t.Fatalf("toml's copy in the cache: %v %v", copies, err)
	}
	mod := filepath.Dir(copies[0])
	if err := os.Remove(filepath.Join(mod, "decode.go")); err != nil {
		t.Fatal(err)
	}
	appendTo(t, filepath.Join(mod, "encode.go"), "// damaged\n")
	if checkCopy(mod) {
		t.Fatal("checkCopy accepts a damaged copy")
	}
	p := prepare(t, opts)
	if !checkCopy(mod) {
		t.Error("the damaged copy was not made again")
	}
	if _, err := os.Stat(filepath.Join(mod, "decode.go")); err != nil {
		t.Error(err)
	}
	sameBuild(t, "after a damaged module copy", ref, p)
}

// TestCacheConcurrentBuilds: builds sharing an empty cache at the same
// time all succeed with the same result, and leave a cache the next build
// takes everything from.
func TestCacheConcurrentBuilds(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "instrument", "thirdparty")
	cache := t.TempDir()
	opts := Options{Patterns: []string{"."}, Dir: dir, Cache: cache}
	const n = 4
	preps := make([]*Prepared, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			preps[i], errs[i] = Prepare(context.Background(), opts)
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("build %d: %v", i, errs[i])
		}
		t.Cleanup(func() { preps[i].Cleanup() })
	}
	for i := 1; i < n; i++ {
		sameBuild(t, fmt.Sprintf("concurrent builds 0 and %d", i), preps[0], preps[i])
	}
	p := prepare(t, opts)
	if len(p.Cache.Misses) != 0 || len(p.Cache.Corrupt) != 0 {
		t.Errorf("after concurrent builds: misses %v, corrupt %v", p.Cache.Misses, p.Cache.Corrupt)
	}
	sameBuild(t, "after concurrent builds", preps[0], p)
	if tmp, _ := filepath.Glob(filepath.Join(cache, "mod", "tmp-*")); len(tmp) != 0 {
		t.Errorf("temporary copies left: %v", tmp)
	}
}

// TestMergeDictionaries: merging per-package dictionaries gives what
// collecting from all the files at once gives, also past MaxDictTokens.
func TestMergeDictionaries(t *testing.T) {
	lits := func(from, to int) string {
		var b strings.Builder
		b.WriteString("package p\n\nvar _ = []string{")
		for i := from; i < to; i++ {
			fmt.Fprintf(&b, "%q, ", fmt.Sprint("t", i))
		}
		b.WriteString("}\n")
		return b.String()
	}
	fset := token.NewFileSet()
	parse := func(src string) *ast.File {
		f, err := parser.ParseFile(fset, "x.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	pkgs := [][]*ast.File{
		{parse(lits(0, 10))},
		{parse(lits(5, 30)), parse(lits(0, 3))},
		{parse(lits(0, MaxDictTokens+500))},
		{parse(lits(MaxDictTokens+400, MaxDictTokens+900))},
	}
	for n := 1; n <= len(pkgs); n++ {
		var all []*ast.File
		var lists [][]string
		for _, files := range pkgs[:n] {
			all = append(all, files...)
			lists = append(lists, CollectDictionary(files))
		}
		if got, want := mergeDictionaries(lists), CollectDictionary(all); !slices.Equal(got, want) {
			t.Errorf("%d packages: merged %d tokens, collected %d", n, len(got), len(want))
		}
	}
}

// TestCacheCgo: a build with a cgo package falls back to go/packages for
// what the cache misses (keys from source: editing b re-instruments a
// too), and builds what a build with the cache off builds.
func TestCacheCgo(t *testing.T) {
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is off")
	}
	dir := t.TempDir()
	testmod.Write(t, dir, map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nimport \"example.com/m/b\"\n\nfunc A(x int) bool {\n\tif x > 2 && b.Debug {\n\t\treturn b.B(x) > 1\n\t}\n\treturn false\n}\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc FuzzA(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, x int) { A(x) })\n}\n",
		"b/b.go":      "package b\n\nconst Debug = false\n\nfunc B(x int) int {\n\tif x > 4 {\n\t\treturn twice(x)\n\t}\n\treturn 0\n}\n",
		"b/cgo.go":    "package b\n\n// static int twice(int x) { return 2 * x; }\nimport \"C\"\n\nfunc twice(x int) int { return int(C.twice(C.int(x))) }\n",
	})
	cache := t.TempDir()
	opts := Options{Patterns: []string{"./a"}, Dir: dir, Cache: cache}
	const a, b = "example.com/m/a", "example.com/m/b"
	cold := prepare(t, opts)
	if !slices.Equal(cold.Cache.Misses, []string{a, b}) || !slices.Equal(cold.checked.full, []string{a, b}) ||
		!slices.Equal(cold.Cache.TestMisses, []string{a}) || !slices.Equal(cold.checked.tests, []string{a}) || cold.TestProbes == 0 {
		t.Errorf("first build: misses %v, type-checked %v; test files instrumented %v, type-checked %v, %d probes", cold.Cache.Misses, cold.checked.full, cold.Cache.TestMisses, cold.checked.tests, cold.TestProbes)
	}
	sameBuild(t, "cgo: cached vs cache off", prepare(t, Options{Patterns: opts.Patterns, Dir: dir, Cache: "off"}), cold)
	if warm := prepare(t, opts); !slices.Equal(warm.Cache.Hits, []string{a, b}) || len(warm.checked.full) != 0 || !slices.Equal(warm.Cache.TestHits, []string{a}) || len(warm.checked.tests) != 0 {
		t.Errorf("rebuild: hits %v, type-checked %v; test files from the cache %v, type-checked %v", warm.Cache.Hits, warm.checked.full, warm.Cache.TestHits, warm.checked.tests)
	}
	appendTo(t, filepath.Join(dir, "a", "a.go"), "\n// edited\n")
	if p := prepare(t, opts); !slices.Equal(p.Cache.Misses, []string{a}) {
		t.Errorf("a edited: misses %v", p.Cache.Misses)
	}
	appendTo(t, filepath.Join(dir, "b", "b.go"), "\n// edited\n")
	if p := prepare(t, opts); !slices.Equal(p.Cache.Misses, []string{a, b}) {
		t.Errorf("b edited: misses %v", p.Cache.Misses)
	}
}
