package build

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestThirdPartyTOML instruments github.com/BurntSushi/toml (pulled through
// the module proxy, pinned by the fixture's go.sum) as a dependency of the
// fixture, by default (no -cover), and runs its own tests instrumented and
// plain.
func TestThirdPartyTOML(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "instrument", "thirdparty")
	const pkg = "github.com/BurntSushi/toml"
	p := prepare(t, Options{Patterns: []string{"."}, Dir: dir})
	var probes int
	for _, ip := range p.Packages {
		if ip.Path == pkg {
			probes = ip.Probes
		}
	}
	if probes < 500 {
		t.Fatalf("toml: %d probes; packages %+v", probes, p.Packages)
	}
	plain, err := goTest(t, nil, dir, "-v", pkg)
	if err != nil {
		t.Fatalf("plain: %v\n%s", err, plain)
	}
	inst, err := goTest(t, p, dir, "-v", pkg)
	if err != nil {
		t.Fatalf("instrumented: %v\n%s", err, inst)
	}
	// toml's tests range over maps, so compare the sorted result lines.
	pr, ir := results(plain), results(inst)
	if pr != ir || !strings.Contains(ir, "--- PASS: TestDecode") {
		t.Errorf("results differ:\nplain:\n%s\ninstrumented:\n%s", pr, ir)
	}
	t.Logf("toml: %d probes, %d identical test results", probes, strings.Count(ir, "\n"))
}

// results returns the sorted "--- PASS/FAIL/SKIP: name" lines and the final
// status line of go test -v output.
func results(out string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "--- ") || l == "PASS" || l == "FAIL" || strings.HasPrefix(l, "ok ") {
			lines = append(lines, l)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}
