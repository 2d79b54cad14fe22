package workdir

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Real stats files, copied from work directories (the timestamps are
// those of the runs).

// supervisorWaypointStats: gfz-run -time 4s -feedback perf,mem,diff
// ./testdata/examples/waypoint (a supervisor with two workers: its keys,
// then the workers' merged feedback keys, the waypoints' among them).
const supervisorWaypointStats = `target: FuzzLock
engine: zest
seed: 1
state: done
start_time: 1795738160
last_update: 1795738164
elapsed_s: 4.0
execs: 245114
execs_per_sec: 61066
valid: 245112
invalid: 0
failing: 2
valid_pct: 100.00
corpus: 13
total_cov: 4
valid_cov: 4
unique_failures: 1
new_failures: 1
failure_sites: 1
stability: 100.00
rechecks: 18
timeout_ms: 1000
timeout_rule: calibrated: 20 x the slowest start execution of the workers (869µs), at least 1s, at most 5s
hill_b0: 4
hill_b1: 4.000
hill_b2: 4.000
children: 246330
zero_mutations: 0.0050
zero_mutations_count: 1231
mutation_distance_mean: 0.7002
mutation_distance_samples: 3830
mutation_distance_zero: 0
workers: 2
restarts: 0
crashes: 0
timeouts: 0
unconfirmed_timeouts: 0
ooms: 0
rss_supervisor_kb: 7560
rss_workers_kb: 0
errors: 0
saved_waypoint: 10
saved_perf: 0
saved_mem: 1
saved_diff: 0
waypoint_keys: 1
waypoint_best: max(digits right)=7
perf_max_path: 10
perf_max_edge: 7
perf_slowest: corpus/3576c31009d9bee7
perf_slowest_path: 10
perf_median_path: 10
perf_slowest_edges: edge 0x396 7 (median 7), edge 0xfe 1 (median 1), edge 0x110 1 (median 1), edge 0x29b 1 (median 1)
mem_max_bytes: 176
mem_max_objects: 2
mem_largest: corpus/0655463050ba17ea
diff_keys: 0
`

// supervisorDiffStats: gfz-run -time 4s -feedback perf,mem,diff
// ./testdata/examples/diff (diff_max appears once a divergence is seen).
const supervisorDiffStats = `target: FuzzVariance
engine: zest
seed: 1
state: done
start_time: 1795738155
last_update: 1795738159
elapsed_s: 4.0
execs: 244279
execs_per_sec: 60731
valid: 244197
invalid: 0
failing: 82
valid_pct: 99.97
corpus: 45
total_cov: 16
valid_cov: 16
unique_failures: 1
new_failures: 1
failure_sites: 1
stability: 100.00
rechecks: 57
timeout_ms: 1000
timeout_rule: calibrated: 20 x the slowest start execution of the workers (723µs), at least 1s, at most 5s
hill_b0: 10
hill_b1: 10.000
hill_b2: 10.000
children: 244556
zero_mutations: 0.0013
zero_mutations_count: 324
mutation_distance_mean: 0.6182
mutation_distance_samples: 3817
mutation_distance_zero: 0
workers: 2
restarts: 0
crashes: 0
timeouts: 0
unconfirmed_timeouts: 0
ooms: 0
rss_supervisor_kb: 7800
rss_workers_kb: 0
errors: 0
saved_waypoint: 0
saved_perf: 4
saved_mem: 0
saved_diff: 39
perf_max_path: 38
perf_max_edge: 15
perf_slowest: corpus/bdd71244c3e9f6d4
perf_slowest_path: 38
perf_median_path: 10
perf_slowest_edges: edge 0x1ef 15 (median 1), edge 0x26a 15 (median 1), edge 0x6e 1 (median 1), edge 0xcb 1 (median 1), edge 0x12a 1 (median 1)
mem_max_bytes: 3520
mem_max_objects: 5
mem_largest: corpus/bdd71244c3e9f6d4
diff_keys: 1
diff_max: max(variance)=9.959199643860828e-07
`

// inProcessStats: engine.Run in process (no supervisor), as in the
// engine's tests with -feedback perf,mem,diff: no target name (an empty
// value, written "target: "), the in-process engine's saved_* keys, the
// metrics keys last.
const inProcessStats = "target: \n" + `engine: zest
seed: 1
state: done
start_time: 1795738181
last_update: 1795738181
elapsed_s: 0.0
execs: 400
execs_per_sec: 11094
valid: 400
invalid: 0
failing: 0
valid_pct: 100.00
corpus: 1
total_cov: 2
valid_cov: 2
unique_failures: 0
new_failures: 0
failure_sites: 0
stability: 100.00
rechecks: 2
timeout_ms: 1000
timeout_rule: calibrated: 20 x the slowest of 1 start executions (577µs), at least 1s, at most 5s
saved_cov: 1
saved_count: 0
saved_valid: 0
saved_waypoint: 0
saved_perf: 0
saved_mem: 0
saved_diff: 0
perf_max_path: 2
perf_max_edge: 1
perf_slowest: corpus/ef2d127de37b942b
perf_slowest_path: 2
perf_median_path: 2
perf_slowest_edges: edge 0x1 1 (median 1), edge 0x2 1 (median 1)
mem_max_bytes: 0
mem_max_objects: 0
mem_largest: corpus/ef2d127de37b942b
diff_keys: 0
hill_b0: 2
hill_b1: 1.890
hill_b2: 1.800
children: 715
zero_mutations: 0.4420
zero_mutations_count: 316
mutation_distance_mean: 1.0000
mutation_distance_samples: 7
mutation_distance_zero: 0
`

// feedbackFile: a worker's .feedback-0 in the perf example's run.
const feedbackFile = `saved_waypoint: 0
saved_perf: 123
saved_mem: 4
saved_diff: 0
perf_max_path: 2128
perf_max_edge: 1000
perf_slowest: corpus/d4aa7c4d8b9c5783
perf_slowest_path: 2128
perf_median_path: 616
perf_slowest_edges: edge 0x32b 1000 (median 244), edge 0x260 943 (median 194), edge 0x136 63 (median 63), edge 0x31e 57 (median 51), edge 0x3a2 57 (median 51)
mem_max_bytes: 6336
mem_max_objects: 21
mem_largest: corpus/765d42a44cb73017
diff_keys: 0
`

// Every key the engine writes today (internal/engine: writeRunStats, the
// in-process and supervisor extras, the metrics and the feedback domains),
// by the kind of its value.
var (
	intKeys = []string{
		"seed", "start_time", "last_update", "execs", "execs_per_sec", "valid", "invalid", "failing",
		"corpus", "total_cov", "valid_cov", "unique_failures", "new_failures", "failure_sites", "rechecks", "timeout_ms",
		"saved_cov", "saved_count", "saved_valid", "saved_waypoint", "saved_perf", "saved_mem", "saved_diff",
		"waypoint_keys", "perf_max_path", "perf_max_edge", "perf_slowest_path", "perf_median_path",
		"mem_max_bytes", "mem_max_objects", "diff_keys",
		"hill_b0", "children", "zero_mutations_count", "mutation_distance_samples", "mutation_distance_zero",
		"workers", "restarts", "crashes", "timeouts", "unconfirmed_timeouts", "ooms", "rss_supervisor_kb", "rss_workers_kb", "errors",
	}
	floatKeys = []string{"elapsed_s", "valid_pct", "stability", "hill_b1", "hill_b2", "zero_mutations", "mutation_distance_mean"}
	textKeys  = []string{"target", "engine", "state", "timeout_rule", "waypoint_best", "perf_slowest", "perf_slowest_edges", "mem_largest", "diff_max"}
)

// TestParseStatsEngineFiles: the files the engine writes read back whole,
// without a note, in their order, every value as written.
func TestParseStatsEngineFiles(t *testing.T) {
	seen := map[string]bool{}
	for name, data := range map[string]string{
		"supervisor waypoint": supervisorWaypointStats, "supervisor diff": supervisorDiffStats,
		"in process": inProcessStats, "feedback": feedbackFile,
	} {
		st, notes := ParseStats([]byte(data))
		if len(notes) > 0 {
			t.Errorf("%s: notes %q", name, notes)
		}
		// What the writer wrote: one "key: value" line each, in order.
		var wantKeys []string
		var wantLines []Stat
		for i, l := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
			k, v, _ := strings.Cut(l, ": ")
			wantKeys = append(wantKeys, k)
			wantLines = append(wantLines, Stat{k, v, i + 1})
		}
		if got := st.Keys(); !reflect.DeepEqual(got, wantKeys) {
			t.Errorf("%s: keys\n%q\nwant\n%q", name, got, wantKeys)
		}
		if got := st.Lines(); !reflect.DeepEqual(got, wantLines) {
			t.Errorf("%s: lines\n%v\nwant\n%v", name, got, wantLines)
		}
		if st.Len() != len(wantKeys) {
			t.Errorf("%s: Len %d, want %d", name, st.Len(), len(wantKeys))
		}
		for _, k := range st.Keys() {
			seen[k] = true
		}
		for _, k := range intKeys {
			if v, ok := st.Get(k); ok {
				if _, ok := st.Int(k); !ok {
					t.Errorf("%s: Int(%s) of %q fails", name, k, v)
				}
			}
		}
		for _, k := range append(intKeys, floatKeys...) {
			if v, ok := st.Get(k); ok {
				if _, ok := st.Float(k); !ok {
					t.Errorf("%s: Float(%s) of %q fails", name, k, v)
				}
			}
		}
	}
	all := map[string]bool{}
	for _, k := range append(append(append([]string(nil), intKeys...), floatKeys...), textKeys...) {
		all[k] = true
		if !seen[k] {
			t.Errorf("no fixture has the key %s", k)
		}
	}
	for k := range seen {
		if !all[k] {
			t.Errorf("key %s of a fixture is not in the lists of the engine's keys", k)
		}
	}

	// Values with spaces, colons, parentheses, commas and non-ASCII.
	sup, _ := ParseStats([]byte(supervisorWaypointStats))
	for k, want := range map[string]string{
		"target":             "FuzzLock",
		"timeout_rule":       "calibrated: 20 x the slowest start execution of the workers (869µs), at least 1s, at most 5s",
		"waypoint_best":      "max(digits right)=7",
		"perf_slowest_edges": "edge 0x396 7 (median 7), edge 0xfe 1 (median 1), edge 0x110 1 (median 1), edge 0x29b 1 (median 1)",
		"diff_keys":          "0",
	} {
		if got, ok := sup.Get(k); !ok || got != want {
			t.Errorf("Get(%s) = %q, %v; want %q", k, got, ok, want)
		}
	}
	if n, ok := sup.Int("execs"); !ok || n != 245114 {
		t.Errorf("Int(execs) = %d, %v", n, ok)
	}
	if x, ok := sup.Float("hill_b1"); !ok || x != 4 {
		t.Errorf("Float(hill_b1) = %v, %v", x, ok)
	}
	if _, ok := sup.Int("hill_b1"); ok {
		t.Error(`Int("4.000") succeeds`)
	}
	diff, _ := ParseStats([]byte(supervisorDiffStats))
	if v, _ := diff.Get("diff_max"); v != "max(variance)=9.959199643860828e-07" {
		t.Errorf("diff_max %q", v)
	}
	in, _ := ParseStats([]byte(inProcessStats))
	if v, ok := in.Get("target"); !ok || v != "" {
		t.Errorf(`in process: Get(target) = %q, %v; want "", true`, v, ok)
	}
	if x, ok := in.Float("valid_pct"); !ok || x != 100 {
		t.Errorf("in process: Float(valid_pct) = %v, %v", x, ok)
	}
}

