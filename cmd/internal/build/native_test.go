package build

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/driver"
	"github.com/gfz-dev/gfz/internal/testmod"
)

const nativeSrc = `package p

import (
	"testing"
)

func FuzzA(f *testing.F) {
	f.Add("x", 1)
	f.Fuzz(func(t *testing.T, s string, n int) {
		t.Log(s, n)
	})
}

func FuzzB(ff *testing.F) {
	ff.Fuzz(check)
}

func check(t *testing.T, b []byte, c, d byte, r rune, x float32, u []uint8) {}

func helper(f *testing.F) { f.Fuzz(func(t *testing.T, v bool) {}) }

func FuzzC(f *testing.F) {
	g := func(f int) {}
	_ = g
	helper(f)
}

func notFuzz(x interface{ Fuzz(any) }) { x.Fuzz(nil) }
`

// TestNativeTargetsRewrite: f.Fuzz calls on *testing.F parameters are
// rewritten to gfz.FuzzNative, lines unchanged, and the targets' types
// read from function literals and top-level functions.
func TestNativeTargetsRewrite(t *testing.T) {
	ts, out, err := NativeTargets("p_test.go", []byte(nativeSrc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, nt := range ts {
		got = append(got, nt.Name+"("+nt.Types+")")
	}
	if strings.Join(got, " ") != "FuzzA(string,int) FuzzB([]byte,uint8,uint8,int32,float32,[]byte)" {
		t.Errorf("targets %v", got)
	}
	src := string(out)
	if strings.Count(src, "\n") != strings.Count(nativeSrc, "\n") {
		t.Errorf("the rewrite moved lines:\n%s", src)
	}
	for _, want := range []string{
		`package p; import _gfznative "github.com/gfz-dev/gfz"; import _ "github.com/gfz-dev/gfz/generators/formats"` + "\n",
		"\t_gfznative.FuzzNative(f, func(t *testing.T, s string, n int) {\n",
		"\t_gfznative.FuzzNative(ff, check)\n",
		"func helper(f *testing.F) { _gfznative.FuzzNative(f, func(t *testing.T, v bool) {}) }",
		"x.Fuzz(nil)", // not a *testing.F
	} {
		if !strings.Contains(src, want) {
			t.Errorf("rewritten source lacks %q:\n%s", want, src)
		}
	}
	// The rewritten source parses, and lines keep their numbers.
	if _, err := FuzzTargets("p_test.go", out); err != nil {
		t.Errorf("rewritten source does not parse: %v", err)
	}
	origLines, newLines := strings.Split(nativeSrc, "\n"), strings.Split(src, "\n")
	for i, l := range origLines {
		if strings.Contains(l, "t.Log") && newLines[i] != l {
			t.Errorf("line %d changed: %q -> %q", i+1, l, newLines[i])
		}
	}
}

// TestNativeTargetsAlias: a type alias of a supported type is that type,
// as go test sees it (a named type is not: TestNativeTargetsErrors).
func TestNativeTargetsAlias(t *testing.T) {
	src := "package p\nimport \"testing\"\ntype B = []byte\ntype C = B\nfunc FuzzX(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, b C, u uint8) {})\n}\n"
	ts, _, err := NativeTargets("p_test.go", []byte(src))
	if err != nil || len(ts) != 1 || ts[0].Types != "[]byte,uint8" {
		t.Errorf("targets %+v, %v; want FuzzX([]byte,uint8)", ts, err)
	}
}

// TestNativeTargetsErrors: unsupported argument types and functions
// whose types cannot be read are errors naming the file and line.
func TestNativeTargetsErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"package p\nimport \"testing\"\nfunc FuzzX(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, c complex128) {})\n}\n", "p_test.go:4:9: FuzzX's f.Fuzz: fuzz argument type complex128 is not supported"},
		{"package p\nimport \"testing\"\ntype B []byte\nfunc FuzzX(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, b B) {})\n}\n", "fuzz argument type B is not supported"},
		{"package p\nimport \"testing\"\nfunc FuzzX(f *testing.F) {\n\tf.Fuzz(fn)\n}\n", "p_test.go:4:9: FuzzX's f.Fuzz: cannot read the argument types of fn"},
		{"package p\nimport \"testing\"\nfunc FuzzX(f *testing.F) {\n\tfn := func(t *testing.T, b []byte) {}\n\tif true {\n\t\tfn := func(t *testing.T, s string) {}\n\t\tf.Fuzz(fn)\n\t}\n}\n", "fn is declared more than once in the function"},
		{"package p\nimport \"testing\"\nfunc FuzzX(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, s struct{ a int }) {})\n}\n", "fuzz argument type struct{a int} is not supported"},
	} {
		_, _, err := NativeTargets("p_test.go", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NativeTargets = %v, want an error containing %q", err, c.want)
		}
	}
	if nativeInfoPrefix+"FuzzX" != driver.NativeInfoKey("FuzzX") {
		t.Errorf("build-info key %q, the driver reads %q", nativeInfoPrefix+"FuzzX", driver.NativeInfoKey("FuzzX"))
	}
}

