package mixedcmp_test

import (
	"testing"

	"example.com/mixedcmp"
)

func FuzzValue(f *testing.F) {
	f.Add([]byte("abc"))
	f.Add([]byte(`"x`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := mixedcmp.Value(data)
		if len(data) > 0 && data[0] == '"' {
			if s := string(data[1:]); s != got { // a string and an any
				t.Fatalf("Value(%q) = %v, want %q", data, got, s)
			}
			return
		}
		if expected := len(data); expected != got { // an int and an any
			t.Fatalf("Value(%q) = %v, want %d", data, got, expected)
		}
	})
}
