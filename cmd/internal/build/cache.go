package build

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/gfz-dev/gfz/cmd/internal/instrument"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// The build cache keeps what instrumenting a package produced, so that a
// rebuild instruments (and type-checks) only the packages whose inputs
// changed, as Go's own build cache recompiles only those.
//
// An entry is the package's instrument.Template (the rewritten files with
// the probe IDs still to be masked to the build's map size, the probe
// table, the comparison sites) and its dictionary literals, stored under a
// key that hashes everything the template depends on:
//
//   - gfz-build itself (the Go build ID of its executable), the cache
//     format, the go command's GOVERSION, GOROOT, GOOS, GOARCH, GOFLAGS,
//     CGO_ENABLED and GOEXPERIMENT, and -tags, -race and -cmp;
//   - the package's import path, name, whether it is a standard-library
//     package (linkname scheme), its module's go version, and the names
//     and contents of its files (a file in the module cache by its name
//     only, which holds the module version: those files never change);
//   - the API key of every package it imports (resolve.go, "Keys": a hash
//     of the import's package-level declarations' types and constants and
//     of its own imports' API keys, or of its source if it is not
//     instrumented;
//     GOVERSION and GOROOT stand for the standard library): the types of
//     imported declarations decide where probes go (a constant operand of
//     && gets none, comparison probes depend on operand types), so a
//     package is re-instrumented when a dependency's declarations change,
//     not when only a dependency's function bodies do.
//
// Probe IDs hash the package path, file base name, line, column and kind
// (instrument.ProbeID), so they are unique across the packages of a binary
// whatever was cached; only their masking depends on the build (the map
// size follows the total probe count), and is done when the template is
// filled in (instrument.Template.Render). -counts and -mapbits change only
// the runtime's mapsize.go, never an entry.
//
// Layout under the cache directory (Options.Cache; by default build/ in
// gfz's cache directory, $GFZCACHE or gfz in the user's cache directory):
//
//	pkg/<xx>/<key>        one entry: a header line, the gob-encoded entry, its SHA-256
//	mod/<id>/             a copy of a module-cache module (modcopy.go), reused by every build
//	trim.txt              when the cache was last trimmed
//
// Entries are written to a temporary file and renamed into place, so
// concurrent builds never see a partial entry; two builds writing the same
// entry write the same bytes. An entry that does not decode or fails its
// checksum is counted as corrupt, ignored and rewritten. Entries and module
// copies unused for trimAge are removed, at most once per trimInterval.

// cacheFormat changes whenever the entry layout or the key's definition
// does.
const cacheFormat = "gfz-build cache v1"

const (
	trimAge      = 5 * 24 * time.Hour
	trimInterval = 24 * time.Hour
	touchAge     = time.Hour // refresh an entry's mtime when older
)

// CacheStats tells what the build cache did in one Prepare.
type CacheStats struct {
	Dir     string   // the cache directory; "" when the cache is off
	Hits    []string // import paths of the packages taken from the cache
	Misses  []string // import paths of the packages instrumented
	Corrupt []string // import paths whose entry was unreadable (also in Misses)
	// TestHits and TestMisses are the test units (testfiles.go) taken
	// from the cache and instrumented: a package's path for its
	// in-package test files, p_test for an external test package.
	TestHits, TestMisses []string
}

// CacheSummary describes what the cache did in one line (gfz-build -v).
func CacheSummary(s CacheStats) string {
	if s.Dir == "" {
		return "off"
	}
	msg := fmt.Sprintf("%d of %d packages from the cache %s", len(s.Hits), len(s.Hits)+len(s.Misses), s.Dir)
	if len(s.Misses) > 0 {
		const show = 4
		m := s.Misses
		more := ""
		if len(m) > show {
			m, more = m[:show], fmt.Sprintf(" and %d more", len(s.Misses)-show)
		}
		msg += "; instrumented " + strings.Join(m, ", ") + more
	}
	if n := len(s.TestHits) + len(s.TestMisses); n > 0 {
		msg += fmt.Sprintf("; the _test.go files of %d of %d packages from the cache", len(s.TestHits), n)
	}
	if len(s.Corrupt) > 0 {
		msg += fmt.Sprintf("; %d damaged entries replaced", len(s.Corrupt))
	}
	return msg
}

// cacheDir resolves Options.Cache: "" is build/ in gfz's cache directory
// ($GFZCACHE, default gfz in the user's cache directory:
// workdir.CacheDir), "off" turns the cache off, anything else is the
// directory.
func cacheDir(setting string) (string, error) {
	switch setting {
	case "off":
		return "", nil
	case "":
		return filepath.Join(workdir.CacheDir(), "build"), nil
	}
	return filepath.Abs(setting)
}

// buildCache is the cache of one Prepare.
type buildCache struct {
	dir string

	mu    sync.Mutex
	stats CacheStats
}