// nativeModule writes a module with a package nat holding two native
// targets (FuzzCheck of several argument types with a planted bug,
// FuzzBytes of one []byte) and a gfz target, and a package without
// targets.
func nativeModule(t *testing.T) string {
	dir := t.TempDir()
	testmod.Write(t, dir, map[string]string{
		"go.mod": "module example.com/nat\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n",
		"nat/nat.go": `package nat

import "fmt"

// Check has a planted bug: a string starting with "ok", a negative
// number and a non-empty byte slice.
func Check(s string, n int, b []byte) error {
	if len(s) >= 2 && s[0] == 'o' {
		if s[1] == 'k' {
			if n < 0 && len(b) > 0 {
				return fmt.Errorf("bad input %q %d", s, n)
			}
		}
	}
	return nil
}

// Parse panics on the input "crash".
func Parse(data []byte) int {
	if string(data) == "crash" {
		panic("parse: crash")
	}
	return len(data)
}
`,
		"nat/nat_test.go": `package nat

import "testing"

func FuzzCheck(f *testing.F) {
	f.Add("hello", 1, []byte("x"), 1.5, 'a', true, uint16(7))
	f.Fuzz(func(t *testing.T, s string, n int, b []byte, x float64, r rune, ok bool, u uint16) {
		t.Logf("checking %q", s)
		if err := Check(s, n, b); err != nil {
			t.Fatalf("Check: %v", err)
		}
	})
}

func FuzzBytes(f *testing.F) {
	f.Add([]byte("crash"))
	f.Fuzz(func(t *testing.T, data []byte) { Parse(data) })
}

func FuzzGo(f *testing.F) {
	f.Add("go!", int8(-3))
	f.Fuzz(func(t *testing.T, s string, n int8) {
		if s == "go!" {
			done := make(chan bool)
			go func() { panic("in a goroutine") }()
			<-done
		}
	})
}
`,
		"nat/gen_test.go": `package nat

import (
	"testing"

	"github.com/gfz-dev/gfz"
)

func FuzzGen(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) { Parse(t.Source().Bytes(3)) })
}
`,
		// A target whose fuzz function is a method value declared in
		// another file.
		"nat/method_test.go":  "package nat\n\nimport \"testing\"\n\nfunc FuzzMethod(f *testing.F) {\n\tf.Add([]byte(\"crash\"), uint8(2))\n\tf.Fuzz(new(harness).parse)\n}\n",
		"nat/harness_test.go": "package nat\n\nimport \"testing\"\n\ntype harness struct{ calls int }\n\nfunc (h *harness) parse(t *testing.T, data []byte, n uint8) {\n\th.calls++\n\tParse(data)\n}\n",
		"other/other.go":      "package other\n\nfunc X() int { return 1 }\n",
	})
	return dir
}

