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

// TestVendoredWithoutFormats: a module that requires gfz and vendors its
// dependencies without generators/formats (go mod vendor leaves it out:
// only the native rewrite imports it) builds its native targets from the
// module cache, with a warning saying how to build from vendor/; with the
// package vendored, or without native targets, the build stays in vendor
// mode.
func TestVendoredWithoutFormats(t *testing.T) {
	for _, c := range []struct {
		name    string
		modules string // vendor/modules.txt; "" for no vendor directory
		natives bool
		modMod  bool
	}{
		{"vendored without formats", "# " + GfzPath + " v0.2.0\n## explicit\n" + GfzPath + "\n", true, true},
		{"vendored with formats", "# " + GfzPath + " v0.2.0\n## explicit\n" + GfzPath + "\n" + FormatsPath + "\n", true, false},
		{"no native targets", "# " + GfzPath + " v0.2.0\n## explicit\n" + GfzPath + "\n", false, false},
		{"not vendored", "", true, false},
	} {
		dir := t.TempDir()
		gomod := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(gomod, []byte("module m\n\ngo 1.22\n\nrequire "+GfzPath+" v0.2.0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if c.modules != "" {
			if err := os.MkdirAll(filepath.Join(dir, "vendor"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "vendor", "modules.txt"), []byte(c.modules), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		e, err := planModuleEdit(gomod, "off", func() (string, error) { t.Fatal("library added"); return "", nil }, "v0.2.0")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		e.needsFormats = c.natives
		flags, _, err := e.write(t.TempDir(), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := strings.Contains(strings.Join(flags, " "), "-mod=mod"); got != c.modMod {
			t.Errorf("%s: flags %q, want -mod=mod %v", c.name, flags, c.modMod)
		}
		if w := e.formatsWarning(); (w != "") != c.modMod || c.modMod && !strings.Contains(w, "go mod vendor") {
			t.Errorf("%s: warning %q", c.name, w)
		}
	}
}

// TestPlanReplacedNotRequired: a go.mod that replaces gfz by a directory
// but no longer requires it (go mod tidy's result once no file imports
// the library: native targets need none) builds with that directory as
// the library, now required; it used to build without the library and
// fail ("provides no probe runtime").
func TestPlanReplacedNotRequired(t *testing.T) {
	dir := t.TempDir()
	userLib := filepath.Join(dir, "gfz")
	if err := os.MkdirAll(userLib, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(userLib, "go.mod"), []byte("module "+GfzPath+"\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(dir, "m")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod := filepath.Join(mod, "go.mod")
	src := "module m\n\ngo 1.22\n\nreplace " + GfzPath + " => ../gfz\n"
	if err := os.WriteFile(gomod, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := planModuleEdit(gomod, "off", func() (string, error) { t.Fatal("gfz-build's own library added"); return "", nil }, "v0.2.0")
	if err != nil {
		t.Fatal(err)
	}
	if e.lib != userLib {
		t.Fatalf("library %q, want the replacement directory %q", e.lib, userLib)
	}
	flags, _, err := e.write(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(flags) == 0 || !strings.HasPrefix(flags[0], "-modfile=") {
		t.Fatalf("flags %q", flags)
	}
	b, _ := os.ReadFile(strings.TrimPrefix(flags[0], "-modfile="))
	if !strings.Contains(string(b), "require "+GfzPath) || !strings.Contains(string(b), "replace "+GfzPath+" => "+userLib) {
		t.Errorf("temporary go.mod:\n%s", b)
	}
	if after, _ := os.ReadFile(gomod); string(after) != src {
		t.Errorf("the module's go.mod changed")
	}
}

// TestOldLinesKeepGodebug: when the temporary module file raises an old go
// line to the library's, the runtime's GODEBUG defaults stay those of the
// old line (godebug default=go1.N): in a go.mod, and in a go.work, whose
// go line sets them for a workspace (net/http's ServeMux patterns
// changed a test's result in the fuzz binary).
func TestOldLinesKeepGodebug(t *testing.T) {
	lib := testmod.GfzRoot(t) // go 1.22
	libDir := func() (string, error) { return lib, nil }
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gomod := write("a/go.mod", "module example.com/a\n\ngo 1.21\n")
	gowork := write("go.work", "go 1.21\n\nuse ./a\n")
	for _, c := range []struct{ name, gowork string }{{"go.mod", "off"}, {"go.work", gowork}} {
		e, err := planModuleEdit(gomod, c.gowork, libDir, "v0.2.0")
		if err != nil {
			t.Fatal(err)
		}
		flags, env, err := e.write(t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var tmp string
		for _, f := range flags {
			if p, ok := strings.CutPrefix(f, "-modfile="); ok {
				tmp = p
			}
		}
		for _, v := range env {
			if p, ok := strings.CutPrefix(v, "GOWORK="); ok {
				tmp = p
			}
		}
		b, err := os.ReadFile(tmp)
		if err != nil {
			t.Fatalf("%s: the temporary file (flags %q, env %q): %v", c.name, flags, env, err)
		}
		if !strings.Contains(string(b), "go 1.22") || !strings.Contains(string(b), "godebug default=go1.21") {
			t.Errorf("%s: temporary file:\n%s", c.name, b)
		}
	}
}
