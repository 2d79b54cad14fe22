// Command schedbench measures gfz-run's schedule (issue 30; docs/BENCHMARKS.md,
// "Scheduling a module's targets"). It is not part of go test ./... (it
// lives under testdata); run it from the repository's cmd directory:
//
//	go run ./gfz-run/testdata/schedbench -goal a -out DIR [-seeds 10] [-budget 60s] [-modes rounds,adaptive,equal]
//	go run ./gfz-run/testdata/schedbench -goal b -out DIR [-seeds 3] [-budget 3m] [-modes adaptive,equal]
//	go run ./gfz-run/testdata/schedbench -goal c -out DIR [-ns 1,2,5,10,20,50] [-budgets 10s,30s]
//	go run ./gfz-run/testdata/schedbench -tables -out DIR
//
// Goal a: on testdata/examples (10 targets), gfz-run -ci with each
// schedule, seeds 1..N side by side (for each seed every mode in turn):
// the time from the start of fuzzing until each planted bug was found
// (the failure reports' "found at"), and per seed the time until every
// bug that the rounds schedule found in that seed's run was found.
//
// Goal b: on the grow module (testdata/schedbench/grow: FuzzClassify
// saturates within a second, FuzzOpen keeps growing), each target's part
// of the CPU time measured after the first minute (from gfz-run's
// -schedlog: every process's measured CPU, spread evenly over its
// lifetime).
//
// Goal c: a generated module of n trivial targets, gfz-run -ci -time B:
// how long after the end of the budget gfz-run exited (the budget starts
// when fuzzing starts, after the build: -schedlog's start).
//
// Every finished run is appended to DIR/results.jsonl; runs already there
// are skipped, so a stopped measurement resumes where it stopped. -tables
// prints the markdown tables of DIR/results.jsonl.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

type result struct {
	Goal     string             `json:"goal"`
	Mode     string             `json:"mode"`
	Seed     int                `json:"seed"`
	Budget   float64            `json:"budget_s"`
	N        int                `json:"n,omitempty"`
	Report   bool               `json:"report,omitempty"`
	Start    time.Time          `json:"start"`
	Exit     int                `json:"exit"`
	Build    float64            `json:"build_s"`   // gfz-run's start to the start of fuzzing
	Over     float64            `json:"over_s"`    // gfz-run's exit less the end of the budget
	Finds    map[string]float64 `json:"finds"`     // target -> seconds from the start of fuzzing
	CPU      map[string]float64 `json:"cpu"`       // target -> CPU seconds in all
	CPUAfter map[string]float64 `json:"cpu_after"` // target -> CPU seconds after the first minute
	Core     map[string]float64 `json:"core"`      // target -> worker-process seconds in all
	Load     string             `json:"load"`      // /proc/loadavg at the end
	When     time.Time          `json:"when"`
}

func (r result) key() string {
	return fmt.Sprintf("%s/%s/%d/%g/%d/%v", r.Goal, r.Mode, r.Seed, r.Budget, r.N, r.Report)
}

var (
	goal    = flag.String("goal", "", "a, b or c")
	out     = flag.String("out", "", "directory of the results and the runs (required)")
	seeds   = flag.Int("seeds", 0, "seeds 1..N (default: a 10, b 3, c 1)")
	budget  = flag.Duration("budget", 0, "total budget of each run (default: a 60s, b 3m)")
	modes   = flag.String("modes", "", "schedules (default: a rounds,adaptive,equal; b adaptive,equal; c adaptive)")
	ns      = flag.String("ns", "1,2,5,10,20,50", "goal c: numbers of targets")
	budgets = flag.String("budgets", "10s,30s", "goal c: budgets")
	tables  = flag.Bool("tables", false, "print the tables of -out's results.jsonl and exit")
	root    = flag.String("root", "", "the gfz repository (default: found from the current directory)")
)

