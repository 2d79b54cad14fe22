package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestIndexSchedule: the index of a scheduled run shows each target's
// state, share and figures, when it ran (a box per process, darker for
// more workers), its coverage and share over time, and reloads itself
// while the run goes on.
func TestIndexSchedule(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "rep")
	entries := []IndexEntry{
		{Package: "example.com/m/p", Target: "FuzzA", Workdir: filepath.Join(dir, "a"), Report: filepath.Join(out, "p", "FuzzA")},
		{Package: "example.com/m/q", Target: "FuzzB", Workdir: filepath.Join(dir, "b"), Report: filepath.Join(out, "q", "FuzzB")},
	}
	if err := os.MkdirAll(entries[0].Report, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(entries[0].Report, IndexFile), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Schedule{Mode: "adaptive", Elapsed: 40 * time.Second, Budget: time.Minute, Cores: 2, Running: true,
		Targets: []ScheduleTarget{
			{State: "running", Cores: 2, Share: 0.75, CPU: 50.5, Execs: 123456, Coverage: 80, Corpus: 30, NewFailures: 1,
				Spans: []ScheduleSpan{{0, time.Second, 1}, {2 * time.Second, 40 * time.Second, 2}},
				Samples: []ScheduleSample{{At: time.Second, Coverage: 10, Share: 0.5}, {At: 20 * time.Second, Coverage: 60, Share: 0.7},
					{At: 40 * time.Second, Coverage: 80, Share: 0.75}}},
			{State: "waiting", Share: 0.25, CPU: 12, Execs: 999, Coverage: 7, Corpus: 3,
				Spans:   []ScheduleSpan{{time.Second, 2 * time.Second, 1}},
				Samples: []ScheduleSample{{At: 2 * time.Second, Coverage: 7, Share: 0.3}}},
		}}
	path, err := WriteIndexSchedule(out, entries, s, time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, want := range []string{
		`<meta http-equiv="refresh" content="5"/>`,
		"<h2>Schedule</h2>",
		"adaptive schedule on 2 worker processes; 40s of a budget of 1m; running",
		`href="p/FuzzA/index.html">FuzzA</a>`,
		"<td>running ×2</td>", "<td>waiting</td>",
		"75.0%", "25.0%", "50.5 s", "123,456",
		`<svg class="spark"`,
		"when each target ran",
		"share of the time so far",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the index lacks %q", want)
		}
	}
	// Three processes, three boxes: the one on two workers darkest.
	boxes := regexp.MustCompile(`<rect class="t\d" x="\d+" y="\d+" width="\d+" height="14" fill-opacity="([0-9.]+)"`).FindAllStringSubmatch(page, -1)
	if len(boxes) != 3 || boxes[1][1] != "1.00" || boxes[0][1] != "0.65" {
		t.Errorf("timeline boxes %v, want 3 with opacities 0.65, 1.00, 0.65", boxes)
	}
	// The run has ended: no reload.
	s.Running = false
	if _, err := WriteIndexSchedule(out, entries, s, time.Time{}); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if strings.Contains(string(data), "refresh") || !strings.Contains(string(data), "; finished") {
		t.Errorf("the final index reloads itself or does not say the run finished")
	}
	// Without a schedule the index is as before.
	if _, err := WriteIndex(out, entries, time.Time{}); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if strings.Contains(string(data), "<h2>Schedule</h2>") {
		t.Errorf("a plain index shows a schedule:\n%s", data)
	}
}
