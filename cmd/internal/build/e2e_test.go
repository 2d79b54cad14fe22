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
)

// TestBuildFuzzBinary builds the fixture's gfz target into a fuzz binary,
// runs it for a fixed number of executions and checks its coverage profile.
func TestBuildFuzzBinary(t *testing.T) {
	dir := fixtureDir(t)
	out := filepath.Join(t.TempDir(), "t.gfz")
	var stderr bytes.Buffer
	res, err := Build(context.Background(), Options{Patterns: []string{"./..."}, Dir: dir, Output: out, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if len(res.Binaries) != 1 {
		t.Fatalf("binaries %+v", res.Binaries)
	}
	b := res.Binaries[0]
	// The binary links only the target package, not the fixture's others.
	if b.Package != "example.com/fixture/target" || b.Output != out || strings.Join(b.Targets, ",") != "FuzzParse,FuzzNative" ||
		b.Probes != probesOf(res.Prepared, b.Package) || b.Probes >= res.Probes {
		t.Errorf("binary %+v", b)
	}
	list, err := exec.Command(out, "-list").Output()
	if err != nil || strings.TrimSpace(string(list)) != "FuzzParse\nFuzzNative" {
		t.Fatalf("-list: %v %q", err, list)
	}
	prof := filepath.Join(t.TempDir(), "cover.out")
	run := exec.Command(out, "-runs", "500", "-seed", "3", "-workdir", t.TempDir(), "-coverprofile", prof, "FuzzParse")
	if o, err := run.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, o)
	}
	data, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "mode: set\n") || !strings.Contains(string(data), "example.com/fixture/target/target.go:5.") {
		t.Errorf("profile:\n%s", data)
	}
	cmd := exec.Command("go", "tool", "cover", "-func", prof)
	cmd.Dir = dir
	fn, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(fn), "target.go:5:") {
		t.Errorf("go tool cover -func: %v\n%s", err, fn)
	}
}

func TestBuildInfo(t *testing.T) {
	got := BuildInfo([]string{"FuzzA", "FuzzB"}, 16, 1234, "")
	if got != "mapbits=16&probes=1234&targets=FuzzA%2CFuzzB&v=1" {
		t.Errorf("BuildInfo = %q", got)
	}
	// The package directory: escaped, so that a path with spaces stays
	// one -X argument.
	got = BuildInfo([]string{"FuzzA"}, 16, 1234, "/src/my app")
	if got != "dir=%2Fsrc%2Fmy+app&mapbits=16&probes=1234&targets=FuzzA&v=1" || strings.ContainsRune(got, ' ') {
		t.Errorf("BuildInfo = %q", got)
	}
}

// TestStdCoverBuildInfo: the instrumented std packages are listed once,
// sorted, under the key the driver reads; other packages are not.
func TestStdCoverBuildInfo(t *testing.T) {
	pkgs := []InstrumentedPackage{{Path: "net/url", Std: true}, {Path: "example.com/m"}, {Path: "encoding/json", Std: true}, {Path: "net/url", Std: true}}
	if got := StdCoverBuildInfo(pkgs); got != "stdcover=encoding%2Fjson%2Cnet%2Furl" {
		t.Errorf("StdCoverBuildInfo = %q", got)
	}
	if got := StdCoverBuildInfo(pkgs[1:2]); got != "" {
		t.Errorf("no std package: %q", got)
	}
	if stdCoverInfoKey != driver.StdCoverInfoKey {
		t.Errorf("build-info key %q, the driver reads %q", stdCoverInfoKey, driver.StdCoverInfoKey)
	}
}

// TestCompileErrorLines checks that the go command's errors on an
// instrumented package name the user's file and line.
func TestCompileErrorLines(t *testing.T) {
	gfz, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/broken\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => "+gfz+"\n")
	write("b.go", `package broken

func F(n int) int {
	if n > 0 {
		n--
	}
	for i := 0; i < n; i++ {
		n += i
	}
	var s string = n
	return len(s)
}

func G(x undefinedT) {}
`)
	p := prepare(t, Options{Dir: dir})
	cmd := exec.Command("go", "build", "-overlay", p.Overlay, ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	for _, want := range []string{"b.go:10:17: cannot use n", "b.go:14:10: undefined: undefinedT"} {
		if err == nil || !strings.Contains(string(out), want) {
			t.Errorf("want %q, got %v:\n%s", want, err, out)
		}
	}
}

func TestRefusal(t *testing.T) {
	for path, refused := range map[string]bool{
		"runtime": true, "runtime/debug": true, "internal/abi": true, "sync/atomic": true, "unsafe": true,
		"crypto/internal/fips140": true, "encoding/json": false, "go/types": false,
	} {
		if got := Refusal(path, true) != ""; got != refused {
			t.Errorf("Refusal(%q) refused=%v, want %v", path, got, refused)
		}
	}
	if Refusal("github.com/gfz-dev/gfz/runtime", false) == "" || Refusal("example.com/x", false) != "" {
		t.Error("non-std refusals wrong")
	}
	_, err := Prepare(context.Background(), Options{Dir: fixtureDir(t), Cover: []string{"sync/atomic"}})
	if err == nil || !strings.Contains(err.Error(), "cannot instrument sync/atomic") {
		t.Errorf("-cover sync/atomic: %v", err)
	}
}

func TestMapSize(t *testing.T) {
	if ChooseMapBits(0) != MinMapBits || ChooseMapBits(1<<22) != MaxMapBits {
		t.Error("bounds")
	}
	for _, n := range []int{100, 1234, 10000, 50000} {
		b := ChooseMapBits(n)
		r := CollisionRate(n*EdgesPerProbe, b)
		if b < MaxMapBits && r > TargetCollisionRate || b > MinMapBits && CollisionRate(n*EdgesPerProbe, b-1) <= TargetCollisionRate {
			t.Errorf("ChooseMapBits(%d) = %d (rate %.3f)", n, b, r)
		}
	}
	// 1 - (1-1/M)^(E-1) against a direct computation.
	if r := CollisionRate(2, 1); r != 0.5 {
		t.Errorf("CollisionRate(2, 1) = %v", r)
	}
}

func TestFuzzTargets(t *testing.T) {
	src := `package p
import (
	g "github.com/gfz-dev/gfz"
	tt "testing"
)
func FuzzA(f *tt.F) { g.Fuzz(f, nil) }
func FuzzB(f *tt.F) { f.Fuzz(func(*tt.T, []byte) {}) }
func Fuzzlower(f *tt.F) { g.Fuzz(f, nil) }
func FuzzC(f *tt.F) { if true { g.Fuzz(f, nil) } }
func FuzzD(x int) { g.Fuzz(nil, nil) }
`
	got, err := FuzzTargets("p_test.go", src)
	if err != nil || strings.Join(got, ",") != "FuzzA,FuzzC" {
		t.Errorf("FuzzTargets = %v, %v", got, err)
	}
}
