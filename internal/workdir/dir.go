package engine

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
	"time"

	"github.com/gfz-dev/gfz/internal/signature"
)

// Work directory layout.
const (
	corpusDir   = "corpus"
	failuresDir = "failures"
	// unconfirmedDir holds the timeouts that re-running their input did
	// not repeat (created when the first one is kept).
	unconfirmedDir = "unconfirmed"
	plotFile       = "plot_data"
	statsFile      = "stats"
	plotHeader     = "# unix_time, elapsed_s, execs, corpus, valid, invalid, total_cov, valid_cov, unique_failures, hill_b0, hill_b1, hill_b2, zero_mutations, mutation_distance_mean\n"
)

// workdir is an opened work directory.
type workdir struct {
	root, corpus, failures string
	// unconfirmed is the directory of unconfirmed timeouts (unconfirmedDir).
	unconfirmed string
	// codec writes and reads the input files (nil: BytesCodec).
	codec Codec
	// plot holds the plot_data content written so far (the previous runs'
	// rows first, when resuming).
	plot bytes.Buffer
}

// openWorkdir creates (or reopens) the work directory and checks that it
// is writable.
func openWorkdir(root string) (*workdir, error) {
	if root == "" {
		return nil, errors.New("engine: no work directory given")
	}
	// Absolute, so that the paths in reports and reproduce commands work
	// from any directory.
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	w := &workdir{
		root:        root,
		corpus:      filepath.Join(root, corpusDir),
		failures:    filepath.Join(root, failuresDir),
		unconfirmed: filepath.Join(root, unconfirmedDir),
	}
	for _, d := range []string{w.corpus, w.failures} {
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
	if old, err := os.ReadFile(filepath.Join(root, plotFile)); err == nil && bytes.HasPrefix(old, []byte(plotHeader)) {
		w.plot.Write(old)
		if len(old) > 0 && old[len(old)-1] != '\n' {
			w.plot.WriteByte('\n')
		}
	} else {
		w.plot.WriteString(plotHeader)
	}
	return w, nil
}

// isTemp reports whether a directory entry is a temporary or hidden file
// (an interrupted atomic write), which loaders ignore.
func isTemp(name string) bool { return strings.HasPrefix(name, ".") }

// corpusFiles lists the regular files of corpus/ in name order.
func (w *workdir) corpusFiles() ([]string, error) {
	ents, err := os.ReadDir(w.corpus)
	if err != nil {
		return nil, fmt.Errorf("engine: read corpus: %w", err)
	}
	var out []string
	for _, e := range ents {
		if isTemp(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		out = append(out, filepath.Join(w.corpus, e.Name()))
	}
	return out, nil
}

// contentName is the file name of a corpus entry: hex of a hash of its
// content, so identical inputs collapse into one file.
func contentName(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:8])
}

// saveCorpus writes data to corpus/ (if not already there) and returns the
// path.
func (w *workdir) saveCorpus(data []byte) (string, error) {
	path := filepath.Join(w.corpus, contentName(data))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := WriteFileAtomic(path, w.encode(data)); err != nil {
		return "", fmt.Errorf("engine: save corpus entry: %w", err)
	}
	return path, nil
}

// failureName is the base name (without extension) of a failure's files.
func failureName(signature string) string {
	h := sha256.Sum256([]byte(signature))
	return hex.EncodeToString(h[:6])
}

// removeOrphanInputs removes the failures/*.input files that have no
// report: a process that claimed a failure (saveFailure) and died before
// writing its report. Such a failure was never announced, and its stale
// claim would make the failure count as known for ever. Only the holder of
// the work directory lock calls it, before any worker runs.
func (w *workdir) removeOrphanInputs() {
	ents, err := os.ReadDir(w.failures)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if isTemp(name) || !strings.HasSuffix(name, ".input") {
			continue
		}
		base := filepath.Join(w.failures, strings.TrimSuffix(name, ".input"))
		if _, err := os.Lstat(base + ".txt"); errors.Is(err, fs.ErrNotExist) {
			os.Remove(base + ".input")
		}
	}
}

// failureSaved reports whether a failure with this signature has been
// saved in failures/ (by another process), and returns its input path.
func (w *workdir) failureSaved(sig string) (string, bool) {
	base := filepath.Join(w.failures, failureName(sig))
	got, err := readSignature(base + ".txt")
	if err != nil || got != sig {
		return "", false
	}
	return base + ".input", true
}