func openCache(dir string) (*buildCache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("build cache: %w", err)
	}
	return &buildCache{dir: dir, stats: CacheStats{Dir: dir}}, nil
}

// cacheEntry is what the cache stores for one package, or for one file of
// a package (resolve.go, "Files").
type cacheEntry struct {
	Key      string // the entry's own key, checked on reading
	API      string // the package's API key (resolve.go); fileEntry for a file
	Template instrument.Template
	Dict     []string // the package's dictionary literals (CollectDictionary)
}

const entryHeader = cacheFormat + " entry\n"

// fileEntry is the API field of a file's entry.
const fileEntry = "file"

func (c *buildCache) entryPath(key string) string {
	return filepath.Join(c.dir, "pkg", key[:2], key)
}

// get returns the entry of key, or false when there is none or it is
// unusable; path is the package's import path, for the statistics.
func (c *buildCache) get(key, path string) (*cacheEntry, bool) {
	if c == nil || key == "" {
		return nil, false
	}
	file := c.entryPath(key)
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, false
	}
	e, err := decodeEntry(data, key)
	if err != nil {
		c.mu.Lock()
		c.stats.Corrupt = append(c.stats.Corrupt, path)
		c.mu.Unlock()
		return nil, false
	}
	touch(file)
	return e, true
}

func decodeEntry(data []byte, key string) (*cacheEntry, error) {
	if !bytes.HasPrefix(data, []byte(entryHeader)) || len(data) < len(entryHeader)+sha256.Size {
		return nil, errors.New("no entry header")
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if s := sha256.Sum256(body); !bytes.Equal(s[:], sum) {
		return nil, errors.New("checksum mismatch")
	}
	var e cacheEntry
	if err := gob.NewDecoder(bytes.NewReader(body[len(entryHeader):])).Decode(&e); err != nil {
		return nil, err
	}
	if e.Key != key {
		return nil, errors.New("entry of another key")
	}
	if e.API == "" {
		return nil, errors.New("no API key")
	}
	if err := e.Template.Check(); err != nil {
		return nil, err
	}
	return &e, nil
}

// put stores e under its key: written to a temporary file, renamed into
// place.
func (c *buildCache) put(e *cacheEntry) error {
	if c == nil || e.Key == "" {
		return nil
	}
	var b bytes.Buffer
	b.WriteString(entryHeader)
	if err := gob.NewEncoder(&b).Encode(e); err != nil {
		return fmt.Errorf("build cache: encode %s: %w", e.Template.Path, err)
	}
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	return writeAtomic(c.entryPath(e.Key), b.Bytes())
}

// writeAtomic writes data to file through a temporary file in the same
// directory and a rename.
func writeAtomic(file string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".tmp*")
	if err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("build cache: write %s: %w", file, err)
	}
	return nil
}

// touch marks file as used (for trimming) when its mtime is older than
// touchAge.
func touch(file string) {
	if st, err := os.Stat(file); err == nil && time.Since(st.ModTime()) > touchAge {
		now := time.Now()
		os.Chtimes(file, now, now)
	}
}

// trim removes entries and module copies unused for trimAge, at most once
// per trimInterval (trim.txt holds the time of the last trim).
func (c *buildCache) trim() {
	if c == nil {
		return
	}
	stamp := filepath.Join(c.dir, "trim.txt")
	if data, err := os.ReadFile(stamp); err == nil {
		if sec, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && time.Since(time.Unix(sec, 0)) < trimInterval {
			return
		}
	}
	if writeAtomic(stamp, []byte(strconv.FormatInt(time.Now().Unix(), 10)+"\n")) != nil {
		return
	}
	cutoff := time.Now().Add(-trimAge)
	tmpCutoff := time.Now().Add(-trimInterval)
	filepath.WalkDir(filepath.Join(c.dir, "pkg"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			old := info.ModTime().Before(cutoff)
			if strings.Contains(d.Name(), ".tmp") {
				old = info.ModTime().Before(tmpCutoff)
			}
			if old {
				os.Remove(p)
			}
		}
		return nil
	})
	trimModuleCopies(filepath.Join(c.dir, "mod"), cutoff, tmpCutoff)
}

func (c *buildCache) hit(path string) {
	c.mu.Lock()
	c.stats.Hits = append(c.stats.Hits, path)
	c.mu.Unlock()
}

func (c *buildCache) miss(path string) {
	c.mu.Lock()
	c.stats.Misses = append(c.stats.Misses, path)
	c.mu.Unlock()
}

// testHitOrMiss counts a test unit (label) as taken from the cache or
// instrumented.
func (c *buildCache) testHitOrMiss(label string, hit bool) {
	c.mu.Lock()
	if hit {
		c.stats.TestHits = append(c.stats.TestHits, label)
	} else {
		c.stats.TestMisses = append(c.stats.TestMisses, label)
	}
	c.mu.Unlock()
}

