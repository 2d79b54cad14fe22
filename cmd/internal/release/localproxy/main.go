// Command localproxy checks gfz as a user gets it from a module proxy,
// without publishing anything: it packs this checkout's two modules (the
// library and the tools) as version VERSION into a local file proxy, with
// the tools' go.mod requiring the library at that version as a release
// would, and then, in fresh temporary modules and a fresh module cache
// (other modules come from the machine's module cache, so no network):
//
//  1. go install github.com/gfz-dev/gfz/cmd/gfz-build@VERSION (and gfz-run);
//  2. the installed gfz-build builds a module that does not require gfz
//     (its library found in the module cache), leaving go.mod and go.sum
//     byte-identical;
//  3. go get github.com/gfz-dev/gfz@VERSION (a module with gfz targets)
//     adds the library and moves no other module's version;
//  4. the tool-directive set-up (go get -tool .../cmd/gfz-build@VERSION,
//     go mod tidy) converges: a second go mod tidy changes nothing, and
//     go tool gfz-build builds the module's fuzz binary.
//
// Usage, from the repository root:
//
//	go run ./cmd/internal/release/localproxy [-v VERSION] [-keep]
//
// It prints one line per check and exits 1 if one fails.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	modzip "golang.org/x/mod/zip"
)

const lib = "github.com/gfz-dev/gfz"

func main() {
	version := flag.String("v", "v0.1.0", "the version to pack both modules as")
	keep := flag.Bool("keep", false, "keep the temporary directory")
	flag.Parse()
	root, err := os.Getwd()
	if err != nil {
		fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", "go.mod")); err != nil {
		fatal(fmt.Errorf("run from the root of a gfz checkout: %w", err))
	}
	tmp, err := os.MkdirTemp("", "gfz-localproxy-")
	if err != nil {
		fatal(err)
	}
	if *keep {
		fmt.Println("directory:", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	c := &checker{root: root, tmp: tmp, version: *version}
	if err := c.pack(); err != nil {
		fatal(err)
	}
	c.run()
	if c.failed {
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "localproxy:", err)
	os.Exit(2)
}

type checker struct {
	root, tmp, version string
	proxy, cache, bin  string
	failed             bool
}

// pack writes the file proxy: both modules at c.version.
func (c *checker) pack() error {
	c.proxy = filepath.Join(c.tmp, "proxy")
	c.cache = filepath.Join(c.tmp, "modcache")
	c.bin = filepath.Join(c.tmp, "bin")
	libZip, libMod, err := c.packModule(lib, c.root, nil)
	if err != nil {
		return err
	}
	// The tools' go.mod as released: the library at this version, and the
	// go.sum lines for it.
	modData, err := os.ReadFile(filepath.Join(c.root, "cmd", "go.mod"))
	if err != nil {
		return err
	}
	mf, err := modfile.Parse("cmd/go.mod", modData, nil)
	if err != nil {
		return err
	}
	if err := mf.AddRequire(lib, c.version); err != nil {
		return err
	}
	toolsMod, err := mf.Format()
	if err != nil {
		return err
	}
	zh, err := dirhash.HashZip(libZip, dirhash.Hash1)
	if err != nil {
		return err
	}
	mh, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(libMod)), nil
	})
	if err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(c.root, "cmd", "go.sum"))
	if err != nil {
		return err
	}
	sum = append(sum, fmt.Sprintf("%s %s %s\n%s %s/go.mod %s\n", lib, c.version, zh, lib, c.version, mh)...)
	_, _, err = c.packModule(lib+"/cmd", filepath.Join(c.root, "cmd"), map[string][]byte{"go.mod": toolsMod, "go.sum": sum})
	return err
}