// knownFailures reads the signatures of the failures saved by earlier runs
// from failures/*.txt. Reports that cannot be read or parsed are described
// to warn and skipped.
func (w *workdir) knownFailures(warn func(format string, args ...any)) (map[string]string, error) {
	known := map[string]string{}
	ents, err := os.ReadDir(w.failures)
	if err != nil {
		return nil, fmt.Errorf("engine: read failures: %w", err)
	}
	for _, e := range ents {
		name := e.Name()
		if isTemp(name) || !strings.HasSuffix(name, ".txt") || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(w.failures, name)
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

// FoundLayout is the time layout of a report's "found at" line: RFC 3339
// with milliseconds (time.Parse with time.RFC3339 reads it), written when
// the failure is first saved, before any shrinking rewrites the report.
const FoundLayout = "2006-01-02T15:04:05.000Z07:00"

// failureReport is everything written about one unique failure.
type failureReport struct {
	Target    string
	Result    Result
	Info      FailureInfo
	Signature string
	Input     []byte
	Exec      int64  // execution number that found it (over all workers in a supervised run)
	ExecNote  string // qualifies Exec ("about ... (all workers)"), replacing the bare number when set
	FoundBy   string // "worker 1, in its execution 77" in a supervised run
	Found     time.Time
	Into      time.Duration // time into the run
	Repro     string
	Shrink    *shrinkNote // the shrink of Input (shrink_run.go); nil: not shrunk
}

// format renders the .txt report. The signature line is Go-quoted so that
// knownFailures can read it back.
func (r *failureReport) format() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "gfz failure report\n")
	fmt.Fprintf(&b, "signature: %s\n", strconv.Quote(r.Signature))
	if r.Target != "" {
		fmt.Fprintf(&b, "target: %s\n", r.Target)
	}
	fmt.Fprintf(&b, "result: %s\n", r.Result)
	fmt.Fprintf(&b, "kind: %s\n", oneLine(r.Info.Kind))
	site := signature.SiteOf(r.Signature)
	where := ""
	if _, frame, ok := strings.Cut(site, "\n"); ok {
		where = " at " + frame
	}
	fmt.Fprintf(&b, "group: %s (%s%s)\n", signature.SiteName(site), oneLine(firstLine(site)), where)
	if r.ExecNote != "" {
		fmt.Fprintf(&b, "found at execution: %s\n", r.ExecNote)
	} else {
		fmt.Fprintf(&b, "found at execution: %d\n", r.Exec)
	}
	if r.FoundBy != "" {
		fmt.Fprintf(&b, "found by: %s\n", r.FoundBy)
	}
	if !r.Found.IsZero() {
		fmt.Fprintf(&b, "found at: %s (%v into the run)\n", r.Found.Format(FoundLayout), r.Into.Round(time.Millisecond))
	}
	fmt.Fprintf(&b, "reproduce: %s\n", r.Repro)
	r.Shrink.write(&b)
	section(&b, "message", r.Info.Message)
	section(&b, "value", r.Info.Value)
	if r.Shrink != nil && r.Shrink.Original != "" {
		section(&b, "original value (before shrinking)", r.Shrink.OrigValue)
	}
	params := hexLines(r.Input[:min(len(r.Input), maxHexDump)])
	if len(r.Input) > maxHexDump {
		params += fmt.Sprintf("\n... (%d bytes in all; see the .input file)", len(r.Input))
	}
	section(&b, "params (hex)", params)
	section(&b, "stack", r.Info.Stack)
	return b.Bytes()
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", `\n`) }

func section(b *bytes.Buffer, name, body string) {
	fmt.Fprintf(b, "\n%s:\n", name)
	body = strings.TrimRight(body, "\n")
	if body == "" {
		b.WriteString("\t(none)\n")
		return
	}
	for _, l := range strings.Split(body, "\n") {
		b.WriteString("\t" + l + "\n")
	}
}

// maxHexDump bounds the parameter bytes shown in a report.
const maxHexDump = 1024

// hexLines renders data as hex, 32 bytes a line.
func hexLines(data []byte) string {
	if len(data) == 0 {
		return "(empty)"
	}
	var b strings.Builder
	for i := 0; i < len(data); i += 32 {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(hex.EncodeToString(data[i:min(i+32, len(data))]))
	}
	return b.String()
}

// saveFailure saves a failure as one unit: it claims failures/<hash>.input
// by creating it exclusively (link(2), which fails if the file exists),
// then writes failures/<hash>.txt, the report of exactly that input. It
// returns the input path and whether this call saved it: claimed is false
// when another process (a worker or the supervisor finding the same
// failure at the same time) claimed it first; that one writes the report
// and announces the failure. Readers consider a failure saved once its
// report exists; an input without a report is an unfinished save.
func (w *workdir) saveFailure(r *failureReport) (path string, claimed bool, err error) {
	base := filepath.Join(w.failures, failureName(r.Signature))
	in := base + ".input"
	if err := createExclusive(in, w.encode(r.Input)); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return in, false, nil
		}
		return "", false, fmt.Errorf("engine: save failure: %w", err)
	}
	if err := WriteFileAtomic(base+".txt", r.format()); err != nil {
		os.Remove(in) // release the claim: the failure is not saved
		return "", false, fmt.Errorf("engine: save failure report: %w", err)
	}
	return in, true, nil
}

