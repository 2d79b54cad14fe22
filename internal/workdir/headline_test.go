package workdir

import (
	"strings"
	"testing"
)

func TestHeadline(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"", ""},
		{"boom", "boom"},
		{"  boom  \n", "boom"},
		{"x_test.go:14: bad pair:\n  a=1\n  b=4\n |\n ^", "x_test.go:14: bad pair: …"},
		{"\n\n  first\n", "first"},
		{"x_test.go:9: \n    want 3, got 4\n", "x_test.go:9: want 3, got 4"},
		{"x_test.go:9:\nwant 3\ngot 4", "x_test.go:9: want 3 …"},
		{"a.go: not a location\nmore", "a.go: not a location …"},
		{strings.Repeat("é", 300), strings.Repeat("é", MaxHeadline) + "…"},
	} {
		if got := Headline(c.msg); got != c.want {
			t.Errorf("Headline(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
