package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestExitCodes(t *testing.T) {
	fixture, err := filepath.Abs("../../testdata/instrument/fixture")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(fixture)
	out := filepath.Join(t.TempDir(), "fix.gfz")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-nosuchflag"}, 2, "flag provided but not defined"},
		{[]string{"-mapbits", "40", "."}, 2, "-mapbits must be between"},
		{[]string{"./nosuchdir"}, 1, "gfz-build:"},
		{[]string{"-cover", "runtime", "./target"}, 1, "cannot instrument runtime"},
		{[]string{"."}, 1, "no gfz fuzz targets"},
		{[]string{"-o", out, "-mapbits", "18", "./..."}, 0, "example.com/fixture/target: " + out + " (1 targets: FuzzParse; 118 probes)"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), c.args, &stdout, &stderr)
		all := stdout.String() + stderr.String()
		if code != c.code || !strings.Contains(all, c.want) {
			t.Errorf("gfz-build %v: exit %d, want %d with %q; output:\n%s", c.args, code, c.code, c.want, all)
		}
	}
}
