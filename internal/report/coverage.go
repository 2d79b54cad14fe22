package report

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz/cover"
)

// Source coverage: a go tool cover profile (mode: set, as the fuzz binary
// writes with -coverprofile) rendered per file, with the source lines
// coloured when the file is found on disk.

// coverage is the report's source coverage section.
type coverage struct {
	Profile    string
	Note       string // why there is no coverage, or what is missing
	Stmts, Hit int
	Files      []covFile
	SourceNote string // files whose source was not found
	HasFuncs   bool
}

// Percent is the statement coverage in percent.
func (c coverage) Percent() string { return percent(c.Hit, c.Stmts) }

type covFile struct {
	ID         string // HTML anchor
	Name       string // import-path/base.go, as in the profile
	Path       string // on disk ("" if not found)
	Stmts, Hit int
	Funcs      []covFunc
	Lines      []srcLine
	NoSource   string // why the source is not shown
}

// Percent is the file's statement coverage in percent.
func (f covFile) Percent() string { return percent(f.Hit, f.Stmts) }

// Bar is the covered share in whole percent, for the bar.
func (f covFile) Bar() int {
	if f.Stmts == 0 {
		return 0
	}
	return 100 * f.Hit / f.Stmts
}

type covFunc struct {
	Name       string
	Line       int
	Stmts, Hit int
}

// Percent is the function's statement coverage in percent.
func (f covFunc) Percent() string { return percent(f.Hit, f.Stmts) }

// srcLine is one source line; Class is "c" (covered), "u" (not covered),
// "p" (partly) or "" (no statement).
type srcLine struct {
	N     int
	Text  string
	Class string
}

func percent(hit, total int) string {
	if total == 0 {
		return "–"
	}
	return strconv.FormatFloat(100*float64(hit)/float64(total), 'f', 1, 64) + "%"
}

// maxSourceBytes bounds the source shown in one report.
const maxSourceBytes = 4 << 20

// readCoverage reads the profile and renders its files. blocks (optional)
// name the function of each block; resolve maps a profile file name to a
// path on disk ("" if unknown).
func readCoverage(profile string, blocks []cover.Block, resolve func(string) string) coverage {
	c := coverage{Profile: profile}
	if profile == "" {
		c.Note = "no coverage profile (worker 0 writes it when the run ends; a run stopped before, or a worker killed at the end, leaves none)"
		return c
	}
	profs, err := readProfile(profile)
	if err != nil {
		c.Note = fmt.Sprintf("coverage profile unreadable: %v", err)
		return c
	}
	if len(profs) == 0 {
		c.Note = "the coverage profile lists no blocks"
		return c
	}
	funcOf := map[blockKey]string{}
	for _, b := range blocks {
		funcOf[blockKey{b.File, b.StartLine, b.StartCol, b.EndLine, b.EndCol}] = b.Func
	}
	c.HasFuncs = len(funcOf) > 0
	budget := maxSourceBytes
	var missing []string
	for i, p := range profs {
		f := covFile{ID: "f" + strconv.Itoa(i), Name: p.FileName}
		funcs := map[string]*covFunc{}
		for _, b := range p.Blocks {
			f.Stmts += b.NumStmt
			hit := 0
			if b.Count > 0 {
				f.Hit += b.NumStmt
				hit = b.NumStmt
			}
			name, ok := funcOf[blockKey{p.FileName, b.StartLine, b.StartCol, b.EndLine, b.EndCol}]
			if !ok {
				continue
			}
			fn := funcs[name]
			if fn == nil {
				fn = &covFunc{Name: name, Line: b.StartLine}
				funcs[name] = fn
			}
			fn.Line = min(fn.Line, b.StartLine)
			fn.Stmts += b.NumStmt
			fn.Hit += hit
		}
		for _, fn := range funcs {
			f.Funcs = append(f.Funcs, *fn)
		}
		sort.Slice(f.Funcs, func(i, j int) bool { return f.Funcs[i].Line < f.Funcs[j].Line })
		c.Stmts += f.Stmts
		c.Hit += f.Hit
		if resolve != nil {
			f.Path = resolve(p.FileName)
		}
		switch {
		case f.Path == "":
			f.NoSource = "source not found"
			missing = append(missing, p.FileName)
		default:
			f.Lines, f.NoSource = sourceLines(f.Path, p, &budget)
		}
		c.Files = append(c.Files, f)
	}
	if len(missing) > 0 {
		c.SourceNote = fmt.Sprintf("the source of %d of %d files was not found on this machine (%s): their per-file and per-function figures are shown without source", len(missing), len(profs), strings.Join(first(missing, 3), ", "))
	}
	return c
}

