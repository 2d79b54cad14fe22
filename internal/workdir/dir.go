package workdir

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Work directory layout.
const (
	CorpusDir   = "corpus"
	FailuresDir = "failures"
	// UnconfirmedDir holds the timeouts that re-running their input did
	// not repeat (created when the first one is kept).
	UnconfirmedDir = "unconfirmed"
	PlotFile       = "plot_data"
	StatsFile      = "stats"
	// DictionaryFileName is the copy of the fuzz binary's dictionary
	// (SupervisorConfig.DictionaryFile).
	DictionaryFileName = "dictionary"
	PlotHeader         = "# unix_time, elapsed_s, execs, corpus, valid, invalid, total_cov, valid_cov, unique_failures, hill_b0, hill_b1, hill_b2, zero_mutations, mutation_distance_mean\n"
)

// Dir is an opened work directory.
type Dir struct {
	Root, Corpus, Failures string
	// unconfirmed is the directory of unconfirmed timeouts (UnconfirmedDir).
	Unconfirmed string
	// codec writes and reads the input files (nil: BytesCodec).
	Codec Codec
	// plot holds the plot_data content written so far (the previous runs'
	// rows first, when resuming).
	plot bytes.Buffer
	// SyncInline makes SaveCorpus fsync each entry before it returns
	// instead of in the background (bgsync.go): for runs that read the
	// process's allocation counts (-feedback mem), which the background
	// goroutine's allocations would change.
	SyncInline bool
	// corpusSync makes the corpus entries durable in the background
	// (bgsync.go); syncErr is the first failed sync of a stopped one.
	corpusSync *bgSyncer
	syncErr    error
}

// Open creates (or reopens) the work directory and checks that it
// is writable.
func Open(root string) (*Dir, error) {
	if root == "" {
		return nil, errors.New("engine: no work directory given")
	}
	// Absolute, so that the paths in reports and reproduce commands work
	// from any directory.
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	w := &Dir{
		Root:        root,
		Corpus:      filepath.Join(root, CorpusDir),
		Failures:    filepath.Join(root, FailuresDir),
		Unconfirmed: filepath.Join(root, UnconfirmedDir),
	}
	for _, d := range []string{w.Corpus, w.Failures} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("engine: work directory %s: %w", root, err)
		}
	}
	// Probe writability now rather than at the first save.
	probe := filepath.Join(root, ".gfz-write-probe")
	if err := writeAtomic(probe, nil, false); err != nil {
		return nil, fmt.Errorf("engine: work directory %s is not writable: %w", root, err)
	}
	os.Remove(probe)
	if old, err := os.ReadFile(filepath.Join(root, PlotFile)); err == nil && bytes.HasPrefix(old, []byte(PlotHeader)) {
		w.plot.Write(old)
		if len(old) > 0 && old[len(old)-1] != '\n' {
			w.plot.WriteByte('\n')
		}
	} else {
		w.plot.WriteString(PlotHeader)
	}
	return w, nil
}

// IsTemp reports whether a directory entry is a temporary or hidden file
// (an interrupted atomic write), which loaders ignore.
func IsTemp(name string) bool { return strings.HasPrefix(name, ".") }

// CorpusFiles lists the regular files of corpus/ in name order.
func (w *Dir) CorpusFiles() ([]string, error) {
	ents, err := os.ReadDir(w.Corpus)
	if err != nil {
		return nil, fmt.Errorf("engine: read corpus: %w", err)
	}
	var out []string
	for _, e := range ents {
		if IsTemp(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		out = append(out, filepath.Join(w.Corpus, e.Name()))
	}
	return out, nil
}

// ContentName is the file name of a corpus entry: hex of a hash of its
// content, so identical inputs collapse into one file.
func ContentName(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:8])
}

// SaveCorpus writes data to corpus/ (if not already there) and returns the
// path. The file is complete when it returns, and durable once SyncCorpus
// has returned (bgsync.go); an earlier entry's failed sync is its error.
func (w *Dir) SaveCorpus(data []byte) (string, error) {
	path := filepath.Join(w.Corpus, ContentName(data))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if w.syncErr != nil {
		return "", fmt.Errorf("engine: save corpus entry: %w", w.syncErr)
	}
	if err := writeAtomic(path, w.Encode(data), w.SyncInline); err != nil {
		return "", fmt.Errorf("engine: save corpus entry: %w", err)
	}
	if w.SyncInline {
		return path, nil
	}
	if w.corpusSync == nil {
		w.corpusSync = newBgSyncer(w.Corpus)
	}
	if err := w.corpusSync.add(path); err != nil {
		return "", fmt.Errorf("engine: save corpus entry: %w", err)
	}
	return path, nil
}