func main() {
	log.SetFlags(log.Ltime)
	flag.Parse()
	if *out == "" {
		log.Fatal("-out is required")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	abs, err := filepath.Abs(*out)
	if err != nil {
		log.Fatal(err)
	}
	*out = abs
	if *tables {
		printTables(readResults())
		return
	}
	if *root == "" {
		*root = findRoot()
	}
	bin := filepath.Join(*out, "gfz-run")
	build := exec.Command("go", "build", "-o", bin, "./gfz-run")
	build.Dir = filepath.Join(*root, "cmd")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		log.Fatalf("building gfz-run: %v", err)
	}
	done := map[string]bool{}
	for _, r := range readResults() {
		done[r.key()] = true
	}
	switch *goal {
	case "a":
		goalA(bin, done)
	case "b":
		goalB(bin, done)
	case "c":
		goalC(bin, done)
	default:
		log.Fatal("-goal a, b or c")
	}
	printTables(readResults())
}

func findRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		log.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			log.Fatal("no go.work above the current directory: give -root")
		}
		dir = up
	}
}

func list(s, def string) []string {
	if s == "" {
		s = def
	}
	return strings.Split(s, ",")
}

func orDefault(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

func goalA(bin string, done map[string]bool) {
	b := *budget
	if b == 0 {
		b = time.Minute
	}
	for seed := 1; seed <= orDefault(*seeds, 10); seed++ {
		for _, mode := range list(*modes, "rounds,adaptive,equal") {
			r := result{Goal: "a", Mode: mode, Seed: seed, Budget: b.Seconds()}
			if done[r.key()] {
				continue
			}
			run(bin, *root, []string{"./testdata/examples/..."}, &r, nil)
			save(r)
		}
	}
}

func goalB(bin string, done map[string]bool) {
	b := *budget
	if b == 0 {
		b = 3 * time.Minute
	}
	mod := module("grow", func(dir string) {
		src := filepath.Join(*root, "cmd", "gfz-run", "testdata", "schedbench", "grow")
		for _, f := range []string{"grow.go", "grow_test.go"} {
			data, err := os.ReadFile(filepath.Join(src, f))
			if err != nil {
				log.Fatal(err)
			}
			write(filepath.Join(dir, f), string(data))
		}
	})
	for seed := 1; seed <= orDefault(*seeds, 3); seed++ {
		for _, mode := range list(*modes, "adaptive,equal") {
			r := result{Goal: "b", Mode: mode, Seed: seed, Budget: b.Seconds()}
			if done[r.key()] {
				continue
			}
			run(bin, mod, []string{"./..."}, &r, nil)
			save(r)
		}
	}
}

func goalC(bin string, done map[string]bool) {
	for _, bs := range list(*budgets, "") {
		b, err := time.ParseDuration(bs)
		if err != nil {
			log.Fatal(err)
		}
		for _, nstr := range list(*ns, "") {
			n, err := strconv.Atoi(nstr)
			if err != nil {
				log.Fatal(err)
			}
			mod := module(fmt.Sprintf("many%d", n), func(dir string) { manyTargets(dir, n) })
			for seed := 1; seed <= orDefault(*seeds, 1); seed++ {
				for _, mode := range list(*modes, "adaptive") {
					for _, rep := range []bool{false, true} {
						if rep && n != 10 && n != 50 {
							continue
						}
						r := result{Goal: "c", Mode: mode, Seed: seed, Budget: b.Seconds(), N: n, Report: rep}
						if done[r.key()] {
							continue
						}
						var extra []string
						if rep {
							extra = []string{"-report", filepath.Join(*out, "runs", "c-report")}
						}
						run(bin, mod, []string{"./..."}, &r, extra)
						save(r)
					}
				}
			}
		}
	}
}

// module writes a module that requires gfz (this checkout) under
// out/modules/name, its files written by fill.
func module(name string, fill func(dir string)) string {
	dir := filepath.Join(*out, "modules", name)
	if err := os.RemoveAll(dir); err != nil {
		log.Fatal(err)
	}
	write(filepath.Join(dir, "go.mod"), "module example.com/"+name+"\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => "+*root+"\n")
	fill(dir)
	return dir
}

// manyTargets writes package p with n fuzz targets, each a few branches.
func manyTargets(dir string, n int) {
	write(filepath.Join(dir, "p", "p.go"), `package p

// Class sorts a pair of small numbers into one of a few classes.
func Class(k, a, b int64) int {
	switch {
	case a < k%5 && b < 3:
		return 0
	case a < 3:
		return 1
	case b < 3:
		return 2
	case a == b:
		return 3
	}
	return 4
}
`)
	var b strings.Builder
	b.WriteString("package p\n\nimport (\n\t\"testing\"\n\n\t\"github.com/gfz-dev/gfz\"\n)\n")
	for i := range n {
		fmt.Fprintf(&b, "\nfunc FuzzT%02d(f *testing.F) {\n\tgfz.Fuzz(f, func(t *gfz.T) { Class(%d, t.Source().Range(0, 9, 0), t.Source().Range(0, 9, 0)) })\n}\n", i, i)
	}
	write(filepath.Join(dir, "p", "p_test.go"), b.String())
}

func write(path, data string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		log.Fatal(err)
	}
}