// packModule writes path@version from dir (with files replaced by
// override) into the proxy and returns the zip's path and the go.mod.
func (c *checker) packModule(path, dir string, override map[string][]byte) (string, []byte, error) {
	esc, err := module.EscapePath(path)
	if err != nil {
		return "", nil, err
	}
	vdir := filepath.Join(c.proxy, esc, "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return "", nil, err
	}
	src := dir
	if override != nil { // a copy of dir with the overridden files
		src = filepath.Join(c.tmp, "src", filepath.Base(dir))
		if err := copyModule(dir, src); err != nil {
			return "", nil, err
		}
		for name, b := range override {
			if err := os.WriteFile(filepath.Join(src, name), b, 0o644); err != nil {
				return "", nil, err
			}
		}
	}
	zipPath := filepath.Join(vdir, c.version+".zip")
	f, err := os.Create(zipPath)
	if err != nil {
		return "", nil, err
	}
	mv := module.Version{Path: path, Version: c.version}
	if err := modzip.CreateFromDir(f, mv, src); err != nil {
		f.Close()
		return "", nil, fmt.Errorf("zip %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", nil, err
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		return "", nil, err
	}
	info, _ := json.Marshal(struct{ Version, Time string }{c.version, "2026-11-27T00:00:00Z"})
	for name, b := range map[string][]byte{c.version + ".mod": gomod, c.version + ".info": info, "list": []byte(c.version + "\n")} {
		if err := os.WriteFile(filepath.Join(vdir, name), b, 0o644); err != nil {
			return "", nil, err
		}
	}
	return zipPath, gomod, nil
}

// copyModule copies the files of the module in from (no nested modules,
// no .git) to to.
func copyModule(from, to string) error {
	return filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			if p != from {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil || d.Name() == ".git" {
					return filepath.SkipDir
				}
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
}

// env is the environment of every go command: the file proxy, then the
// machine's module cache as a second proxy (no network), a fresh module
// cache, no workspace, no checksum database for gfz's modules.
func (c *checker) env() []string {
	real, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	fallback := filepath.Join(strings.TrimSpace(string(real)), "cache", "download")
	return append(os.Environ(),
		"GOPROXY=file://"+c.proxy+",file://"+fallback,
		"GOMODCACHE="+c.cache, "GOWORK=off", "GOFLAGS=-modcacherw", "GONOSUMDB="+lib, "GONOSUMCHECK=1",
		"GOSUMDB=off", "GOBIN="+c.bin, "GOTOOLCHAIN=local")
}

func (c *checker) cmd(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = c.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

func (c *checker) report(name string, start time.Time, err error) bool {
	if err != nil {
		c.failed = true
		fmt.Printf("FAIL %s (%.1fs): %v\n", name, time.Since(start).Seconds(), err)
		return false
	}
	fmt.Printf("ok   %s (%.1fs)\n", name, time.Since(start).Seconds())
	return true
}

const nativeTest = "package p\n\nimport \"testing\"\n\nfunc FuzzP(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, b []byte) {\n\t\tif len(b) > 3 && b[0] == 'x' {\n\t\t\t_ = b[1:]\n\t\t}\n\t})\n}\n"

// newModule writes a module with a native target in package p.
func (c *checker) newModule(name, goLine string) (string, error) {
	dir := filepath.Join(c.tmp, name)
	if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/"+name+"\n\ngo "+goLine+"\n"), 0o644); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "p", "p_test.go"), []byte(nativeTest), 0o644)
}

func (c *checker) run() {
	v := c.version
	start := time.Now()
	_, err := c.cmd(c.tmp, "go", "install", lib+"/cmd/gfz-build@"+v, lib+"/cmd/gfz-run@"+v)
	if !c.report("go install "+lib+"/cmd/gfz-build@"+v+" "+lib+"/cmd/gfz-run@"+v, start, err) {
		return
	}

	start = time.Now()
	plain, err := c.newModule("plain", "1.20")
	if err == nil {
		before, _ := os.ReadFile(filepath.Join(plain, "go.mod"))
		_, err = c.cmd(plain, filepath.Join(c.bin, "gfz-build"), "-o", filepath.Join(c.tmp, "plain.gfz"), "./p")
		after, _ := os.ReadFile(filepath.Join(plain, "go.mod"))
		if err == nil && !bytes.Equal(before, after) {
			err = fmt.Errorf("go.mod changed:\n%s", after)
		}
		if _, serr := os.Stat(filepath.Join(plain, "go.sum")); err == nil && serr == nil {
			err = fmt.Errorf("a go.sum appeared")
		}
	}
	c.report("the installed gfz-build builds a module without a gfz requirement (go 1.20), go.mod unchanged", start, err)

	start = time.Now()
	gen, err := c.newModule("gen", "1.22")
	if err == nil {
		_, err = c.cmd(gen, "go", "get", lib+"@"+v)
	}
	if err == nil {
		var out string
		out, err = c.cmd(gen, "go", "list", "-m", "all")
		if err == nil && strings.TrimSpace(out) != "example.com/gen\n"+lib+" "+v {
			err = fmt.Errorf("go list -m all after go get %s@%s:\n%s", lib, v, out)
		}
		b, _ := os.ReadFile(filepath.Join(gen, "go.mod"))
		if err == nil && !strings.Contains(string(b), "\ngo 1.22\n") {
			err = fmt.Errorf("go get raised the go line:\n%s", b)
		}
	}
	c.report("go get "+lib+"@"+v+" adds the library alone and keeps go 1.22", start, err)

	start = time.Now()
	tool, err := c.newModule("tool", "1.26.0")
	var first, second []byte
	if err == nil {
		_, err = c.cmd(tool, "go", "get", "-tool", lib+"/cmd/gfz-build@"+v)
	}
	if err == nil {
		_, err = c.cmd(tool, "go", "mod", "tidy")
		first, _ = os.ReadFile(filepath.Join(tool, "go.mod"))
	}
	if err == nil {
		_, err = c.cmd(tool, "go", "mod", "tidy")
		second, _ = os.ReadFile(filepath.Join(tool, "go.mod"))
		if err == nil && !bytes.Equal(first, second) {
			err = fmt.Errorf("a second go mod tidy changed go.mod:\n%s\nto\n%s", first, second)
		}
	}
	if err == nil {
		_, err = c.cmd(tool, "go", "tool", "gfz-build", "-o", filepath.Join(c.tmp, "tool.gfz"), "./p")
	}
	if err == nil {
		third, _ := os.ReadFile(filepath.Join(tool, "go.mod"))
		if _, err = c.cmd(tool, "go", "mod", "tidy"); err == nil {
			if fourth, _ := os.ReadFile(filepath.Join(tool, "go.mod")); !bytes.Equal(third, fourth) {
				err = fmt.Errorf("go mod tidy after go tool gfz-build changed go.mod")
			}
		}
	}
	c.report("tool directive: go get -tool, go mod tidy twice (no change), go tool gfz-build", start, err)
	if err == nil {
		fmt.Printf("     the tool module's go.mod after the set-up:\n%s", indent(string(second)))
	}
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n\t") + "\n"
}
