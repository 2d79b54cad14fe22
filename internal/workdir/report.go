package workdir

import (
	"bytes"
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

// FoundLayout is the time layout of a report's "found at" line: RFC 3339
// with milliseconds (time.Parse with time.RFC3339 reads it), written when
// the failure is first saved, before any shrinking rewrites the report.
const FoundLayout = "2006-01-02T15:04:05.000Z07:00"

// FailureInfo describes a failing execution.
type FailureInfo struct {
	Kind      string // "panic: runtime error: index out of range", "t.Fatal", "timeout", ...
	Message   string // the panic value or the t.Fatal/t.Error messages
	Stack     string // the goroutine stack at the point of failure
	Signature string // dedup key: panic kind + top frames inside the user's code
	Value     string // the generated value(s), printed in Go syntax
	// Dictionary: generating the values drew from the fuzz binary's
	// dictionary (generators.Dictionary), so the input replays under
	// plain go test only with a copy of it (-regress writes one).
	Dictionary bool
}

// Report is everything written about one unique failure.
type Report struct {
	Target    string
	Result    string // "FAILURE", "TIMEOUT"
	Info      FailureInfo
	Signature string
	Input     []byte
	Exec      int64  // execution number that found it (over all workers in a supervised run)
	ExecNote  string // qualifies Exec ("about ... (all workers)"), replacing the bare number when set
	FoundBy   string // "worker 1, in its execution 77" in a supervised run
	Found     time.Time
	Into      time.Duration // time into the run
	Repro     string
	Shrink    *ShrinkNote // the shrink of Input (shrink_run.go); nil: not shrunk
}

// Format renders the .txt report. The signature line is Go-quoted so that
// Dir.KnownFailures can read it back.
func (r *Report) Format() []byte {
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
	fmt.Fprintf(&b, "group: %s (%s%s)\n", signature.SiteName(site), oneLine(strings.SplitN(site, "\n", 2)[0]), where)
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
	if r.Info.Dictionary {
		fmt.Fprintf(&b, "%s: %s\n", DictionaryKey, DictionaryUsed)
	}
	r.Shrink.Write(&b)
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

// DictionaryKey and DictionaryUsed are the report's header line of a
// failure whose values drew from the fuzz binary's dictionary
// (FailureInfo.Dictionary).
const (
	DictionaryKey  = "dictionary"
	DictionaryUsed = "drawn from (go test replays this input only with the dictionary file -regress writes to testdata/gfzdict)"
)

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

// SaveFailure saves a failure as one unit: it claims failures/<hash>.input
// by creating it exclusively (link(2), which fails if the file exists),
// then writes failures/<hash>.txt, the report of exactly that input. It
// returns the input path and whether this call saved it: claimed is false
// when another process (a worker or the supervisor finding the same
// failure at the same time) claimed it first; that one writes the report
// and announces the failure. Readers consider a failure saved once its
// report exists; an input without a report is an unfinished save.
func (w *Dir) SaveFailure(r *Report) (path string, claimed bool, err error) {
	base := filepath.Join(w.Failures, FailureName(r.Signature))
	in := base + ".input"
	if err := createExclusive(in, w.Encode(r.Input)); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return in, false, nil
		}
		return "", false, fmt.Errorf("engine: save failure: %w", err)
	}
	if err := WriteFileAtomic(base+".txt", r.Format()); err != nil {
		os.Remove(in) // release the claim: the failure is not saved
		return "", false, fmt.Errorf("engine: save failure report: %w", err)
	}
	return in, true, nil
}

// Unsaved is what to print of a failure SaveFailure could not save (a
// full disk), so that it is not lost: its kind and message, and its input
// file as it would have been written, indented, to be saved by hand and
// run with -repro.
func (w *Dir) Unsaved(r *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\tkind: %s\n\tmessage: %s\n", r.Info.Kind, strings.ReplaceAll(strings.TrimRight(r.Info.Message, "\n"), "\n", "\n\t\t"))
	b.WriteString("\tits input file, not written (save the lines below, without their tab, and run -repro FILE):\n")
	for _, l := range strings.SplitAfter(string(w.Encode(r.Input)), "\n") {
		if l != "" {
			b.WriteString("\t" + l)
		}
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// SaveUnconfirmed keeps the input and report of a timeout that re-running
// its input did not repeat in unconfirmed/<hash>.input and .txt (written
// atomically; a later one with the same signature replaces them) and
// returns the input's path.
func (w *Dir) SaveUnconfirmed(r *Report) (string, error) {
	dir := w.Unconfirmed
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("engine: keep unconfirmed timeout: %w", err)
	}
	base := filepath.Join(dir, FailureName(r.Signature))
	if err := WriteFileAtomic(base+".input", w.Encode(r.Input)); err != nil {
		return "", fmt.Errorf("engine: keep unconfirmed timeout: %w", err)
	}
	if err := WriteFileAtomic(base+".txt", r.Format()); err != nil {
		return "", fmt.Errorf("engine: keep unconfirmed timeout: %w", err)
	}
	return base + ".input", nil
}
