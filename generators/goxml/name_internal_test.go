package goxml

import "testing"

func TestIsName(t *testing.T) {
	for s, want := range map[string]bool{
		"": false, "a": true, "item": true, "_x1": true, "a-b.c": true,
		"1a": false, "-a": false, ".a": false, "a b": false, "é": false,
		"xml": false, "XML": false, "xMl-foo": false, "xm": true, "axml": true, "x": true,
	} {
		if got := isName(s); got != want {
			t.Errorf("isName(%q) = %v, want %v", s, got, want)
		}
	}
}
