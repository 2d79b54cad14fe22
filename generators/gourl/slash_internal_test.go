package gourl

import "testing"

func TestTwoSlashes(t *testing.T) {
	for s, want := range map[string]bool{
		"//a": true, "%2F/a": true, "/%2f": true, "%2F%2Fa": true, "%2f%2F": true,
		"/a": false, "%2F": false, "a//": false, "./%2F/": false, "%2E/": false, "%2/": false, "": false,
	} {
		if got := twoSlashes(s); got != want {
			t.Errorf("twoSlashes(%q) = %v, want %v", s, got, want)
		}
	}
}
