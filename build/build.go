// Package build is the library behind gfz-build: it loads packages with
// golang.org/x/tools/go/packages, instruments them with package instrument
// into a go command build overlay (the user's tree is never written), sizes
// the coverage map from the probe count, and builds one fuzz binary per
// package that declares gfz fuzz targets with
//
//	go test -c -overlay overlay.json -ldflags "-X github.com/gfz-dev/gfz.buildInfo=..." -o OUT PKG
//
// Prepare does everything up to the overlay (callers such as tests or
// gfz-run can hand the overlay to their own go command); Build also runs the
// go command.
package build

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"
	"golang.org/x/tools/go/packages"

	"github.com/gfz-dev/gfz/instrument"
)

// Options configure Prepare and Build.
type Options struct {
	Patterns []string // packages to instrument and build (main module only); default "."
	Cover    []string // extra packages to instrument: other modules' and std packages
	Tags     string   // comma-separated build tags (go -tags)
	Race     bool     // build with -race
	Output   string   // Build: output file (one binary) or directory (several); default ./<pkgname>.gfz
	Work     bool     // keep the work directory with the rewritten files
	MapBits  int      // log2 of the map size; 0 chooses it from the probe count
	Dir      string   // directory to run in (the user's module); default the current directory
	Verbose  bool     // print per-package details and the collision estimate
	Stdout   io.Writer
	Stderr   io.Writer
}

// InstrumentedPackage describes one rewritten package.
type InstrumentedPackage struct {
	Path   string // import path
	Std    bool   // standard-library package (linkname scheme)
	Files  int    // rewritten files
	Probes int
}

// Binary is one fuzz binary produced by Build.
type Binary struct {
	Package string   // import path of the package with the targets
	Dir     string   // its source directory (run the binary there to find testdata/fuzz seeds)
	Output  string   // absolute path of the binary
	Targets []string // gfz fuzz targets, in source order
	Probes  int      // probes of all instrumented packages
}

// Prepared is the result of Prepare: an overlay ready for the go command.
type Prepared struct {
	Overlay       string                // absolute path of the overlay JSON
	WorkDir       string                // directory holding the overlay and rewritten files
	Packages      []InstrumentedPackage // in load order
	Targets       map[string][]string   // package path -> gfz fuzz targets, for matched packages that have some
	TargetOrder   []string              // package paths of Targets, in load order
	Names         map[string]string     // package path -> package name, for matched packages
	Dirs          map[string]string     // package path -> source directory, for matched packages
	MapBits       int
	Probes        int      // total probes
	CollisionRate float64  // expected fraction of colliding edges (see CollisionRate)
	BuildFlags    []string // -tags, -race, -modfile: pass them (with -overlay) to the go command
	Dictionary    []string // string and number literals of the instrumented packages (see CollectDictionary)
	Env           []string // extra environment for the go command (GOWORK when in workspace mode)
}

// GoFlags returns the flags to add to a go build/test/run command to build
// against the instrumented sources: -overlay plus BuildFlags. Run the go
// command in Options.Dir with Env appended to the environment.
func (p *Prepared) GoFlags() []string {
	return append([]string{"-overlay", p.Overlay}, p.BuildFlags...)
}

// Result is the result of Build.
type Result struct {
	*Prepared
	Binaries []Binary
}

// Cleanup removes the work directory.
func (p *Prepared) Cleanup() error {
	if p == nil || p.WorkDir == "" {
		return nil
	}
	return os.RemoveAll(p.WorkDir)
}

// BuildInfo returns the value gfz-build stores in
// github.com/gfz-dev/gfz.buildInfo for a binary with the given targets: a
// URL query string, url.Values.Encode order, e.g.
// mapbits=16&probes=1234&targets=FuzzA%2CFuzzB&v=1.
func BuildInfo(targets []string, mapBits, probes int) string {
	v := url.Values{}
	v.Set("v", "1")
	v.Set("targets", strings.Join(targets, ","))
	v.Set("mapbits", strconv.Itoa(mapBits))
	v.Set("probes", strconv.Itoa(probes))
	return v.Encode()
}

