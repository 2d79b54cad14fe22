package build

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
)

// TestTestFilesMixedComparison: a test file comparing an int or a string
// with an interface (expected != got, got of type any), legal Go met in
// gojq v0.12.20's compiler_test.go, builds with its probes and comparison
// probes (the default for a native target), and the target runs. Before
// the fix the interface operand was converted to the helper type and the
// build failed: "cannot convert got (variable of interface type any) to
// type _gfzI64: need type assertion".
func TestTestFilesMixedComparison(t *testing.T) {
	dir := filepath.Join("testdata", "mixedcmp")
	out := filepath.Join(t.TempDir(), "mixedcmp.gfz")
	var stderr bytes.Buffer
	res, err := Build(context.Background(), Options{Patterns: []string{"."}, Dir: dir, Output: out, Cache: "off", Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if len(res.Binaries) != 1 || res.Binaries[0].TestProbes == 0 {
		t.Fatalf("binaries %+v: want one, with probes in its _test.go files\n%s", res.Binaries, stderr.String())
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if o, code := runBinary(t, out, abs, "-runs", "2000", "-seed", "1", "-workers", "1", "-workdir", t.TempDir(), "FuzzValue"); code != 0 {
		t.Fatalf("FuzzValue: exit %d\n%s", code, o)
	}
}
