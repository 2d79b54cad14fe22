package signature

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestInstrumentedStdIsUserCode: a std package the binary instruments
// (gfz-build -cover encoding/json, SetStdUnderTest) is code under test:
// its frames are the site even with the user's fuzz function below them;
// another std package's are not.
func TestInstrumentedStdIsUserCode(t *testing.T) {
	tr := trace(
		"encoding/binary.bigEndian.Uint16", "/usr/local/go/src/encoding/binary/binary.go:156",
		"encoding/json.(*decodeState).literalStore", "/usr/local/go/src/encoding/json/decode.go:900",
		"encoding/json.Unmarshal", "/usr/local/go/src/encoding/json/decode.go:110",
		"example.com/t.FuzzJSON.func1", "/src/t/t_test.go:40",
	)
	if s := crashSite(tr); s != bounds+"\nexample.com/t.FuzzJSON.func1 t_test.go:40" {
		t.Errorf("json not instrumented: site %q", s)
	}
	defer SetStdUnderTest(nil)
	SetStdUnderTest([]string{"encoding/json", "net/url"})
	if s := crashSite(tr); s != bounds+"\nencoding/json.(*decodeState).literalStore decode.go:900" {
		t.Errorf("json instrumented: site %q", s)
	}
	SetStdUnderTest([]string{"encoding/binary"})
	if s := crashSite(tr); s != bounds+"\nencoding/binary.bigEndian.Uint16 binary.go:156" {
		t.Errorf("binary instrumented: site %q", s)
	}
}

// TestFrameLinesHelpers: the executor's helpers (T.Helper) are left out
// before the std rule looks for a user frame: std frames whose only user
// frames below are helpers are kept, and a helper is never the site.
func TestFrameLinesHelpers(t *testing.T) {
	frames := []Frame{
		{"encoding/binary.bigEndian.Uint16", "/usr/local/go/src/encoding/binary/binary.go", 156},
		{"example.com/t.check", "/src/t/t.go", 5},
		{"example.com/t.FuzzT.func1", "/src/t/t_test.go", 9},
	}
	helper := func(fn string) bool { return fn == "example.com/t.check" }
	if s, want := FrameLines(frames, helper, false), "example.com/t.FuzzT.func1 t_test.go:9\n"; s != want {
		t.Errorf("with a helper: %q, want %q", s, want)
	}
	all := func(fn string) bool { return strings.HasPrefix(fn, "example.com/") }
	if s, want := FrameLines(frames, all, false), "encoding/binary.bigEndian.Uint16 binary.go:156\n"; s != want {
		t.Errorf("only helpers below: %q, want %q", s, want)
	}
	if s, want := FrameLines(frames, nil, true), "example.com/t.check\nexample.com/t.FuzzT.func1 t_test.go:9\n"; s != want {
		t.Errorf("no inner line: %q, want %q", s, want)
	}
}

