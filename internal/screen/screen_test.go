package screen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[a-zA-Z]`)

// visible is s without its ANSI sequences.
func visible(s string) string { return ansi.ReplaceAllString(s, "") }

const status1 = "gfz: elapsed 3s, execs 981234 (327078/s), valid 24.9%, corpus 37, cov 120 (valid 98), failures 1 site (2 signatures), workers 2, restarts 0, stability 100.0%\n"

func TestScreen(t *testing.T) {
	var term bytes.Buffer
	s := New(&term, "FuzzX", func() int { return 100 })
	status, stdout := s.Stream(), s.Stream()
	fmt.Fprint(status, status1)
	first := term.String()
	lines := strings.Split(strings.TrimSuffix(first, "\n"), "\n")
	// A title and 9 fields two a row.
	if len(lines) != 6 || !strings.Contains(lines[0], "gfz · FuzzX") || !strings.Contains(visible(first), "execs     981,234 (327078/s)") ||
		!strings.Contains(visible(first), "failures  1 site (2 signatures)") {
		t.Fatalf("screen:\n%s", visible(first))
	}
	for _, l := range lines {
		if n := len([]rune(visible(l))); n >= 80 {
			t.Errorf("line of %d columns: %q", n, visible(l))
		}
	}
	// Another line: the screen is erased, the line printed, the screen
	// drawn again below it. A line split over two writes, and a partial
	// line of the other stream, are printed whole, each once.
	term.Reset()
	fmt.Fprint(stdout, "target says")
	fmt.Fprint(status, "gfz: new failure (panic): bo")
	fmt.Fprint(status, "om\n")
	got := term.String()
	want := "\r\x1b[6A\x1b[J" + "gfz: new failure (panic): boom\n"
	if !strings.HasPrefix(got, want) || strings.Count(got, "gfz · FuzzX") != 1 || strings.Contains(got, "target says") {
		t.Fatalf("after a line: %q", got)
	}
	term.Reset()
	fmt.Fprint(stdout, " hello\n")
	if got := term.String(); !strings.HasPrefix(got, "\r\x1b[6A\x1b[Jtarget says hello\n") {
		t.Fatalf("stdout line: %q", got)
	}
	// The final summary: plain lines, no screen after them.
	term.Reset()
	fmt.Fprint(status, "gfz: done: elapsed 1m0s, execs 5\ngfz: 0 new unique failures\n")
	if got := term.String(); got != "\r\x1b[6A\x1b[Jgfz: done: elapsed 1m0s, execs 5\ngfz: 0 new unique failures\n" {
		t.Fatalf("summary: %q", got)
	}
}

// TestScreenNarrow: on a narrow terminal the fields go one a row and no
// line is wider than the terminal (a wrapped line would break the redraw).
func TestScreenNarrow(t *testing.T) {
	var term bytes.Buffer
	s := New(&term, "FuzzAVeryLongTargetNameIndeedThatGoesOnAndOn", func() int { return 30 })
	fmt.Fprint(s.Stream(), status1)
	lines := strings.Split(strings.TrimSuffix(visible(term.String()), "\n"), "\n")
	if len(lines) != 10 {
		t.Errorf("%d lines, want a title and 9 fields:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if n := len([]rune(l)); n >= 30 {
			t.Errorf("line of %d columns on a 30-column terminal: %q", n, l)
		}
	}
}

func TestIsTerminal(t *testing.T) {
	t.Setenv("TERM", "xterm")
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if IsTerminal(f) || IsTerminal(w) {
		t.Error("a file or a pipe is not a terminal")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !IsTerminal(tty) {
			t.Error("/dev/tty is a terminal")
		}
		t.Setenv("TERM", "dumb")
		if IsTerminal(tty) {
			t.Error("TERM=dumb gets plain lines")
		}
	}
	if got := groupDigits("981234 (327078/s)"); got != "981,234 (327078/s)" {
		t.Errorf("groupDigits = %q", got)
	}
}
