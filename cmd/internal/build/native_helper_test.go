package build

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestNativeTargetsThroughHelpers: a target whose f.Fuzz is in a function
// it hands its *testing.F to, in another _test.go file of the package
// (goldmark's fuzz(f)) or another target (compress/zstd's FuzzDecAllNoBMI2
// calling FuzzDecodeAll), is a native target with that f.Fuzz's types.
func TestNativeTargetsThroughHelpers(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a_test.go": "package p\n\nimport \"testing\"\n\nfunc fuzz(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, s string) {})\n}\n\nfunc FuzzA(f *testing.F) {\n\tf.Add(\"x\")\n\tfuzz(f)\n}\n",
		"b_test.go": "package p\n\nimport \"testing\"\n\nfunc FuzzB(f *testing.F) {\n\tif testing.Short() {\n\t\tf.Skip(\"short\")\n\t}\n\tFuzzC(f)\n}\n\nfunc FuzzC(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, b []byte, n int) {})\n}\n\nfunc FuzzNone(f *testing.F) {\n\thelperWithoutFuzz(f)\n}\n\nfunc helperWithoutFuzz(f *testing.F) { f.Add(1) }\n",
	}
	names := writeScanFiles(t, dir, files)
	targets, rewritten, _, err := nativeScan(names)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, nt := range targets {
		got[nt.Name] = nt.Types + " in " + filepath.Base(nt.File)
	}
	want := map[string]string{"FuzzA": "string in a_test.go", "FuzzB": "[]byte,int in b_test.go", "FuzzC": "[]byte,int in b_test.go"}
	if len(got) != len(want) {
		t.Errorf("targets %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	// The helper's f.Fuzz is rewritten like a target's.
	for _, r := range rewritten {
		if strings.HasSuffix(r.orig, "a_test.go") && !strings.Contains(string(r.src), nativeImport+".FuzzNative(f, ") {
			t.Errorf("a_test.go's helper f.Fuzz not rewritten:\n%s", r.src)
		}
	}
}

// writeScanFiles writes files (name to source) into dir and returns their
// paths, sorted.
func writeScanFiles(t *testing.T, dir string, files map[string]string) []string {
	t.Helper()
	var names []string
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, p)
	}
	sort.Strings(names)
	return names
}