// TestStdPackageRules: the package of a function name, and which
// packages are standard: go list std's (std.txt), or, for a package newer
// than the list, one whose file is in its directory under GOROOT/src
// (never under -trimpath, where file names have no GOROOT).
func TestStdPackageRules(t *testing.T) {
	for fn, want := range map[string]string{
		"encoding/binary.bigEndian.Uint16":                     "encoding/binary",
		"encoding/binary.(*decoder).uint16":                    "encoding/binary",
		"sort.Slice.func1":                                     "sort",
		"slices.SortFunc[go.shape.struct { example.com/x.a }]": "slices",
		"example.com/t.(*List[go.shape.int]).Push":             "example.com/t",
		"github.com/gopacket/gopacket/layers.decodeSVCB":       "github.com/gopacket/gopacket/layers",
		"m.decode":        "m",
		"main.main.func1": "main",
		"panic":           "",
		"vendor/golang.org/x/net/dns/dnsmessage.(*Parser).Next": "vendor/golang.org/x/net/dns/dnsmessage",
	} {
		if got := funcPackage(fn); got != want {
			t.Errorf("funcPackage(%q) = %q, want %q", fn, got, want)
		}
	}
	defer func(f func() string) { gorootSrc = f }(gorootSrc)
	gorootSrc = func() string { return "/opt/go/src/" }
	for _, c := range []struct {
		pkg, file string
		want      bool
	}{
		{"encoding/binary", "encoding/binary/binary.go", true}, // in the list: whatever the file
		{"crypto/internal/fips140/aes", "/elsewhere/aes.go", true},
		{"encoding/json/v3", "/opt/go/src/encoding/json/v3/decode.go", true}, // newer than the list
		{"encoding/json/v3", "/opt/go/src/encoding/json/v3/sub/decode.go", false},
		{"encoding/json/v3", "/home/u/json/v3/decode.go", false},
		{"encoding/json/v3", "encoding/json/v3/decode.go", false},
		{"m", "/opt/go/srcm/m.go", false},
		{"m", "/tmp/m/m.go", false},
		{"m", "m/m.go", false},
		{"example", "/tmp/example/x.go", false},
		{"cmd/compile/internal/ssa", "/opt/go/src/cmd/compile/internal/ssa/x.go", false},
		{"example.com/x", "/opt/go/src/example.com/x/x.go", false},
		{"", "/opt/go/src/x.go", false},
	} {
		if got := isStdPackage(c.pkg, c.file); got != c.want {
			t.Errorf("isStdPackage(%q, %q) = %v, want %v", c.pkg, c.file, got, c.want)
		}
	}
	for _, fn := range []string{"m.decode", "example/sub.Walk", "main.main", "example.F"} {
		if stdHelper(fn, "/tmp/m/m.go") || stdHelper(fn, "m/m.go") {
			t.Errorf("%s is a std helper", fn)
		}
	}
	gorootSrc = func() string { return "" } // -trimpath
	if isStdPackage("encoding/json/v3", "encoding/json/v3/decode.go") || !isStdPackage("sort", "sort/slice.go") {
		t.Errorf("-trimpath: only the list applies")
	}
}

// TestGorootSrc: the GOROOT of the test binary, from the runtime's own
// frames, is where the go command's GOROOT has its sources (unless the
// test binary was built with -trimpath).
func TestGorootSrc(t *testing.T) {
	got := gorootSrc()
	if got == "" {
		t.Skip("built with -trimpath")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	if want := strings.TrimSpace(string(out)) + "/src/"; got != want {
		t.Errorf("gorootSrc() = %q, want %q", got, want)
	}
	var pcs [8]uintptr
	n := runtime.Callers(1, pcs[:])
	fr, _ := runtime.CallersFrames(pcs[:n]).Next()
	if stdHelper(fr.Function, fr.File) {
		t.Errorf("this test (%s) is a std helper", fr.Function)
	}
}

// TestStdListCurrent: std.txt is go list std of the Go release that runs
// the tests (when it is the release std.txt was generated from; after an
// upgrade, run go generate ./internal/signature).
func TestStdListCurrent(t *testing.T) {
	header, _, _ := strings.Cut(stdList, "\n")
	ver, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Skipf("go env GOVERSION: %v", err)
	}
	release := strings.TrimSpace(string(ver))
	if p := strings.SplitN(release, ".", 3); len(p) == 3 {
		release = p[0] + "." + p[1]
	}
	if !strings.Contains(header, " "+release+":") {
		t.Skipf("std.txt is for another release (%q); this is %s", header, release)
	}
	out, err := exec.Command("go", "list", "std").Output()
	if err != nil {
		t.Skipf("go list std: %v", err)
	}
	want := strings.Fields(string(out))
	if len(want) != len(stdSet()) {
		t.Errorf("std.txt has %d packages, go list std %d: run go generate ./internal/signature", len(stdSet()), len(want))
	}
	for _, p := range want {
		if !stdSet()[p] {
			t.Errorf("std.txt lacks %s: run go generate ./internal/signature", p)
		}
	}
}
