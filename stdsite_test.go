package gfz_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/testmod"
)

const shortReadKind = "panic: runtime error: index out of range [N] with length N"

// readLength reads a big-endian length at the start of b: a short read
// when b has fewer than 2 bytes, which panics in encoding/binary.
func readLength(b []byte) int {
	return int(binary.BigEndian.Uint16(b))
}

// TestStdHelperSite: a panic in a standard-library function (inlined
// into) the user's code has the site of the user's caller, not of the std
// function: the signature's first frame is readLength, for a direct call
// and for a user callback sort calls.
func TestStdHelperSite(t *testing.T) {
	for name, fn := range map[string]func(*gfz.T){
		"direct": func(t *gfz.T) { readLength([]byte{1}) },
		"callback": func(t *gfz.T) {
			xs := [][]byte{{1, 2}, {3}, {4, 5}}
			sort.Slice(xs, func(i, j int) bool { return readLength(xs[i]) < readLength(xs[j]) })
		},
	} {
		out := execOnce(fn, nil)
		if out.Failure == nil {
			t.Fatalf("%s: no failure", name)
		}
		sig := out.Failure.Signature
		site := signature.SiteOf(sig)
		if !strings.HasPrefix(site, shortReadKind+"\ngithub.com/gfz-dev/gfz_test.readLength stdsite_test.go:") || strings.Contains(sig, "encoding/binary") {
			t.Errorf("%s: signature %q, want its site at readLength", name, sig)
		}
	}
}

// TestStdHelperSiteBinary: end to end, in a fuzz binary of a module named
// without a dot ("m", which is not the standard library): a short read
// in encoding/binary.BigEndian.Uint16 has the site of the user's caller
// (m.Length m.go:9) whether the executor recovered the panic (a gfz
// target, a native f.Fuzz target) or it killed the worker (a panic in a
// goroutine, named by the supervisor from the crash trace): one site
// however it was caught. So has a panic in encoding/ascii85.Encode (a
// buffer too short), unless the binary instruments encoding/ascii85
// (gfz-build -cover): then ascii85 is code under test and the site is in
// it, for the executor as for the supervisor.
func TestStdHelperSiteBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs two fuzz binaries")
	}
	dir := t.TempDir()
	testmod.Write(t, dir, map[string]string{
		"go.mod": "module m\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n",
		"m.go": `package m

import (
	"encoding/ascii85"
	"encoding/binary"
)

// Length reads the big-endian length at the start of b.
func Length(b []byte) int {
	return int(binary.BigEndian.Uint16(b))
}

// Encode85 encodes src into a buffer too short for it.
func Encode85(src []byte) int {
	return ascii85.Encode(make([]byte, 1), src)
}
`,
		"m_test.go": `package m

import (
	"testing"

	"github.com/gfz-dev/gfz"
)

func FuzzShort(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if t.Source().Range(0, 9, 0) == 3 {
			Length([]byte{1})
		}
	})
}

func FuzzShortGo(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if t.Source().Range(0, 9, 0) == 3 {
			go func() { Length([]byte{1}) }()
			select {}
		}
	})
}

func FuzzShortNative(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 2 {
			Length(b)
		}
	})
}

func FuzzA85(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if t.Source().Range(0, 9, 0) == 3 {
			Encode85([]byte("abcd"))
		}
	})
}

func FuzzA85Go(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if t.Source().Range(0, 9, 0) == 3 {
			go func() { Encode85([]byte("abcd")) }()
			select {}
		}
	})
}
`,
	})
	sigRe := regexp.MustCompile(`(?m)^signature: (".*")$`)
	groupRe := regexp.MustCompile(`(?m)^group: .*$`)
	// site runs target and returns the site of its one failure, checking
	// that the report's group names it.
	site := func(bin, target string) string {
		t.Helper()
		out, reports := failingRun(t, bin, filepath.Join(t.TempDir(), "wd"), "-workers", "1", "-seed", "3", "-runs", "200", target)
		if len(reports) != 1 {
			t.Fatalf("%s: %d failure reports, want 1\n%s", target, len(reports), out)
		}
		rep, err := os.ReadFile(reports[0])
		if err != nil {
			t.Fatal(err)
		}
		m := sigRe.FindSubmatch(rep)
		if m == nil {
			t.Fatalf("%s: no signature in the report:\n%s", target, rep)
		}
		sig, err := strconv.Unquote(string(m[1]))
		if err != nil {
			t.Fatalf("%s: signature %s: %v", target, m[1], err)
		}
		s := signature.SiteOf(sig)
		kind, frame, _ := strings.Cut(s, "\n")
		if g, want := groupRe.FindString(string(rep)), "group: "+signature.SiteName(s)+" ("+kind+" at "+frame+")"; g != want {
			t.Errorf("%s: %s, want %s", target, g, want)
		}
		return s
	}
	buildM := func(cover ...string) string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "m.gfz")
		args := []string{"-o", out}
		for _, c := range cover {
			args = append(args, "-cover", c)
		}
		if log, err := testmod.GfzBuild(dir, append(args, ".")...); err != nil {
			t.Fatalf("build: %v\n%s", err, log)
		}
		return out
	}

	bin := buildM()
	for target, want := range map[string]string{
		"FuzzShort":       shortReadKind + "\nm.Length m.go:10",
		"FuzzShortGo":     shortReadKind + "\nm.Length m.go:10",
		"FuzzShortNative": shortReadKind + "\nm.Length m.go:10",
		"FuzzA85":         shortReadKind + "\nm.Encode85 m.go:15",
		"FuzzA85Go":       shortReadKind + "\nm.Encode85 m.go:15",
	} {
		if s := site(bin, target); s != want {
			t.Errorf("%s: site %q, want %q", target, s, want)
		}
	}

	covered := buildM("encoding/ascii85")
	inProcess, crashed := site(covered, "FuzzA85"), site(covered, "FuzzA85Go")
	if !strings.HasPrefix(inProcess, shortReadKind+"\nencoding/ascii85.Encode ascii85.go:") || crashed != inProcess {
		t.Errorf("-cover encoding/ascii85: sites %q (recovered) and %q (crash), want one in ascii85.Encode", inProcess, crashed)
	}
	if s, want := site(covered, "FuzzShortGo"), shortReadKind+"\nm.Length m.go:10"; s != want {
		t.Errorf("-cover encoding/ascii85, FuzzShortGo: site %q, want %q", s, want)
	}
}
