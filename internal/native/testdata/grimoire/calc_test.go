package grimoire

import "testing"

func FuzzEval(f *testing.F) {
	for _, s := range []string{"max(1, 2)", "1 + 2 * 3", "min(4, 7) - 1", "(1 + 2) * abs(3)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		Eval(s)
	})
}