// TestParseStatsTolerant: what the reader keeps of odd files, and the note
// for each line it skips or doubts.
func TestParseStatsTolerant(t *testing.T) {
	for _, tc := range []struct {
		name  string
		data  string
		lines []Stat
		notes []string
	}{
		{name: "empty file"},
		{name: "blank lines only", data: "\n  \n\t\r\n"},
		{name: "no final newline", data: "execs: 5\ncorpus: 3",
			lines: []Stat{{"execs", "5", 1}, {"corpus", "3", 2}}},
		{name: "CRLF", data: "target: FuzzX\r\nexecs: 5\r\ntimeout_rule: fixed\r\n",
			lines: []Stat{{"target", "FuzzX", 1}, {"execs", "5", 2}, {"timeout_rule", "fixed", 3}}},
		{name: "CRLF without final newline", data: "execs: 5\r\ncorpus: 3\r",
			lines: []Stat{{"execs", "5", 1}, {"corpus", "3", 2}}},
		{name: "blank lines keep the numbering", data: "\nexecs: 5\n\n\ncorpus: 3\n",
			lines: []Stat{{"execs", "5", 2}, {"corpus", "3", 5}}},
		{name: "empty values", data: "target: \nengine:  \t\nexecs: 1\n",
			lines: []Stat{{"target", "", 1}, {"engine", "", 2}, {"execs", "1", 3}}},
		{name: "a colon ending the line is not a separator", data: "target:\nexecs: 1\n",
			lines: []Stat{{"execs", "1", 2}},
			notes: []string{`line 1 skipped: not "key: value"`}},
		{name: "value holding the separator", data: "timeout_rule: calibrated: 20 x (14µs)\n",
			lines: []Stat{{"timeout_rule", "calibrated: 20 x (14µs)", 1}}},
		{name: "white space around key and value", data: "  execs :   5  \n\tcorpus: 3\t\n",
			lines: []Stat{{"execs", "5", 1}, {"corpus", "3", 2}}},
		{name: "malformed lines", data: "garbage\nexecs: 5\nexecs:5\nexecs\t5\n: 7\n  : 8\ncorpus: 3\n",
			lines: []Stat{{"execs", "5", 2}, {"corpus", "3", 7}},
			notes: []string{
				`line 1 skipped: not "key: value"`,
				`line 3 skipped: not "key: value"`,
				`line 4 skipped: not "key: value"`,
				`line 5 skipped: empty key`,
				`line 6 skipped: empty key`,
			}},
		{name: "truncated in a key", data: "execs: 5\ncorpus: 3\nvalid_p",
			lines: []Stat{{"execs", "5", 1}, {"corpus", "3", 2}},
			notes: []string{`line 3 skipped: not "key: value"`}},
		{name: "binary garbage", data: "\x00\x01\xff not stats\x00\nexecs: 5\n",
			lines: []Stat{{"execs", "5", 2}},
			notes: []string{`line 1 skipped: not "key: value"`}},
		{name: "byte order mark", data: "\ufefftarget: FuzzX\nexecs: 5\n",
			lines: []Stat{{"target", "FuzzX", 1}, {"execs", "5", 2}}},
		{name: "duplicate keys: all lines kept, the last counts", data: "execs: 1\ncorpus: 3\nexecs: 2\nexecs: 9\n",
			lines: []Stat{{"execs", "1", 1}, {"corpus", "3", 2}, {"execs", "2", 3}, {"execs", "9", 4}},
			notes: []string{
				`line 3: key "execs" repeats line 1; the last value counts`,
				`line 4: key "execs" repeats line 3; the last value counts`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, notes := ParseStats([]byte(tc.data))
			if got := st.Lines(); !reflect.DeepEqual(got, tc.lines) {
				t.Errorf("lines %#v, want %#v", got, tc.lines)
			}
			if !reflect.DeepEqual(notes, tc.notes) {
				t.Errorf("notes %q, want %q", notes, tc.notes)
			}
		})
	}

	st, _ := ParseStats([]byte("execs: 1\ncorpus: 3\nexecs: 2\n"))
	if v, ok := st.Get("execs"); !ok || v != "2" {
		t.Errorf("duplicate: Get(execs) = %q, %v; want the last, 2", v, ok)
	}
	if n, _ := st.Int("execs"); n != 2 {
		t.Errorf("duplicate: Int(execs) = %d, want 2", n)
	}
	if k := st.Keys(); !reflect.DeepEqual(k, []string{"execs", "corpus"}) || st.Len() != 2 {
		t.Errorf("duplicate: Keys %q, Len %d; want [execs corpus], 2", k, st.Len())
	}
}