// Stats returns the statistics, sorted.
func (c *buildCache) Stats() CacheStats {
	if c == nil {
		return CacheStats{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	for _, l := range []*[]string{&s.Hits, &s.Misses, &s.Corrupt, &s.TestHits, &s.TestMisses} {
		*l = slices.Compact(slices.Sorted(slices.Values(*l)))
	}
	return s
}

// stdExports returns the export files of standard-library packages that
// builds with the same go command settings listed (import path -> file in
// Go's build cache), or nil. Export files are named by a hash of their
// contents, so a listed file that still exists holds the package's export
// data; resolve checks that it exists. This saves a go list -export when
// only standard-library export data is needed, as on most rebuilds.
func (c *buildCache) stdExports(k *keyer) map[string]string {
	if c == nil || k == nil {
		return nil
	}
	data, err := os.ReadFile(c.stdExportsPath(k))
	if err != nil {
		return nil
	}
	var m map[string]string
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return m
}

func (c *buildCache) stdExportsPath(k *keyer) string {
	return filepath.Join(c.dir, "std", hashOf(string(k.base), "std export files")+".json")
}

// addStdExports stores known and learned (learned wins) as the standard
// library's export files (a failure to store is no error: the next build
// lists them again).
func (c *buildCache) addStdExports(k *keyer, known, learned map[string]string) {
	if c == nil || k == nil || len(learned) == 0 {
		return
	}
	m := map[string]string{}
	for p, f := range known {
		m[p] = f
	}
	for p, f := range learned {
		m[p] = f
	}
	data, err := json.Marshal(m)
	if err == nil {
		writeAtomic(c.stdExportsPath(k), data)
	}
}

// toolID identifies the running gfz-build: the Go build ID of its
// executable, which changes whenever any of its code does, or else a hash
// of the executable.
var toolID = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if id := goBuildID(exe); id != "" {
		return id, nil
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
})

// goBuildID reads the Go build ID of an executable: the ELF note
// .note.go.buildid, or the "\xff Go build ID: " string other formats keep
// at the start of the text; "" if there is none.
func goBuildID(exe string) string {
	if f, err := elf.Open(exe); err == nil {
		defer f.Close()
		if s := f.Section(".note.go.buildid"); s != nil {
			if d, err := s.Data(); err == nil && len(d) > 16 {
				// namesz, descsz, type, "Go\x00\x00", desc.
				n := int(f.ByteOrder.Uint32(d[4:]))
				if 16+n <= len(d) && string(d[12:16]) == "Go\x00\x00" {
					return string(d[16 : 16+n])
				}
			}
		}
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, buf)
	buf = buf[:n]
	const prefix = "\xff Go build ID: \""
	i := bytes.Index(buf, []byte(prefix))
	if i < 0 {
		return ""
	}
	rest := buf[i+len(prefix):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

// keyer computes what the cache keys are made of (resolve.go combines
// them).
type keyer struct {
	base     []byte // hash of what every key shares
	modcache string // GOMODCACHE: files there are keyed by name
}

// newKeyer starts the keys of one build; env holds the go command's
// settings that change what a package compiles to or type-checks as.
func newKeyer(tool string, env map[string]string, opts *Options, modcache string) *keyer {
	h := sha256.New()
	fmt.Fprintf(h, "%s\ntool %s\n", cacheFormat, tool)
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		fmt.Fprintf(h, "env %s=%q\n", k, env[k])
	}
	fmt.Fprintf(h, "tags %q race %t\n", opts.Tags, opts.Race)
	return &keyer{base: h.Sum(nil), modcache: modcache}
}

// own returns the key of p's own source: its path, name, module go
// version, list errors and files (names and contents); "" if a file cannot
// be read (the load reports it). digests maps each file to its digest.
func (k *keyer) own(p *packages.Package) (key string, digests map[string]string) {
	digests = map[string]string{}
	h := sha256.New()
	goVersion := ""
	if p.Module != nil {
		goVersion = p.Module.GoVersion
	}
	fmt.Fprintf(h, "package %s %s go %q\n", p.PkgPath, p.Name, goVersion)
	for _, f := range append(slices.Clone(p.GoFiles), p.OtherFiles...) {
		d, err := k.fileDigest(f)
		if err != nil {
			return "", nil
		}
		digests[f] = d
		fmt.Fprintf(h, "file %s %s\n", f, d)
	}
	for _, e := range p.Errors {
		fmt.Fprintf(h, "error %s\n", e.Error())
	}
	return hex.EncodeToString(h.Sum(nil)), digests
}

// fileDigest identifies the contents of a file: by name in the module
// cache (whose files never change: the name holds the module version),
// else by a hash of its contents.
func (k *keyer) fileDigest(name string) (string, error) {
	if k.modcache != "" && within(k.modcache, name) {
		return "modcache", nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:]), nil
}

// hashOf hashes parts, each on a line of its own.
func hashOf(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		io.WriteString(h, p)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}
