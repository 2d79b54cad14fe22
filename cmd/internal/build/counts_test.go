package build

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCountsFlag: gfz-build -counts sets runtime.CountLaps in the
// runtime/mapsize.go overlay, and under that overlay a probe counts past
// 255 (the runtime's TestHitCountsLaps checks 1000 hits give 1000); by
// default the constant is false.
func TestCountsFlag(t *testing.T) {
	dir := fixtureDir(t)
	for _, counts := range []bool{false, true} {
		p := prepare(t, Options{Patterns: []string{"."}, Dir: dir, Counts: counts})
		src, err := os.ReadFile(filepath.Join(p.WorkDir, "mapsize.go"))
		if err != nil {
			t.Fatal(err)
		}
		want := "const CountLaps = false"
		if counts {
			want = "const CountLaps = true"
		}
		if !strings.Contains(string(src), want) {
			t.Fatalf("counts %v: mapsize.go overlay lacks %q:\n%s", counts, want, src)
		}
		if !counts {
			continue
		}
		t.Setenv("GFZ_WANT_COUNTLAPS", "1") // the runtime test fails if the overlay did not set CountLaps
		out, err := goTest(t, p, dir, "-v", "-run", "TestHitCountsLaps", GfzPath+"/runtime")
		if err != nil || !strings.Contains(out, "--- PASS: TestHitCountsLaps") {
			t.Fatalf("runtime test under the -counts overlay: %v\n%s", err, out)
		}
	}
}