// saveUnconfirmed keeps the input and report of a timeout that re-running
// its input did not repeat in unconfirmed/<hash>.input and .txt (written
// atomically; a later one with the same signature replaces them) and
// returns the input's path.
func (w *workdir) saveUnconfirmed(r *failureReport) (string, error) {
	dir := w.unconfirmed
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("engine: keep unconfirmed timeout: %w", err)
	}
	base := filepath.Join(dir, failureName(r.Signature))
	if err := WriteFileAtomic(base+".input", w.encode(r.Input)); err != nil {
		return "", fmt.Errorf("engine: keep unconfirmed timeout: %w", err)
	}
	if err := WriteFileAtomic(base+".txt", r.format()); err != nil {
		return "", fmt.Errorf("engine: keep unconfirmed timeout: %w", err)
	}
	return base + ".input", nil
}

// writeStats rewrites the stats file and plot_data.
// runStats is what a run reports in plot_data and stats, whether it is an
// in-process engine or the supervisor aggregating its workers.
type runStats struct {
	target, engine, state       string
	seed                        int64
	start, now                  time.Time
	execs, valid, invalid       int64
	failing, rechecks           int64
	corpus                      int
	totalCov, validCov          int64
	uniqueFailures, newFailures int
	failureSites                int
	stability                   float64
	timeout                     time.Duration // the per-input timeout in effect (0: none)
	timeoutRule                 string        // how it was chosen
	metrics                     metricsRow    // metrics.go
}

// writeRunStats appends r's plot_data row and rewrites stats (the keys
// every run has, then the lines extra writes with kv) and plot_data.
func (w *workdir) writeRunStats(r runStats, extra func(kv func(key string, v any))) error {
	el := r.now.Sub(r.start)
	fmt.Fprintf(&w.plot, "%d, %.1f, %d, %d, %d, %d, %d, %d, %d, %s\n", r.now.Unix(), el.Seconds(), r.execs,
		r.corpus, r.valid, r.invalid, r.totalCov, r.validCov, r.uniqueFailures, r.metrics.plotCols())
	if r.engine == "" {
		r.engine = "zest"
	}
	var b strings.Builder
	kv := func(k string, v any) { fmt.Fprintf(&b, "%s: %v\n", k, v) }
	kv("target", r.target)
	kv("engine", r.engine)
	kv("seed", r.seed)
	kv("state", r.state)
	kv("start_time", r.start.Unix())
	kv("last_update", r.now.Unix())
	kv("elapsed_s", fmt.Sprintf("%.1f", el.Seconds()))
	kv("execs", r.execs)
	kv("execs_per_sec", fmt.Sprintf("%.0f", rate(r.execs, el)))
	kv("valid", r.valid)
	kv("invalid", r.invalid)
	kv("failing", r.failing)
	kv("valid_pct", fmt.Sprintf("%.2f", pct(r.valid, r.execs)))
	kv("corpus", r.corpus)
	kv("total_cov", r.totalCov)
	kv("valid_cov", r.validCov)
	kv("unique_failures", r.uniqueFailures)
	kv("new_failures", r.newFailures)
	kv("failure_sites", r.failureSites)
	kv("stability", fmt.Sprintf("%.2f", r.stability))
	kv("rechecks", r.rechecks)
	if r.timeoutRule != "" {
		kv("timeout_ms", r.timeout.Milliseconds())
		kv("timeout_rule", r.timeoutRule)
	}
	if extra != nil {
		extra(kv)
	}
	return w.writeStats([]byte(b.String()))
}

func (w *workdir) writeStats(stats []byte) error {
	if err := writeAtomic(filepath.Join(w.root, statsFile), stats, false); err != nil {
		return fmt.Errorf("engine: write stats: %w", err)
	}
	if err := writeAtomic(filepath.Join(w.root, plotFile), w.plot.Bytes(), false); err != nil {
		return fmt.Errorf("engine: write plot_data: %w", err)
	}
	return nil
}