// TestStatsLookups: Get, Int and Float on present, absent, empty and
// non-numeric values, and on a nil *Stats.
func TestStatsLookups(t *testing.T) {
	st, _ := ParseStats([]byte("n: 42\nneg: -7\nf: 2.50\nempty: \ntext: corpus/abc\nnan: NaN\nbig: 9223372036854775808\n"))
	for _, tc := range []struct {
		key     string
		get     string
		getOK   bool
		n       int64
		intOK   bool
		x       float64
		floatOK bool
	}{
		{"n", "42", true, 42, true, 42, true},
		{"neg", "-7", true, -7, true, -7, true},
		{"f", "2.50", true, 0, false, 2.5, true},
		{"empty", "", true, 0, false, 0, false},
		{"text", "corpus/abc", true, 0, false, 0, false},
		{"big", "9223372036854775808", true, 0, false, 9223372036854775808, true},
		{"absent", "", false, 0, false, 0, false},
	} {
		if v, ok := st.Get(tc.key); v != tc.get || ok != tc.getOK {
			t.Errorf("Get(%s) = %q, %v; want %q, %v", tc.key, v, ok, tc.get, tc.getOK)
		}
		if n, ok := st.Int(tc.key); ok != tc.intOK || ok && n != tc.n {
			t.Errorf("Int(%s) = %d, %v; want %d, %v", tc.key, n, ok, tc.n, tc.intOK)
		}
		if x, ok := st.Float(tc.key); ok != tc.floatOK || ok && x != tc.x {
			t.Errorf("Float(%s) = %v, %v; want %v, %v", tc.key, x, ok, tc.x, tc.floatOK)
		}
	}
	if x, ok := st.Float("nan"); !ok || !math.IsNaN(x) {
		t.Errorf("Float(nan) = %v, %v; want NaN, true", x, ok)
	}

	var none *Stats
	if _, ok := none.Get("execs"); ok {
		t.Error("nil Stats: Get succeeds")
	}
	if _, ok := none.Int("execs"); ok {
		t.Error("nil Stats: Int succeeds")
	}
	if _, ok := none.Float("execs"); ok {
		t.Error("nil Stats: Float succeeds")
	}
	if none.Keys() != nil || none.Lines() != nil || none.Len() != 0 {
		t.Error("nil Stats: not empty")
	}
}