type blockKey struct {
	file                                 string
	startLine, startCol, endLine, endCol int
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "…")
	}
	return s
}

// sourceLines reads path and classifies its lines by p's blocks. It
// returns a note instead when the file cannot be read, does not match the
// profile (edited since the run) or exceeds the budget.
//
// Blocks may nest (gfz's profiles have a block for a whole function body
// and blocks for the branches in it), so the characters are painted outer
// block first, inner blocks over them, and a line is classified by the
// statuses of its non-blank characters.
func sourceLines(path string, p *profile, budget *int) ([]srcLine, string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Sprintf("source unreadable: %v", err)
	}
	if len(data) > *budget {
		return nil, "source not shown: the report's size limit for source is reached"
	}
	text := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for _, b := range p.Blocks {
		if b.StartLine < 1 || b.EndLine > len(text) || b.EndLine < b.StartLine {
			return nil, fmt.Sprintf("source not shown: %s has %d lines but the profile has a block at lines %d-%d (edited since the run?)", path, len(text), b.StartLine, b.EndLine)
		}
	}
	*budget -= len(data)
	const covered, uncovered = 1, 2
	marks := make([][]uint8, len(text)) // per line, per byte
	for i, t := range text {
		marks[i] = make([]uint8, len(t))
	}
	blocks := slices.Clone(p.Blocks)
	// By start, and the longer first at the same start: a block comes
	// before the blocks nested in it.
	sort.SliceStable(blocks, func(i, j int) bool {
		a, b := blocks[i], blocks[j]
		if a.StartLine != b.StartLine || a.StartCol != b.StartCol {
			return a.StartLine < b.StartLine || a.StartLine == b.StartLine && a.StartCol < b.StartCol
		}
		return a.EndLine > b.EndLine || a.EndLine == b.EndLine && a.EndCol > b.EndCol
	})
	for _, b := range blocks {
		m := uint8(uncovered)
		if b.Count > 0 {
			m = covered
		}
		for l := b.StartLine; l <= b.EndLine; l++ {
			row := marks[l-1]
			from, to := 0, len(row) // byte offsets, to exclusive
			if l == b.StartLine {
				from = min(max(b.StartCol-1, 0), len(row))
			}
			if l == b.EndLine {
				to = min(max(b.EndCol-1, from), len(row))
			}
			for c := from; c < to; c++ {
				row[c] = m
			}
		}
	}
	lines := make([]srcLine, len(text))
	for i, t := range text {
		// Braces count only on a line of nothing else: the "{" that
		// opens an uncovered branch does not make its line partly covered.
		var seen, braces uint8
		for c := 0; c < len(t); c++ {
			switch t[c] {
			case ' ', '\t':
			case '{', '}':
				braces |= marks[i][c]
			default:
				seen |= marks[i][c]
			}
		}
		if seen == 0 {
			seen = braces
		}
		cls := ""
		switch seen {
		case covered:
			cls = "c"
		case uncovered:
			cls = "u"
		case covered | uncovered:
			cls = "p"
		}
		lines[i] = srcLine{N: i + 1, Text: strings.ReplaceAll(t, "\t", "    "), Class: cls}
	}
	return lines, ""
}