// TestNativeEndToEnd builds unmodified native targets next to a gfz
// target, finds the planted bug of the multi-type target within a fixed
// number of executions, and checks that the failure file is in the native
// format with the target's types: plain go test replays it (copied into
// testdata/fuzz) and fails the same way, and -repro runs it. Seeds come
// from f.Add and from testdata/fuzz.
func TestNativeEndToEnd(t *testing.T) {
	dir := nativeModule(t)
	out := filepath.Join(t.TempDir(), "nat.gfz")
	var stderr bytes.Buffer
	res, err := Build(context.Background(), Options{Patterns: []string{"./..."}, Dir: dir, Output: out, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if len(res.Binaries) != 1 || strings.Join(res.Binaries[0].Targets, ",") != "FuzzGen,FuzzMethod,FuzzCheck,FuzzBytes,FuzzGo" {
		t.Fatalf("binaries %+v", res.Binaries)
	}
	if !strings.Contains(stderr.String(), "1 package(s) without fuzz targets not built: example.com/nat/other") {
		t.Errorf("the package without targets is not reported:\n%s", stderr.String())
	}
	if src, err := os.ReadFile(filepath.Join(dir, "nat", "nat_test.go")); err != nil || strings.Contains(string(src), "gfz") {
		t.Errorf("the user's file was modified: %v\n%s", err, src)
	}
	pkg := filepath.Join(dir, "nat")
	run := func(args ...string) (string, int) {
		cmd := exec.Command(out, args...)
		cmd.Dir = pkg
		o, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return string(o), code
	}

	// The planted bug, found within a fixed number of executions.
	work := t.TempDir()
	o, code := run("-runs", "40000", "-seed", "1", "-workers", "1", "-workdir", work, "-v", "FuzzCheck")
	if code != 1 || !strings.Contains(o, "new failure (t.Fatal): nat_test.go:10: Check: bad input") {
		t.Fatalf("FuzzCheck: exit %d, want 1 and the planted failure:\n%s", code, o)
	}
	if !strings.Contains(o, "engine args,") {
		t.Errorf("a native target's default engine is not args:\n%s", o)
	}
	inputs, _ := filepath.Glob(filepath.Join(work, "failures", "*.input"))
	if len(inputs) != 1 {
		t.Fatalf("failure inputs %v", inputs)
	}
	file, err := os.ReadFile(inputs[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(file), "\n"), "\n")
	prefixes := []string{"go test fuzz v1", `string("ok`, "int(-", "[]byte(", "float64(", "", "bool(", "uint16("}
	if len(lines) != len(prefixes) {
		t.Fatalf("failure file:\n%s", file)
	}
	for i, p := range prefixes {
		if !strings.HasPrefix(lines[i], p) || i == 5 && !strings.HasPrefix(lines[i], "rune(") && !strings.HasPrefix(lines[i], "int32(") {
			t.Errorf("failure file line %d is %q, want %q...", i+1, lines[i], p)
		}
	}
	report, _ := os.ReadFile(strings.TrimSuffix(inputs[0], ".input") + ".txt")
	if !strings.Contains(string(report), "example.com/nat/nat.FuzzCheck.func1 nat_test.go:10") {
		t.Errorf("the signature does not name the user's line:\n%s", report)
	}

	// -repro of the file.
	o, code = run("-repro", inputs[0], "FuzzCheck")
	if code != 1 || !strings.Contains(o, "Check: bad input") || !strings.Contains(o, "arg0 string = string(\"ok") {
		t.Errorf("-repro: exit %d:\n%s", code, o)
	}

	// -seedcorpus: a directory of inputs in the target's format (as go
	// test -fuzz's cache holds them) seeds the run; a file of other types
	// is skipped with a note, a missing directory is a usage error.
	cache := t.TempDir()
	if err := os.WriteFile(filepath.Join(cache, "a-found"), file, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, "b-other"), []byte("go test fuzz v1\nint(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, code = run("-runs", "2", "-workers", "1", "-workdir", t.TempDir(), "-seedcorpus", cache, "FuzzCheck")
	if code != 1 || !strings.Contains(o, "Check: bad input") || !strings.Contains(o, "skipped 1 of 2 files") {
		t.Errorf("-seedcorpus: exit %d, want the failure from the seed and the skipped file:\n%s", code, o)
	}
	if o, code = run("-runs", "2", "-seedcorpus", filepath.Join(cache, "nope"), "FuzzCheck"); code != 2 || !strings.Contains(o, "-seedcorpus") {
		t.Errorf("-seedcorpus of a missing directory: exit %d\n%s", code, o)
	}

	// Plain go test replays it from testdata/fuzz, no gfz involved.
	name := filepath.Base(strings.TrimSuffix(inputs[0], ".input"))
	seedDir := filepath.Join(pkg, "testdata", "fuzz", "FuzzCheck")
	if err := os.MkdirAll(seedDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(seedDir, name), file, 0o644); err != nil {
		t.Fatal(err)
	}
	gt := exec.Command("go", "test", "-run=FuzzCheck/"+name, ".")
	gt.Dir = pkg
	gto, err := gt.CombinedOutput()
	if err == nil || !strings.Contains(string(gto), "nat_test.go:10: Check: bad input") {
		t.Errorf("go test -run=FuzzCheck/%s: %v, want the same failure:\n%s", name, err, gto)
	}

	// Seeds: the testdata/fuzz file is executed after the f.Add seed...
	o, code = run("-runs", "2", "-workers", "1", "-workdir", t.TempDir(), "FuzzCheck")
	if code != 1 || !strings.Contains(o, "Check: bad input") {
		t.Errorf("testdata/fuzz seed not run: exit %d\n%s", code, o)
	}
	// ... and so is an f.Add seed.
	o, code = run("-runs", "1", "-workers", "1", "-workdir", t.TempDir(), "FuzzBytes")
	if code != 1 || !strings.Contains(o, "parse: crash") {
		t.Errorf("f.Add seed not run: exit %d\n%s", code, o)
	}
	// ... and a method value's, with the types of its declaration in
	// another file.
	o, code = run("-runs", "1", "-workers", "1", "-workdir", t.TempDir(), "FuzzMethod")
	if code != 1 || !strings.Contains(o, "parse: crash") {
		t.Errorf("FuzzMethod's f.Add seed not run: exit %d\n%s", code, o)
	}
	// A crash the supervisor catches (a panic in a goroutine) is saved in
	// the target's types too, shrunk through the same codec: the int8 the
	// crash does not depend on is lowered from the seed's -3 to 0.
	goWork := t.TempDir()
	o, code = run("-runs", "1", "-workers", "1", "-workdir", goWork, "FuzzGo")
	crash, _ := filepath.Glob(filepath.Join(goWork, "failures", "*.input"))
	if code != 1 || len(crash) != 1 {
		t.Fatalf("FuzzGo: exit %d, failures %v\n%s", code, crash, o)
	}
	if b, _ := os.ReadFile(crash[0]); string(b) != "go test fuzz v1\nstring(\"go!\")\nint8(0)\n" {
		t.Errorf("the supervisor saved %q", b)
	}
	if orig, _ := os.ReadFile(strings.TrimSuffix(crash[0], ".input") + ".original"); string(orig) != "go test fuzz v1\nstring(\"go!\")\nint8(-3)\n" {
		t.Errorf("the original kept next to the shrunk crash: %q", orig)
	}

	// A seed file of other types is refused before the run starts.
	if err := os.WriteFile(filepath.Join(seedDir, "bad"), []byte("go test fuzz v1\nint(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, code = run("-runs", "1", "-workers", "1", "-workdir", t.TempDir(), "FuzzCheck")
	if code != 2 || !strings.Contains(o, "seed file") || !strings.Contains(o, "1 values, want 7") {
		t.Errorf("bad seed file: exit %d\n%s", code, o)
	}
}

// TestNativeUnsupportedTypeBuild: a native target with an argument type
// native fuzzing does not accept makes its package fail with a message
// naming the type and the line.
func TestNativeUnsupportedTypeBuild(t *testing.T) {
	dir := t.TempDir()
	testmod.Write(t, dir, map[string]string{
		"go.mod":        "module example.com/u\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n",
		"u/u.go":        "package u\n\nfunc F(c complex128) bool { return real(c) > 1 }\n",
		"u/u_test.go":   "package u\n\nimport \"testing\"\n\nfunc FuzzU(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, c complex128) { F(c) })\n}\n",
		"ok/ok.go":      "package ok\n",
		"ok/ok_test.go": "package ok\n",
	})
	_, err := Prepare(context.Background(), Options{Patterns: []string{"./u"}, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "u_test.go:6:9: FuzzU's f.Fuzz: fuzz argument type complex128 is not supported") {
		t.Errorf("Prepare = %v, want the unsupported type named with its line", err)
	}
}

// TestBuildWithoutVet: a package with a go vet finding (here a
// non-constant format string, reported for go 1.24 and later modules,
// which requiring gfz makes an older module) still gets its fuzz binary.
func TestBuildWithoutVet(t *testing.T) {
	dir := t.TempDir()
	testmod.Write(t, dir, map[string]string{
		"go.mod":      "module example.com/v\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n",
		"v/v.go":      "package v\n\nimport \"fmt\"\n\nfunc F(s string) error { return fmt.Errorf(s) }\n",
		"v/v_test.go": "package v\n\nimport \"testing\"\n\nfunc FuzzV(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, s string) { _ = F(s) })\n}\n",
	})
	var stderr bytes.Buffer
	res, err := Build(context.Background(), Options{Patterns: []string{"./v"}, Dir: dir, Output: filepath.Join(t.TempDir(), "v.gfz"), Stderr: &stderr})
	if err != nil || len(res.Binaries) != 1 {
		t.Fatalf("Build: %v\n%s", err, stderr.String())
	}
}

// TestRegistrationNameTaken: a package holding a file named as gfz-build's
// added file (zz_gfz_probes.go) is built with its file kept and the added
// one named apart (it stopped the whole build).
func TestRegistrationNameTaken(t *testing.T) {
	dir := t.TempDir()
	testmod.Write(t, dir, map[string]string{
		"go.mod":               "module example.com/z\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n",
		"z/z.go":               "package z\n\nfunc F(s string) bool { return s == Registered }\n",
		"z/zz_gfz_probes.go":   "package z\n\nvar Registered = \"x\"\n",
		"z/zz_gfz_probes_1.go": "package z\n\nvar Other = 1\n",
		"z/z_test.go":          "package z\n\nimport \"testing\"\n\nfunc FuzzZ(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, s string) { _, _ = F(s), Other })\n}\n",
	})
	var stderr bytes.Buffer
	res, err := Build(context.Background(), Options{Patterns: []string{"./z"}, Dir: dir, Output: filepath.Join(t.TempDir(), "z.gfz"), Stderr: &stderr})
	if err != nil || len(res.Binaries) != 1 {
		t.Fatalf("Build: %v\n%s", err, stderr.String())
	}
}