// SyncCorpus waits until the corpus entries saved so far are durable
// (SaveCorpus syncs them in the background), stops the background
// goroutine (a later SaveCorpus starts another) and returns the error of
// a failed sync, if any: once a sync has failed, every later SaveCorpus
// and SyncCorpus returns its error.
func (w *Dir) SyncCorpus() error {
	if s := w.corpusSync; s != nil {
		w.corpusSync = nil
		w.syncErr = s.stop()
	}
	if w.syncErr != nil {
		return fmt.Errorf("engine: save corpus entry: %w", w.syncErr)
	}
	return nil
}

// FailureName is the base name (without extension) of a failure's files.
func FailureName(signature string) string {
	h := sha256.Sum256([]byte(signature))
	return hex.EncodeToString(h[:6])
}

// RemoveOrphanInputs removes the failures/*.input files that have no
// report: a process that claimed a failure (SaveFailure) and died before
// writing its report. Such a failure was never announced, and its stale
// claim would make the failure count as known for ever. An input whose
// report cannot be read (no signature line: truncated, edited) would hold
// its claim the same way while KnownFailures skips the report, so that the
// failure, found again, is neither saved nor announced: both files are
// renamed aside (".bad" appended, nothing deleted) and warn says so. Only
// the holder of the work directory lock calls it, before any worker runs.
func (w *Dir) RemoveOrphanInputs(warn func(format string, args ...any)) {
	ents, err := os.ReadDir(w.Failures)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if IsTemp(name) || !strings.HasSuffix(name, ".input") {
			continue
		}
		base := filepath.Join(w.Failures, strings.TrimSuffix(name, ".input"))
		if _, err := os.Lstat(base + ".txt"); errors.Is(err, fs.ErrNotExist) {
			os.Remove(base + ".input")
			continue
		}
		if _, err := readSignature(base + ".txt"); err != nil {
			rerr := os.Rename(base+".txt", base+".txt.bad")
			if rerr == nil {
				rerr = os.Rename(base+".input", base+".input.bad")
			}
			if rerr != nil {
				warn("failure report %s cannot be read (%v), nor moved aside: %v", base+".txt", err, rerr)
				continue
			}
			warn("failure report %s cannot be read (%v): it and its input are kept as %s.bad and %s.bad; the failure is saved and reported anew when it is found again",
				base+".txt", err, base+".txt", base+".input")
		}
	}
}

// FailureSaved reports whether a failure with this signature has been
// saved in failures/ (by another process), and returns its input path.
func (w *Dir) FailureSaved(sig string) (string, bool) {
	base := filepath.Join(w.Failures, FailureName(sig))
	got, err := readSignature(base + ".txt")
	if err != nil || got != sig {
		return "", false
	}
	return base + ".input", true
}

// KnownFailures reads the signatures of the failures saved by earlier runs
// from failures/*.txt. Reports that cannot be read or parsed are described
// to warn and skipped.
func (w *Dir) KnownFailures(warn func(format string, args ...any)) (map[string]string, error) {
	known := map[string]string{}
	ents, err := os.ReadDir(w.Failures)
	if err != nil {
		return nil, fmt.Errorf("engine: read failures: %w", err)
	}
	for _, e := range ents {
		name := e.Name()
		if IsTemp(name) || !strings.HasSuffix(name, ".txt") || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(w.Failures, name)
		sig, err := readSignature(path)
		if err != nil {
			warn("skipping unreadable failure report %s: %v", path, err)
			continue
		}
		known[sig] = strings.TrimSuffix(path, ".txt") + ".input"
	}
	return known, nil
}

// readSignature extracts the signature line of a failure report.
func readSignature(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if q, ok := strings.CutPrefix(sc.Text(), "signature: "); ok {
			s, err := strconv.Unquote(q)
			if err != nil {
				return "", fmt.Errorf("bad signature line: %w", err)
			}
			return s, nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", errors.New("no signature line")
}
