// Package targets holds gfz's realistic fuzz targets (one package each) and
// the measurement of their validity rates: with GFZ_MEASURE=1,
// TestMeasureValidity builds every target with gfz-build (built from this
// checkout's tools module), with the code under test instrumented through -cover), runs each fuzz binary for GFZ_MEASURE_RUNS executions (default
// 20000) under -engine random and -engine zest with -seed 1, and prints the
// valid_pct of the work directory's stats file. docs/GENERATORS.md records
// the figures.
package targets

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

type target struct {
	dir     string // module directory, relative to testdata/targets
	pattern string
	name    string
	cover   []string // code under test, instrumented with -cover
}

var targets = []target{
	{"../..", "./testdata/targets/gotypes", "FuzzGoTypes", []string{"go/scanner", "go/parser", "go/types"}},
	{"../..", "./testdata/targets/xmlcatalog", "FuzzCatalog", []string{"encoding/xml"}},
	{"../..", "./testdata/targets/jsonorder", "FuzzOrder", []string{"encoding/json"}},
	{"tomlcfg", ".", "FuzzConfig", []string{"github.com/BurntSushi/toml", "github.com/BurntSushi/toml/internal"}},
	{"../..", "./testdata/targets/tmpl", "FuzzTemplate", []string{"text/template", "text/template/parse"}},
	{"../..", "./testdata/targets/tmpl", "FuzzHTMLTemplate", []string{"html/template", "text/template", "text/template/parse"}},
}

func TestMeasureValidity(t *testing.T) {
	if os.Getenv("GFZ_MEASURE") != "1" {
		t.Skip("set GFZ_MEASURE=1 to build the targets and measure their validity rates")
	}
	runs := os.Getenv("GFZ_MEASURE_RUNS")
	if runs == "" {
		runs = "20000"
	}
	engines := strings.Fields(os.Getenv("GFZ_MEASURE_ENGINES"))
	if len(engines) == 0 {
		engines = []string{"random", "zest"}
	}
	for _, tg := range targets {
		dir, err := filepath.Abs(tg.dir)
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(t.TempDir(), tg.name+".gfz")
		args := []string{"-o", bin}
		for _, c := range tg.cover {
			args = append(args, "-cover", c)
		}
		if log, err := testmod.GfzBuild(dir, append(args, tg.pattern)...); err != nil {
			t.Fatalf("build %s: %v\n%s", tg.name, err, log)
		}
		for _, eng := range engines {
			work := filepath.Join(t.TempDir(), "work")
			cmd := exec.Command(bin, "-engine", eng, "-runs", runs, "-seed", "1", "-workdir", work, tg.name)
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
				t.Fatalf("%s -engine %s: %v\n%s", tg.name, eng, err, out)
			}
			stats, err := readStats(filepath.Join(work, "stats"))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Printf("%-12s engine=%-6s execs=%s valid_pct=%s execs_per_sec=%s total_cov=%s valid_cov=%s failing=%s\n",
				tg.name, eng, stats["execs"], stats["valid_pct"], stats["execs_per_sec"], stats["total_cov"], stats["valid_cov"], stats["failing"])
			if _, err := strconv.ParseFloat(stats["valid_pct"], 64); err != nil {
				t.Errorf("%s: valid_pct %q", tg.name, stats["valid_pct"])
			}
		}
	}
}

func readStats(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read stats: %w", err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok {
			m[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return m, sc.Err()
}

func TestMain(m *testing.M) { testmod.Main(m) }