// TestStatsCopies: Keys and Lines return copies.
func TestStatsCopies(t *testing.T) {
	st, _ := ParseStats([]byte("execs: 1\ncorpus: 3\n"))
	st.Keys()[0] = "x"
	st.Lines()[0].Value = "x"
	if v, _ := st.Get("execs"); v != "1" || st.Keys()[0] != "execs" || st.Lines()[0].Value != "1" {
		t.Error("changing what Keys or Lines returned changed the Stats")
	}
}

// TestReadStats: a file reads as ParseStats reads its content; a missing
// or unreadable one gives an error naming it once.
func TestReadStats(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "stats")
	if err := os.WriteFile(path, []byte("execs: 5\ngarbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, notes, err := ReadStats(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := st.Get("execs"); v != "5" || !reflect.DeepEqual(notes, []string{`line 2 skipped: not "key: value"`}) {
		t.Errorf("execs %q, notes %q", v, notes)
	}

	missing := filepath.Join(dir, "none", "stats")
	st, notes, err = ReadStats(missing)
	if err == nil || st != nil || notes != nil {
		t.Fatalf("missing file: %v, %v, %v", st, notes, err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v is not fs.ErrNotExist", err)
	}
	if want := "stats file " + missing + ": "; !strings.HasPrefix(err.Error(), want) || strings.Count(err.Error(), missing) != 1 {
		t.Errorf("missing file: error %q, want it to start with %q and name the file once", err, want)
	}

	if _, _, err := ReadStats(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("a directory: error %v", err)
	}
}
