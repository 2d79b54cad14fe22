package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/gfz-dev/gfz/internal/workdir"
)

const corpusHeader = "go test fuzz v1\n"

// replay measures a run's corpus independently of the contender: the
// coverage binary replays it as testdata/fuzz/<Target>/ files (what plain
// go test does with a corpus) and the limit binary counts its valid inputs.
func (r *runner) replay(ctx context.Context, p *prepared, res *Result) {
	if res.CorpusDir == "" || res.Err != "" {
		return
	}
	ents, err := os.ReadDir(res.CorpusDir)
	if err != nil {
		return // no corpus saved
	}
	dir := filepath.Join(r.cfg.Work, "replay", fmt.Sprintf("%s.%s.%d", sanitize(res.Target), res.Contender, res.Rep))
	// Nothing of an earlier replay of the same run (a kept scratch
	// directory) may join this corpus.
	if err := os.RemoveAll(dir); err != nil {
		res.Err = err.Error()
		return
	}
	if err := copyDir(filepath.Join(p.t.Dir, "testdata"), filepath.Join(dir, "testdata")); err != nil {
		res.Err = err.Error()
		return
	}
	corpus := filepath.Join(dir, "testdata", "fuzz", p.t.Name)
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		res.Err = err.Error()
		return
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(res.CorpusDir, e.Name()))
		if err != nil {
			continue
		}
		if !strings.HasPrefix(string(b), corpusHeader) {
			b = []byte(fmt.Sprintf("%s[]byte(%q)\n", corpusHeader, b))
		}
		if err := os.WriteFile(filepath.Join(corpus, "c-"+e.Name()), b, 0o644); err != nil {
			res.Err = err.Error()
			return
		}
		res.CorpusSize++
	}
	// gfz's contenders ran the generators with gfz-build's dictionary,
	// native and go-fuzz without: each corpus is decoded as it was run.
	gfz := strings.HasPrefix(res.Contender, "gfz-")
	// Valid inputs of the corpus.
	if p.plain != nil {
		limit := p.plain.Limit
		if !gfz && p.plain.LimitNoDict != "" {
			limit = p.plain.LimitNoDict
		}
		out, err := exec.CommandContext(ctx, limit, "-target", p.t.Name, "-replay", corpus).Output()
		if err == nil {
			// The limit binary's figures, after whatever the target
			// printed: its lines come last, and the last line of a key
			// counts.
			st, _ := workdir.ParseStats(out)
			res.CorpusValidPct, _ = st.Float("valid_pct")
		}
	}
	// Coverage.
	if p.cover == "" {
		return
	}
	prof := filepath.Join(dir, "cover.out")
	bin := p.cover
	if gfz && p.coverDict != "" {
		bin = p.coverDict
	}
	cmd := exec.CommandContext(ctx, bin, "-test.run=^"+p.t.Name+"$", "-test.coverprofile="+prof)
	cmd.Dir = dir
	cout, _ := cmd.CombinedOutput()
	covered, total, err := readProfile(prof)
	if err != nil {
		r.logf("%s %s rep %d: coverage replay: %v: %s", res.Target, res.Contender, res.Rep+1, err, oneLine(lastLines(cout, 3)))
		return
	}
	res.Covered = covered
	for k, v := range total {
		r.rep.Totals[k] = v
	}
}

// readProfile reads a go test -coverprofile file and returns the covered
// and total statements per package. A block listed more than once counts
// once (covered if any listing has a non-zero count).
func readProfile(file string) (covered, total map[string]int, err error) {
	blocks, err := readBlocks(file)
	if err != nil {
		return nil, nil, err
	}
	covered, total = map[string]int{}, map[string]int{}
	for _, b := range blocks {
		pkg := path.Dir(b.file)
		total[pkg] += b.stmts
		if b.hit {
			covered[pkg] += b.stmts
		}
	}
	return covered, total, nil
}