// run runs gfz-run -ci in dir on fresh work directories and fills r.
func run(bin, dir string, pkgs []string, r *result, extra []string) {
	name := fmt.Sprintf("%s-%s-s%d-b%g-n%d-r%v", r.Goal, r.Mode, r.Seed, r.Budget, r.N, r.Report)
	rd := filepath.Join(*out, "runs", name)
	if err := os.RemoveAll(rd); err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(rd, 0o755); err != nil {
		log.Fatal(err)
	}
	schedLog := filepath.Join(rd, "sched.json")
	args := []string{"-ci", "-schedule", r.Mode, "-seed", strconv.Itoa(r.Seed), "-time", time.Duration(r.Budget * float64(time.Second)).String(),
		"-workdir", filepath.Join(rd, "work"), "-o", filepath.Join(*out, "bin", filepath.Base(dir)), "-failures", filepath.Join(rd, "failures"),
		"-schedlog", schedLog}
	args = append(append(args, extra...), pkgs...)
	log.Printf("%s: gfz-run %s (in %s)", name, strings.Join(args, " "), dir)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
	if dir != *root {
		cmd.Env = append(cmd.Env, "GOWORK=off")
	}
	logf, err := os.Create(filepath.Join(rd, "out.txt"))
	if err != nil {
		log.Fatal(err)
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	t0 := time.Now()
	err = cmd.Run()
	exit := time.Now()
	r.Exit = 0
	if ee, ok := err.(*exec.ExitError); ok {
		r.Exit = ee.ExitCode()
	} else if err != nil {
		log.Fatal(err)
	}
	if r.Exit >= 2 {
		log.Fatalf("%s: exit status %d (see %s)", name, r.Exit, logf.Name())
	}
	var sl schedLogFile
	data, err := os.ReadFile(schedLog)
	if err != nil {
		log.Fatalf("%s: %v", name, err)
	}
	if err := json.Unmarshal(data, &sl); err != nil {
		log.Fatalf("%s: %v", name, err)
	}
	r.Start = sl.Start
	r.Build = sl.Start.Sub(t0).Seconds()
	r.Over = exit.Sub(sl.Start).Seconds() - r.Budget
	r.Finds = finds(filepath.Join(rd, "work"), sl.Start)
	r.CPU, r.CPUAfter, r.Core = map[string]float64{}, map[string]float64{}, map[string]float64{}
	for _, s := range sl.Slices {
		k := s.Package + " " + s.Target
		r.CPU[k] += s.CPU
		end := s.End
		if end < 0 {
			end = exit.Sub(sl.Start).Seconds()
		}
		r.Core[k] += float64(s.Workers) * (end - s.Start)
		if d := end - s.Start; d > 0 && end > 60 {
			r.CPUAfter[k] += s.CPU * (end - math.Max(s.Start, 60)) / d
		}
	}
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		r.Load = strings.TrimSpace(string(la))
	}
	r.When = time.Now()
	log.Printf("%s: exit %d, build %.1fs, over the budget by %.2fs, finds %v", name, r.Exit, r.Build, r.Over, r.Finds)
}

