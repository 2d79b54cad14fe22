package report_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestFuzzBinaryReport builds the gfz-build fixture's fuzz target, runs it
// with -report and checks the report it writes: the run's figures, the
// coverage with the functions of the probe tables, and the source found
// through the binary's line table (the binary runs outside any module, so
// it cannot find it otherwise).
func TestFuzzBinaryReport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a fuzz binary")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "testdata", "instrument", "fixture")
	bin := filepath.Join(t.TempDir(), "t.gfz")
	if log, err := testmod.GfzBuild(dir, "-o", bin, "./target"); err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	work, out := filepath.Join(t.TempDir(), "work"), filepath.Join(t.TempDir(), "report")
	run := exec.Command(bin, "-runs", "300", "-seed", "3", "-workers", "1", "-workdir", work, "-report", out, "FuzzParse")
	run.Dir = t.TempDir()
	o, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, o)
	}
	index := filepath.Join(out, "index.html")
	if !strings.Contains(string(o), "gfz: report: "+index) {
		t.Errorf("the binary does not say where the report is:\n%s", o)
	}
	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, want := range []string{
		"gfz report: FuzzParse",
		"<polyline",
		"example.com/fixture/target/target.go",
		filepath.Join(dir, "target", "target.go"), // from the line table
		`<td class="mono">Parse</td>`,             // from the probe tables
		`class="c">func Parse(b []byte) int {</div>`,
		filepath.Join(work, "coverprofile"),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(page, "no coverage profile") || strings.Contains(page, "not found") {
		t.Errorf("report misses coverage or source")
	}
}

func TestMain(m *testing.M) { testmod.Main(m) }
