package engine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFeedbackFilesGlobMetachars: the workers' feedback files are found in
// a work directory whose path holds glob metacharacters ("proj[1]", a
// user's directory name), read in name order and removed; only the
// files named as feedback files are.
func TestFeedbackFilesGlobMetachars(t *testing.T) {
	for _, name := range []string{"plain", "proj[1]", "a*b", "q?"} {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), name, "FuzzX")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			files := map[string]string{
				feedbackFilePrefix + "10": "saved_perf: 10\n",
				feedbackFilePrefix + "2":  "saved_perf: 2\n",
				"stats":                   "saved_perf: 100\n",
			}
			for n, data := range files {
				if err := os.WriteFile(filepath.Join(root, n), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// Name order, as filepath.Glob gave: "10" before "2".
			want := [][]kvPair{{{"saved_perf", "10"}}, {{"saved_perf", "2"}}}
			if got := readFeedbackFiles(root); !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("read %v, want %v", got, want)
			}
			removeFeedbackFiles(root)
			for n := range files {
				_, err := os.Stat(filepath.Join(root, n))
				if gone := os.IsNotExist(err); gone != (n != "stats") {
					t.Errorf("after removeFeedbackFiles, %s removed: %v", n, gone)
				}
			}
		})
	}
}