func (o *Options) defaults() {
	if len(o.Patterns) == 0 {
		o.Patterns = []string{"."}
	}
	if o.Stdout == nil {
		o.Stdout = io.Discard
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.Dir == "" {
		o.Dir = "."
	}
}

func (o *Options) buildFlags() []string {
	var f []string
	if o.Tags != "" {
		f = append(f, "-tags="+o.Tags)
	}
	if o.Race {
		f = append(f, "-race")
	}
	return f
}

// Refusal returns why the package with the given import path cannot be
// instrumented, or "" if it can. std reports whether it is a
// standard-library package.
func Refusal(path string, std bool) string {
	switch {
	case path == instrument.RuntimePath || strings.HasPrefix(path, instrument.RuntimePath+"/"):
		return "it is gfz's probe runtime"
	case !std:
		return ""
	case path == "unsafe" || path == "C":
		return "it is not a real package"
	case path == "runtime" || strings.HasPrefix(path, "runtime/"):
		return "the Go runtime cannot call probes"
	case path == "sync/atomic" || path == "syscall" || path == "os/signal/internal/pty":
		return "the runtime depends on it (or it runs between fork and exec)"
	case path == "internal" || strings.HasPrefix(path, "internal/") || strings.Contains(path, "/internal/") || strings.HasPrefix(path, "vendor/"):
		return "standard-library internal packages are runtime dependencies or not importable"
	}
	return ""
}

func isStd(p *packages.Package) bool {
	if p.Module != nil {
		return false
	}
	first, _, _ := strings.Cut(p.PkgPath, "/")
	return !strings.Contains(first, ".")
}

// loadErrors reports the errors that prevent instrumentation: patterns
// that match nothing, list errors and parse errors. Type errors and failed
// compiles of the packages themselves are left to the go command, which
// reports them verbatim when it builds the instrumented package.
func loadErrors(pkgs []*packages.Package) error {
	var msgs []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			if e.Kind == packages.ParseError || len(p.Syntax) == 0 && e.Kind != packages.TypeError {
				msgs = append(msgs, e.Error())
			}
		}
	}
	if len(msgs) > 0 {
		return errors.New(strings.Join(msgs, "\n"))
	}
	return nil
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule

