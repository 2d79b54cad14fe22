package workdir

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"time"
)

// Reading failure reports back: the format Report.format writes
// (report.go), for the tools that show or convert them (the HTML report,
// the libFuzzer command line).

// reportMagic is a failure report's first line.
const reportMagic = "gfz failure report"

// ReportFile is a failures/<hash>.txt report as read back: the header's
// "key: value" lines in their order, and the sections ("name:" followed
// by tab-indented lines), each the text of its lines without the tab,
// every line ending in "\n" (an empty section reads "(none)\n").
type ReportFile struct {
	Header   [][2]string
	Sections map[string]string
}

// ParseReport parses a failure report leniently: lines it does not
// recognise are skipped. It fails when data does not start with the
// report's first line, and returns what it read with the error when a
// line is too long to read (over 16 MiB).
func ParseReport(data []byte) (*ReportFile, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	if !sc.Scan() || sc.Text() != reportMagic {
		return nil, fmt.Errorf("not a gfz failure report (first line is not %q)", reportMagic)
	}
	r := &ReportFile{Sections: map[string]string{}}
	var cur *strings.Builder
	var name string
	flush := func() {
		if cur != nil {
			r.Sections[name] = cur.String()
		}
	}
	header := true
	for sc.Scan() {
		line := sc.Text()
		switch {
		case header && line == "":
			header = false
		case header:
			if k, v, ok := strings.Cut(line, ": "); ok {
				r.Header = append(r.Header, [2]string{k, v})
			}
		case strings.HasPrefix(line, "\t"):
			if cur != nil {
				cur.WriteString(line[1:] + "\n")
			}
		case strings.HasSuffix(line, ":"):
			flush()
			cur, name = &strings.Builder{}, strings.TrimSuffix(line, ":")
		}
	}
	flush()
	return r, sc.Err()
}

// Get returns the value of the header key ("" if absent).
func (r *ReportFile) Get(key string) string {
	for _, kv := range r.Header {
		if kv[0] == key {
			return kv[1]
		}
	}
	return ""
}

// FoundAt returns the time of the "found at" line: when the failure was
// first saved (before shrinking rewrote the report). ok is false when the
// line is absent or unreadable.
func (r *ReportFile) FoundAt() (t time.Time, ok bool) {
	v, _, _ := strings.Cut(r.Get("found at"), " ")
	t, err := time.Parse(time.RFC3339, v)
	return t, err == nil
}