type schedLogFile struct {
	Start  time.Time `json:"start"`
	Slices []struct {
		Package string  `json:"package"`
		Target  string  `json:"target"`
		Start   float64 `json:"start_s"`
		End     float64 `json:"end_s"`
		Workers int     `json:"workers"`
		CPU     float64 `json:"cpu_s"`
	} `json:"slices"`
}

var foundAt = regexp.MustCompile(`(?m)^found at: (\S+)`)

// finds maps each target with a failure in its work directory under work
// to the seconds from start to its first failure's "found at".
func finds(work string, start time.Time) map[string]float64 {
	out := map[string]float64{}
	var reports []string
	_ = filepath.WalkDir(work, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".txt") && filepath.Base(filepath.Dir(p)) == "failures" {
			reports = append(reports, p)
		}
		return nil
	})
	for _, rep := range reports {
		data, err := os.ReadFile(rep)
		if err != nil {
			continue
		}
		m := foundAt.FindSubmatch(data)
		if m == nil {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, string(m[1]))
		if err != nil {
			continue
		}
		wd := filepath.Dir(filepath.Dir(rep))
		rel, _ := filepath.Rel(work, wd)
		k := filepath.ToSlash(filepath.Dir(rel)) + " " + filepath.Base(wd)
		s := t.Sub(start).Seconds()
		if v, ok := out[k]; !ok || s < v {
			out[k] = s
		}
	}
	return out
}

func save(r result) {
	data, err := json.Marshal(r)
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(*out, "results.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(data, '\n')); err != nil {
		log.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		log.Fatal(err)
	}
}

