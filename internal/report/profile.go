package report

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Reading go tool cover profiles. (Written here rather than with
// golang.org/x/tools/cover: every fuzz binary links this package, and a
// module dependency of a fuzz binary would have to be in the go.sum of
// every user's module.)

// profile is the blocks of one file of a coverage profile.
type profile struct {
	FileName string
	Blocks   []profileBlock
}

type profileBlock struct {
	StartLine, StartCol, EndLine, EndCol int
	NumStmt, Count                       int
}

// readProfile reads a profile ("mode: ..." then "file:l.c,l.c stmts count"
// lines), merging the counts of blocks listed twice, files in name order
// and blocks in position order.
func readProfile(path string) ([]*profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	files := map[string]*profile{}
	seen := map[string]map[[4]int]int{} // file -> block position -> index
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			if !strings.HasPrefix(line, "mode: ") {
				return nil, fmt.Errorf("%s: first line is not \"mode: ...\"", path)
			}
			continue
		}
		if line == "" {
			continue
		}
		name, b, err := parseProfileLine(line)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, n, err)
		}
		p := files[name]
		if p == nil {
			p = &profile{FileName: name}
			files[name], seen[name] = p, map[[4]int]int{}
		}
		k := [4]int{b.StartLine, b.StartCol, b.EndLine, b.EndCol}
		if i, ok := seen[name][k]; ok {
			p.Blocks[i].Count += b.Count
			continue
		}
		seen[name][k] = len(p.Blocks)
		p.Blocks = append(p.Blocks, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("%s is empty", path)
	}
	out := make([]*profile, 0, len(files))
	for _, p := range files {
		sort.SliceStable(p.Blocks, func(i, j int) bool {
			a, b := p.Blocks[i], p.Blocks[j]
			return a.StartLine < b.StartLine || a.StartLine == b.StartLine && a.StartCol < b.StartCol
		})
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].FileName < out[j].FileName })
	return out, nil
}

// parseProfileLine parses "file:sl.sc,el.ec stmts count".
func parseProfileLine(line string) (string, profileBlock, error) {
	var b profileBlock
	f := strings.Fields(line)
	if len(f) < 3 {
		return "", b, fmt.Errorf("malformed block %q", line)
	}
	pos, stmts, count := strings.Join(f[:len(f)-2], " "), f[len(f)-2], f[len(f)-1]
	i := strings.LastIndexByte(pos, ':')
	if i <= 0 {
		return "", b, fmt.Errorf("malformed block %q", line)
	}
	if _, err := fmt.Sscanf(pos[i+1:], "%d.%d,%d.%d", &b.StartLine, &b.StartCol, &b.EndLine, &b.EndCol); err != nil {
		return "", b, fmt.Errorf("malformed position in %q", line)
	}
	var err1, err2 error
	b.NumStmt, err1 = strconv.Atoi(stmts)
	b.Count, err2 = strconv.Atoi(count)
	if err1 != nil || err2 != nil || b.NumStmt < 0 || b.Count < 0 {
		return "", b, fmt.Errorf("malformed counts in %q", line)
	}
	return pos[:i], b, nil
}
