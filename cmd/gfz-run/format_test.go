package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestFormatPassedOn: gfz-run passes -format and -grimoire to the fuzz
// binaries when given (-format auto, none or a format; -grimoire with its
// value), not otherwise, and refuses an unknown format itself.
func TestFormatPassedOn(t *testing.T) {
	for _, c := range []struct {
		args []string
		flag string
		want string
	}{
		{[]string{"."}, "-format", ""},
		{[]string{"-format", "toml", "."}, "-format", "-format toml"},
		{[]string{"-format", "none", "."}, "-format", "-format none"},
		{[]string{"."}, "-grimoire", ""},
		{[]string{"-grimoire", "."}, "-grimoire", "-grimoire=true"},
		{[]string{"-grimoire=false", "."}, "-grimoire", "-grimoire=false"},
	} {
		o, code := parse(c.args, io.Discard)
		if o == nil {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		got := strings.Join(o.run, " ")
		if c.want == "" && strings.Contains(got, c.flag) || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%v: binary flags %q, want %q", c.args, got, c.want)
		}
	}
	var errb bytes.Buffer
	if o, code := parse([]string{"-format", "ini", "."}, &errb); o != nil || code != 2 || !strings.Contains(errb.String(), `-format "ini": want auto, none or one of json,`) {
		t.Errorf("-format ini: exit %d, %q", code, errb.String())
	}
}