func readResults() []result {
	f, err := os.Open(filepath.Join(*out, "results.jsonl"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var rs []result
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r result
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			rs = append(rs, r)
		}
	}
	return rs
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func short(k string) string { return k[strings.LastIndex(k, "/")+1:] }

func printTables(rs []result) {
	var w bytes.Buffer
	tableA(&w, rs)
	tableB(&w, rs)
	tableC(&w, rs)
	os.Stdout.Write(w.Bytes())
}

func tableA(w io.Writer, rs []result) {
	byBudget := map[float64][]result{}
	for _, r := range rs {
		if r.Goal == "a" {
			byBudget[r.Budget] = append(byBudget[r.Budget], r)
		}
	}
	for b, rs := range byBudget {
		runs := map[string]map[int]result{}
		var modeList []string
		seedSet := map[int]bool{}
		for _, r := range rs {
			if runs[r.Mode] == nil {
				runs[r.Mode] = map[int]result{}
				modeList = append(modeList, r.Mode)
			}
			runs[r.Mode][r.Seed] = r
			seedSet[r.Seed] = true
		}
		sort.Strings(modeList)
		var seedList []int
		for s := range seedSet {
			seedList = append(seedList, s)
		}
		sort.Ints(seedList)
		fmt.Fprintf(w, "\n### Goal a: budget %gs: seconds until every bug that rounds found in the seed's run was found\n\n", b)
		fmt.Fprintf(w, "| seed | bugs rounds found |")
		for _, m := range modeList {
			fmt.Fprintf(w, " %s |", m)
		}
		fmt.Fprintf(w, "\n|---|---|")
		for range modeList {
			fmt.Fprintf(w, "---:|")
		}
		fmt.Fprintln(w)
		all := map[string][]float64{}
		missed := map[string]int{}
		for _, s := range seedList {
			base, ok := runs["rounds"][s]
			if !ok {
				continue
			}
			fmt.Fprintf(w, "| %d | %d |", s, len(base.Finds))
			for _, m := range modeList {
				r, ok := runs[m][s]
				if !ok {
					fmt.Fprintf(w, " |")
					continue
				}
				worst, miss := 0.0, 0
				for k := range base.Finds {
					t, ok := r.Finds[k]
					if !ok {
						miss++
						continue
					}
					worst = math.Max(worst, t)
				}
				if miss > 0 {
					missed[m]++
					worst = math.Inf(1)
					fmt.Fprintf(w, " not all (%d missed) |", miss)
				} else {
					fmt.Fprintf(w, " %.1f |", worst)
				}
				all[m] = append(all[m], worst)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "| **median** | |")
		for _, m := range modeList {
			fmt.Fprintf(w, " **%.1f** |", median(all[m]))
		}
		fmt.Fprintln(w)
		// Per target: median seconds to its bug (runs that found it), found k/n.
		targets := map[string]bool{}
		for _, r := range rs {
			for k := range r.Finds {
				targets[k] = true
			}
		}
		var tl []string
		for k := range targets {
			tl = append(tl, k)
		}
		sort.Strings(tl)
		fmt.Fprintf(w, "\nPer target: found in k of n runs, median seconds from the start of fuzzing (runs that found it):\n\n| target |")
		for _, m := range modeList {
			fmt.Fprintf(w, " %s |", m)
		}
		fmt.Fprintf(w, "\n|---|")
		for range modeList {
			fmt.Fprintf(w, "---|")
		}
		fmt.Fprintln(w)
		for _, k := range tl {
			fmt.Fprintf(w, "| %s |", short(k))
			for _, m := range modeList {
				var ts []float64
				for _, r := range runs[m] {
					if t, ok := r.Finds[k]; ok {
						ts = append(ts, t)
					}
				}
				fmt.Fprintf(w, " %d/%d, %.1f |", len(ts), len(runs[m]), median(ts))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "\nOver the budget (s), median and max:")
		for _, m := range modeList {
			var ov []float64
			for _, r := range runs[m] {
				ov = append(ov, r.Over)
			}
			fmt.Fprintf(w, " %s %.2f / %.2f;", m, median(ov), slices.Max(ov))
		}
		fmt.Fprintln(w)
	}
}

func tableB(w io.Writer, rs []result) {
	var bs []result
	for _, r := range rs {
		if r.Goal == "b" {
			bs = append(bs, r)
		}
	}
	if len(bs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Goal b: the growing target's part of the CPU after the first minute\n\n")
	fmt.Fprintf(w, "| schedule | seed | budget | FuzzOpen CPU after 60 s | FuzzClassify CPU after 60 s | FuzzOpen share | FuzzOpen share of worker time, whole run | over the budget |\n|---|---|---|---:|---:|---:|---:|---:|\n")
	for _, r := range bs {
		var open, cls, co, cc float64
		for k, v := range r.CPUAfter {
			if strings.HasSuffix(k, "FuzzOpen") {
				open = v
			} else {
				cls = v
			}
		}
		for k, v := range r.Core {
			if strings.HasSuffix(k, "FuzzOpen") {
				co = v
			} else {
				cc = v
			}
		}
		fmt.Fprintf(w, "| %s | %d | %gs | %.1f s | %.1f s | **%.0f%%** | %.0f%% | %.2f s |\n", r.Mode, r.Seed, r.Budget, open, cls, 100*open/(open+cls), 100*co/(co+cc), r.Over)
	}
}

func tableC(w io.Writer, rs []result) {
	var cs []result
	for _, r := range rs {
		if r.Goal == "c" {
			cs = append(cs, r)
		}
	}
	if len(cs) == 0 {
		return
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Budget != cs[j].Budget {
			return cs[i].Budget < cs[j].Budget
		}
		if cs[i].N != cs[j].N {
			return cs[i].N < cs[j].N
		}
		return !cs[i].Report && cs[j].Report
	})
	fmt.Fprintf(w, "\n### Goal c: how long after the end of the budget gfz-run exited\n\n| budget | targets | -report | schedule | targets run | exited after the budget by | build before it |\n|---|---:|---|---|---:|---:|---:|\n")
	for _, r := range cs {
		fmt.Fprintf(w, "| %gs | %d | %v | %s | %d | %.2f s | %.1f s |\n", r.Budget, r.N, r.Report, r.Mode, len(r.Core), r.Over, r.Build)
	}
}
