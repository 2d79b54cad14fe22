package workdir

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Default work directories. A fuzzer must not write into the source tree
// it was not asked to write into, so a fuzz binary run without -workdir,
// and gfz-run without -workdir, keep their work directories in gfz's
// cache, as go test -fuzz keeps its corpus in $(go env GOCACHE)/fuzz:
//
//	<cache>/work/<module>-<hash>/<import path>/<FuzzTarget>
//
// where <cache> is CacheDir(), <module> the base name of the directory of
// the module the package belongs to and <hash> a hash of that directory's
// absolute path: two checkouts of the same module never share failures
// (a failure known from one would go unreported in the other), two
// packages or targets never share a directory, and a fuzz binary run
// directly and gfz-run (whose work directories are
// <-workdir>/<import path>/<FuzzTarget>) use the same one for a target.
// The directory persists across runs, so a run resumes the last one's
// corpus.

// CacheEnv names the environment variable that sets gfz's cache
// directory, as GOCACHE sets Go's.
const CacheEnv = "GFZCACHE"

// CacheDir returns gfz's cache directory: $GFZCACHE when set, otherwise
// gfz under the user's cache directory (os.UserCacheDir: $XDG_CACHE_HOME
// or ~/.cache on Linux, ~/Library/Caches on macOS), or under the
// temporary directory when there is none.
func CacheDir() string {
	if d := os.Getenv(CacheEnv); d != "" {
		if abs, err := filepath.Abs(d); err == nil {
			return abs
		}
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "gfz")
	}
	return filepath.Join(os.TempDir(), "gfz-cache-"+strconv.Itoa(os.Getuid()))
}

// DefaultRoot returns the default parent of the work directories of the
// packages of the module containing dir ("": the current directory), each
// of which is <root>/<import path>/<FuzzTarget>: gfz-run's default
// -workdir. Outside a module it is keyed by dir itself.
func DefaultRoot(dir string) string {
	root, _ := moduleOf(absDir(dir))
	sum := sha256.Sum256([]byte(root))
	name := filepath.Base(root)
	if name == string(filepath.Separator) || name == "." || name == "" {
		name = "root"
	}
	return filepath.Join(CacheDir(), "work", name+"-"+hex.EncodeToString(sum[:])[:12])
}

// DefaultDir returns the default work directory of fuzz target target of
// the package in directory pkgDir ("": the current directory):
// DefaultRoot(pkgDir)/<import path>/<target>, the import path read from
// the go.mod of the module containing pkgDir (outside a module, the target
// alone).
func DefaultDir(pkgDir, target string) string {
	dir := absDir(pkgDir)
	root, modPath := moduleOf(dir)
	imp := modPath // the import path (a go.mod without a module line: the directory in the module)
	if rel, err := filepath.Rel(root, dir); err == nil && rel != "." {
		imp = path.Join(modPath, filepath.ToSlash(rel))
	}
	return filepath.Join(DefaultRoot(dir), filepath.FromSlash(imp), target)
}

// absDir returns dir ("": the current directory) absolute, with symbolic
// links resolved when it exists, so that the same directory always gives
// the same key.
func absDir(dir string) string {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// moduleOf returns the directory of the go.mod at or above dir and the
// module path it declares; dir and "" when there is none (or it declares
// none).
func moduleOf(dir string) (root, modPath string) {
	for d := dir; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			return d, modulePath(data)
		}
		if filepath.Dir(d) == d {
			return dir, ""
		}
	}
}

// modulePath returns the path of a go.mod's module directive ("" if none).
func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(strings.NewReader(string(gomod)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			p := f[1]
			if u, err := strconv.Unquote(p); err == nil {
				p = u
			}
			return p
		}
	}
	return ""
}
