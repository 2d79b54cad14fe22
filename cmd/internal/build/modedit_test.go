package build

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestPlanModuleEdit: when gfz-build adds its own library, and when it
// leaves the module's gfz requirement alone.
func TestPlanModuleEdit(t *testing.T) {
	lib := testmod.GfzRoot(t)
	libDir := func() (string, error) { return lib, nil }
	for _, c := range []struct {
		name, gomod, tool string
		add               bool   // the library is added (or swapped in)
		note              string // part of the note; "" for none
	}{
		{"plain", "module m\n\ngo 1.22\n", "v0.2.0", true, ""},
		{"same version", "module m\n\ngo 1.22\n\nrequire " + GfzPath + " v0.2.0\n", "v0.2.0", false, ""},
		{"other version", "module m\n\ngo 1.22\n\nrequire " + GfzPath + " v0.1.0\n", "v0.2.0", true, "requires " + GfzPath + " v0.1.0; building it with this gfz-build's library (v0.2.0)"},
		{"checkout tool", "module m\n\ngo 1.22\n\nrequire " + GfzPath + " v0.1.0\n", "", true, "(a checkout)"},
		{"replaced by a directory", "module m\n\ngo 1.22\n\nrequire " + GfzPath + " v0.1.0\n\nreplace " + GfzPath + " => ../gfz\n", "v0.2.0", false, ""},
		{"replaced by a version", "module m\n\ngo 1.22\n\nrequire " + GfzPath + " v0.1.0\n\nreplace " + GfzPath + " => " + GfzPath + " v0.2.0\n", "v0.2.0", false, ""},
		{"gfz itself", "module " + GfzPath + "\n\ngo 1.22\n", "v0.2.0", false, ""},
	} {
		gomod := filepath.Join(t.TempDir(), "go.mod")
		if err := os.WriteFile(gomod, []byte(c.gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		e, err := planModuleEdit(gomod, "off", libDir, c.tool)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if (e.lib != "") != c.add {
			t.Errorf("%s: library added = %v, want %v", c.name, e.lib != "", c.add)
		}
		if c.note == "" && e.Note != "" || c.note != "" && !strings.Contains(e.Note, c.note) {
			t.Errorf("%s: note %q, want one with %q", c.name, e.Note, c.note)
		}
		if !c.add {
			continue
		}
		flags, _, err := e.write(t.TempDir(), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(flags) == 0 || !strings.HasPrefix(flags[0], "-modfile=") {
			t.Fatalf("%s: flags %q", c.name, flags)
		}
		b, _ := os.ReadFile(strings.TrimPrefix(flags[0], "-modfile="))
		if !strings.Contains(string(b), "replace "+GfzPath+" => "+lib) {
			t.Errorf("%s: temporary go.mod does not replace gfz by its library:\n%s", c.name, b)
		}
		if after, _ := os.ReadFile(gomod); string(after) != c.gomod {
			t.Errorf("%s: the module's go.mod changed", c.name)
		}
	}
}