// Prepare loads and instruments the packages and writes the overlay.
func Prepare(ctx context.Context, opts Options) (*Prepared, error) {
	opts.defaults()
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	flags := opts.buildFlags()
	cfg := &packages.Config{Context: ctx, Dir: dir, Mode: loadMode, BuildFlags: flags}

	matched, err := packages.Load(cfg, opts.Patterns...)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", strings.Join(opts.Patterns, " "), err)
	}
	if err := loadErrors(matched); err != nil {
		return nil, fmt.Errorf("load %s: %w", strings.Join(opts.Patterns, " "), err)
	}
	var todo []*packages.Package
	seen := map[string]bool{}
	names, dirs := map[string]string{}, map[string]string{}
	for _, p := range matched {
		if p.Module == nil || !p.Module.Main {
			continue // -cover is the way to instrument other modules
		}
		if why := Refusal(p.PkgPath, false); why != "" {
			return nil, fmt.Errorf("cannot instrument %s: %s", p.PkgPath, why)
		}
		if !seen[p.PkgPath] {
			seen[p.PkgPath] = true
			todo = append(todo, p)
			names[p.PkgPath] = p.Name
			dirs[p.PkgPath] = packageDir(p)
		}
	}
	if len(todo) == 0 {
		return nil, fmt.Errorf("gfz-build: patterns %s match no package of the main module", strings.Join(opts.Patterns, " "))
	}
	if len(opts.Cover) > 0 {
		extra, err := packages.Load(cfg, opts.Cover...)
		if err != nil {
			return nil, fmt.Errorf("load -cover %s: %w", strings.Join(opts.Cover, " "), err)
		}
		if err := loadErrors(extra); err != nil {
			return nil, fmt.Errorf("load -cover %s: %w", strings.Join(opts.Cover, " "), err)
		}
		for _, p := range extra {
			if why := Refusal(p.PkgPath, isStd(p)); why != "" {
				return nil, fmt.Errorf("-cover: cannot instrument %s: %s", p.PkgPath, why)
			}
			if !seen[p.PkgPath] {
				seen[p.PkgPath] = true
				todo = append(todo, p)
			}
		}
	}

	// The probe runtime's directory (for mapsize.go) and the test files
	// (for fuzz targets).
	light := &packages.Config{Context: ctx, Dir: dir, Mode: packages.NeedName | packages.NeedFiles, BuildFlags: flags, Tests: true}
	lp, err := packages.Load(light, append([]string{instrument.RuntimePath}, opts.Patterns...)...)
	if err != nil {
		return nil, fmt.Errorf("load tests: %w", err)
	}
	var runtimeDir string
	targets := map[string][]string{}
	var order []string
	for _, p := range lp {
		if p.PkgPath == instrument.RuntimePath && len(p.GoFiles) > 0 {
			runtimeDir = filepath.Dir(p.GoFiles[0])
		}
		under, ok := testVariantOf(p.ID)
		if !ok || names[under] == "" {
			continue
		}
		for _, f := range p.GoFiles {
			if !strings.HasSuffix(f, "_test.go") {
				continue
			}
			ts, err := FuzzTargets(f, nil)
			if err != nil {
				return nil, fmt.Errorf("find fuzz targets: %w", err)
			}
			for _, t := range ts {
				if !slices.Contains(targets[under], t) {
					if targets[under] == nil {
						order = append(order, under)
					}
					targets[under] = append(targets[under], t)
				}
			}
		}
	}
	if runtimeDir == "" {
		return nil, fmt.Errorf("gfz-build: %s is not available from %s: add github.com/gfz-dev/gfz to the module (go get github.com/gfz-dev/gfz)", instrument.RuntimePath, dir)
	}

	// Instrument, in parallel.
	ips := make([]*instrument.Package, len(todo))
	var g errgroup.Group
	g.SetLimit(4)
	for i, p := range todo {
		g.Go(func() error {
			ip, err := instrumentPackage(p)
			ips[i] = ip
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	total := 0
	for _, ip := range ips {
		total += len(ip.Probes)
	}
	bits := opts.MapBits
	if bits == 0 {
		bits = ChooseMapBits(total)
	} else if bits < 8 || bits > 28 {
		return nil, fmt.Errorf("gfz-build: -mapbits %d out of range [8, 28]", bits)
	}

	work, err := os.MkdirTemp("", "gfz-build-")
	if err != nil {
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	prep := &Prepared{
		WorkDir: work, Targets: targets, TargetOrder: order, Names: names, Dirs: dirs, MapBits: bits,
		Probes: total, CollisionRate: CollisionRate(total*EdgesPerProbe, bits), BuildFlags: flags,
		Dictionary: packageDictionary(todo),
	}
	envs, err := goEnv(dir, "GOMODCACHE", "GOMOD", "GOWORK")
	if err != nil {
		prep.Cleanup()
		return nil, err
	}
	rel, err := relocateModules(work, envs[0], todo)
	if err == nil {
		var extra []string
		extra, prep.Env, err = redirect(work, envs[1], envs[2], rel)
		prep.BuildFlags = append(prep.BuildFlags, extra...)
	}
	if err != nil {
		prep.Cleanup()
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	replace := map[string]string{}
	for i, ip := range ips {
		if err := writePackage(work, i, ip, todo[i], bits, rel, replace); err != nil {
			prep.Cleanup()
			return nil, err
		}
		prep.Packages = append(prep.Packages, InstrumentedPackage{Path: ip.Path, Std: ip.Std, Files: len(ip.Files()), Probes: len(ip.Probes)})
	}
	mapsize := filepath.Join(work, "mapsize.go")
	src := fmt.Sprintf("// Code generated by gfz-build. DO NOT EDIT.\n\npackage runtime\n\n// MapBits is log2 of the coverage map size, chosen by gfz-build.\nconst MapBits = %d\n", bits)
	if err := os.WriteFile(mapsize, []byte(src), 0o644); err != nil {
		prep.Cleanup()
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	replace[filepath.Join(runtimeDir, "mapsize.go")] = mapsize
	js, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err != nil {
		prep.Cleanup()
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	prep.Overlay = filepath.Join(work, "overlay.json")
	if err := os.WriteFile(prep.Overlay, js, 0o644); err != nil {
		prep.Cleanup()
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	return prep, nil
}

// testVariantOf maps a go/packages test-variant ID ("p [p.test]",
// "p_test [p.test]") to the package under test.
func testVariantOf(id string) (string, bool) {
	_, br, ok := strings.Cut(id, " [")
	if !ok || !strings.HasSuffix(br, ".test]") {
		return "", false
	}
	return strings.TrimSuffix(br, ".test]"), true
}

func instrumentPackage(p *packages.Package) (*instrument.Package, error) {
	ip := instrument.NewPackage(p.PkgPath, p.Name, isStd(p), p.Fset, p.TypesInfo)
	goFiles := map[string]bool{}
	for _, f := range p.GoFiles {
		goFiles[f] = true
	}
	for _, f := range p.Syntax {
		name := p.Fset.File(f.Pos()).Name()
		if !goFiles[name] || instrument.ImportsC(f) || generatedByCgo(f) {
			continue
		}
		if err := ip.AddFile(f); err != nil {
			return nil, fmt.Errorf("instrument %s: %w", p.PkgPath, err)
		}
	}
	return ip, nil
}

// packageDir returns the source directory of a loaded package.
func packageDir(p *packages.Package) string {
	if p.Dir != "" {
		return p.Dir
	}
	if len(p.GoFiles) > 0 {
		return filepath.Dir(p.GoFiles[0])
	}
	return ""
}

func generatedByCgo(f *ast.File) bool {
	for _, c := range f.Comments {
		if c.Pos() > f.Package {
			break
		}
		if strings.Contains(c.Text(), "Code generated by cmd/cgo") {
			return true
		}
	}
	return false
}

// writePackage writes the rewritten files and the registration file of one
// package: into the overlay, or straight into the module copy for relocated
// modules.
func writePackage(work string, i int, ip *instrument.Package, p *packages.Package, bits int, rel []relocation, replace map[string]string) error {
	if len(p.GoFiles) == 0 {
		return fmt.Errorf("instrument %s: no Go files", p.PkgPath)
	}
	pdir := filepath.Join(work, fmt.Sprintf("%03d_%s", i, p.Name))
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		return fmt.Errorf("instrument %s: %w", p.PkgPath, err)
	}
	rendered, err := ip.Render(bits)
	if err != nil {
		return fmt.Errorf("instrument %s: %w", p.PkgPath, err)
	}
	put := func(orig string, src []byte) error {
		if moved, ok := relocate(rel, orig); ok {
			return os.WriteFile(moved, src, 0o644)
		}
		out := filepath.Join(pdir, filepath.Base(orig))
		replace[orig] = out
		return os.WriteFile(out, src, 0o644)
	}
	for _, r := range rendered {
		if err := put(r.Name, r.Src); err != nil {
			return fmt.Errorf("instrument %s: %w", p.PkgPath, err)
		}
	}
	reg := filepath.Join(filepath.Dir(p.GoFiles[0]), instrument.RegistrationFileName)
	if _, err := os.Stat(reg); err == nil {
		return fmt.Errorf("instrument %s: %s already exists in the package", p.PkgPath, instrument.RegistrationFileName)
	}
	if err := put(reg, ip.RegistrationSource(bits)); err != nil {
		return fmt.Errorf("instrument %s: %w", p.PkgPath, err)
	}
	return nil
}

// Build prepares the overlay and builds one fuzz binary per matched package
// with gfz fuzz targets. Errors of the go command are written to
// opts.Stderr verbatim; they name the user's files and lines.
func Build(ctx context.Context, opts Options) (*Result, error) {
	opts.defaults()
	prep, err := Prepare(ctx, opts)
	if err != nil {
		return nil, err
	}
	res := &Result{Prepared: prep}
	if opts.Work {
		fmt.Fprintf(opts.Stderr, "WORK=%s\n", prep.WorkDir)
	} else {
		defer prep.Cleanup()
	}
	if opts.Verbose {
		for _, p := range prep.Packages {
			kind := ""
			if p.Std {
				kind = " (std, linkname)"
			}
			fmt.Fprintf(opts.Stderr, "instrumented %s: %d files, %d probes%s\n", p.Path, p.Files, p.Probes, kind)
		}
		fmt.Fprintf(opts.Stderr, "map: %d probes, MapBits=%d (%d entries), expected edge collision rate %.2f%% (assuming %d edges per probe)\n",
			prep.Probes, prep.MapBits, 1<<prep.MapBits, 100*prep.CollisionRate, EdgesPerProbe)
	}
	if len(prep.TargetOrder) == 0 {
		return res, fmt.Errorf("gfz-build: no gfz fuzz targets (func FuzzXxx(f *testing.F) calling gfz.Fuzz in a _test.go file) in %s", strings.Join(opts.Patterns, " "))
	}
	dir, _ := filepath.Abs(opts.Dir)
	outputs, err := outputPaths(dir, opts.Output, prep)
	if err != nil {
		return res, err
	}
	for _, pkg := range prep.TargetOrder {
		out := outputs[pkg]
		args := []string{"test", "-c", "-overlay", prep.Overlay,
			"-ldflags", "-X " + GfzPath + ".buildInfo=" + BuildInfo(prep.Targets[pkg], prep.MapBits, prep.Probes) + " " + DictionaryLdflag(prep.Dictionary),
			"-o", out}
		args = append(args, prep.BuildFlags...)
		args = append(args, pkg)
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), prep.Env...)
		cmd.Stdout = opts.Stdout
		cmd.Stderr = opts.Stderr
		if opts.Verbose {
			fmt.Fprintf(opts.Stderr, "go %s\n", strings.Join(args, " "))
		}
		if err := cmd.Run(); err != nil {
			return res, fmt.Errorf("go test -c %s: %w", pkg, err)
		}
		res.Binaries = append(res.Binaries, Binary{Package: pkg, Dir: prep.Dirs[pkg], Output: out, Targets: prep.Targets[pkg], Probes: prep.Probes})
	}
	return res, nil
}

func outputPaths(dir, output string, prep *Prepared) (map[string]string, error) {
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	outs := map[string]string{}
	if len(prep.TargetOrder) == 1 {
		pkg := prep.TargetOrder[0]
		if output == "" {
			output = prep.Names[pkg] + ".gfz"
		} else if fi, err := os.Stat(abs(output)); err == nil && fi.IsDir() {
			output = filepath.Join(output, prep.Names[pkg]+".gfz")
		}
		outs[pkg] = abs(output)
		return outs, nil
	}
	if output == "" {
		output = "."
	}
	odir := abs(output)
	if err := os.MkdirAll(odir, 0o755); err != nil {
		return nil, fmt.Errorf("gfz-build: -o: %w", err)
	}
	used := map[string]bool{}
	for _, pkg := range prep.TargetOrder {
		name := prep.Names[pkg] + ".gfz"
		if used[name] {
			name = strings.NewReplacer("/", "_", ".", "_").Replace(pkg) + ".gfz"
		}
		used[name] = true
		outs[pkg] = filepath.Join(odir, name)
	}
	return outs, nil
}
