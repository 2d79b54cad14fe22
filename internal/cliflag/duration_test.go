package cliflag

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	cases := []struct {
		arg     string
		auto    bool
		want    time.Duration
		isAuto  bool
		wantErr string
	}{
		{"90s", false, 90 * time.Second, false, ""},
		{"0", false, 0, false, ""},
		{"10", false, 0, false, "a duration needs a unit: write 10s"},
		{"1.5", true, 0, false, "write 1.5s"},
		{"soon", false, 0, false, "not a duration"},
		{"-1s", false, 0, false, "must not be negative"},
		{"auto", true, 0, true, ""},
		{"auto", false, 0, false, "not a duration"},
	}
	for _, c := range cases {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		v := Duration{Auto: c.auto}
		fs.Var(&v, "timeout", "")
		err := fs.Parse([]string{"-timeout", c.arg})
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), "-timeout") {
				t.Errorf("%q: error %v, want one naming -timeout with %q", c.arg, err, c.wantErr)
			}
			continue
		}
		if err != nil || v.D != c.want || v.IsAuto != c.isAuto {
			t.Errorf("%q: %v, %v auto=%v; want %v auto=%v", c.arg, err, v.D, v.IsAuto, c.want, c.isAuto)
		}
		if v.String() != c.arg && !(c.arg == "0" && v.String() == "0s") && c.arg != "90s" {
			t.Errorf("%q: String() = %q", c.arg, v.String())
		}
	}
}
