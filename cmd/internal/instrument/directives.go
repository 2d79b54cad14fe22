package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Line directives, as cmd/compile reads them (cmd/compile's doc, "Compiler
// Directives"): //line file:line, //line file:line:col, and the same in a
// /*line ...*/ comment, which may stand anywhere on a line (a //line comment
// must start at column 1). A //line comment gives its position to the first
// character of the next line, a /*line*/ comment to the character right
// after it. The text is read from the back: :col, then :line, peeled off if
// they are numbers, and the rest is the file name, which may hold colons
// (C:\x\y.go). Without a column the column is unknown until the next
// directive (go/token reports it as 0). An empty file name with a column
// (//line :line:col) keeps the current file; without one (//line :line) it
// is the empty name (?? in a stack trace).

// maxLineCol is the largest line or column a directive may give
// (go/scanner's and cmd/compile's limit).
const maxLineCol = 1 << 30

// parseDirective splits the text of a line directive comment into the file
// name as written, the line and the column (0 if the directive has none).
// ok is false for a comment that is not a valid line directive.
func parseDirective(text string) (file string, line, col int, ok bool) {
	var body string
	switch {
	case strings.HasPrefix(text, "//line "):
		body = text[len("//line "):]
	case strings.HasPrefix(text, "/*line ") && strings.HasSuffix(text, "*/") && len(text) >= len("/*line */"):
		body = text[len("/*line ") : len(text)-len("*/")]
	default:
		return "", 0, 0, false
	}
	i, n, ok := trailingDigits(body)
	if i < 0 || !ok {
		return "", 0, 0, false
	}
	var l, c uint64
	if j, n2, ok2 := trailingDigits(body[:i]); ok2 {
		l, c, i = n2, n, j
		if c == 0 || c > maxLineCol {
			return "", 0, 0, false
		}
	} else {
		l = n
	}
	if l == 0 || l > maxLineCol {
		return "", 0, 0, false
	}
	return body[:i], int(l), int(c), true
}

// trailingDigits returns the index of the last colon of s (-1 if none) and
// the number after it (ok false if it is not a number).
func trailingDigits(s string) (colon int, n uint64, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return -1, 0, false
	}
	v, err := strconv.ParseUint(s[i+1:], 10, 0)
	return i, v, err == nil
}

// directive formats a line directive giving file:line:col (inline: the
// /*line*/ form) to what follows it. Column 0 (unknown) leaves the column
// out, as does an empty file name, whose :line:col form would keep the
// current file instead (the column is then lost). It returns "" for a
// file name no /*line*/ comment can hold.
func directive(inline bool, file string, line, col int) string {
	if file == "" || col < 0 {
		col = 0
	}
	pos := file + ":" + strconv.Itoa(line)
	if col > 0 {
		pos += ":" + strconv.Itoa(col)
	}
	if strings.ContainsAny(file, "\n\r") {
		return ""
	}
	if !inline {
		return "//line " + pos
	}
	if strings.Contains(file, "*/") {
		return ""
	}
	return "/*line " + pos + "*/"
}

// lineNames knows the file names the compiler records for the line
// directives of one original file. go/token positions carry go/scanner's
// names, which differ: go/scanner cleans a relative name and joins it to
// the file's directory (//line lex.go:5 gives /dir/lex.go) where the
// compiler keeps lex.go (stack traces show lex.go:5). The rewriter's
// directives must name what the compiler would have recorded.
type lineNames struct {
	tf      *token.File
	at      []int    // offsets of the directive comments, ascending
	names   []string // the compiler's file name after at[i]
	scanned []string // go/scanner's name for the same directive
}

func newLineNames(tf *token.File, f *ast.File) *lineNames {
	ln := &lineNames{tf: tf}
	if tf == nil {
		return ln
	}
	name, scanned := tf.Name(), tf.Name()
	dir, _ := filepath.Split(tf.Name())
	for _, g := range f.Comments {
		for _, c := range g.List {
			if !strings.HasPrefix(c.Text, "//line ") && !strings.HasPrefix(c.Text, "/*line ") {
				continue
			}
			if c.Text[1] == '/' && tf.PositionFor(c.Slash, false).Column != 1 {
				continue // //line not at the start of a line: a comment
			}
			file, _, col, ok := parseDirective(c.Text)
			if !ok {
				continue
			}
			switch {
			case file == "" && col > 0: // keep the current file
			case file == "":
				name, scanned = "", ""
			default:
				name = file
				scanned = filepath.Clean(file)
				if !filepath.IsAbs(scanned) {
					scanned = filepath.Join(dir, scanned)
				}
			}
			ln.at = append(ln.at, tf.Offset(c.Slash))
			ln.names = append(ln.names, name)
			ln.scanned = append(ln.scanned, scanned)
		}
	}
	return ln
}

// name returns the compiler's file name at pos, whose go/token file name
// is scanned (returned as it is outside any directive, or where the two
// disagree).
func (ln *lineNames) name(pos token.Pos, scanned string) string {
	if ln == nil || ln.tf == nil || len(ln.at) == 0 || int(pos) < ln.tf.Base() || int(pos) > ln.tf.Base()+ln.tf.Size() {
		return scanned
	}
	off := ln.tf.Offset(pos)
	i := sort.SearchInts(ln.at, off) - 1 // the last directive before pos
	if i < 0 || ln.scanned[i] != scanned {
		return scanned
	}
	return ln.names[i]
}

// placeDirectives puts the inline line directives of a rendered file
// that the rewriter added, each naming the position of the token it is
// for, where they give that token its position. A /*line file:L:C*/
// comment gives its position to the character right after it, and the
// columns after it on its line count on from there. dst decides where a
// node's start decorations go: mostly in front of the node, separated by
// one blank (which this pass turns into /*line file:L:C-1*/ before the
// blank); but after a blank line, after a comment line, and before any
// case clause but a switch's first, at the end of the previous line,
// where the directive would give its position to the line break and the
// token on the next line would be at L+1. This pass moves each such
// directive (those in ours) right in front of the token it is for (the
// next token that is not a comment), with no blank between them. The
// directives in after (syncAfter's, which follow a function literal's
// closing brace) are for what follows on their line; at the end of a line
// they stay, and the next line is the original's next line. A directive
// followed by another before its token is left alone: the other one
// decides.
func placeDirectives(src []byte, ours, after map[string]bool) ([]byte, error) {
	if len(ours) == 0 && len(after) == 0 {
		return src, nil
	}
	toks, _, err := scanTokens(src)
	if err != nil {
		return nil, fmt.Errorf("place line directives: %w", err)
	}
	type edit struct {
		from, to int // replace src[from:to]
		with     string
	}
	var edits []edit
	for i, t := range toks {
		if t.tok != token.COMMENT || !ours[t.lit] && !after[t.lit] {
			continue
		}
		next := -1
		for j := i + 1; j < len(toks); j++ {
			if toks[j].tok != token.COMMENT {
				next = toks[j].off
				break
			}
			if _, _, _, ok := parseDirective(toks[j].lit); ok {
				break // superseded
			}
		}
		file, line, col, ok := parseDirective(t.lit)
		if !ok || next < 0 {
			continue
		}
		end := t.off + len(t.lit)
		gap := src[end:next]
		if bytes.IndexByte(gap, '\n') < 0 {
			// On the token's line: count the columns of what is between.
			switch {
			case col == 0:
			case col > len(gap):
				d := directive(true, file, line, col-len(gap))
				if ours[t.lit] {
					ours[d] = true // still ours (pruneDirectives)
				}
				edits = append(edits, edit{t.off, end, d})
			default:
				edits = append(edits, edit{t.off, end, ""}, edit{next, next, t.lit})
			}
			continue
		}
		if !ours[t.lit] {
			continue // syncAfter's, at the end of a line
		}
		// At the end of a line: drop it there (with the blanks before it
		// if nothing else follows on its line) and put it in front of the
		// token.
		from, to := t.off, end
		if rest := gap[:bytes.IndexByte(gap, '\n')]; len(bytes.TrimLeft(rest, " \t\r")) == 0 {
			for from > 0 && (src[from-1] == ' ' || src[from-1] == '\t') {
				from--
			}
			if from == 0 || src[from-1] == '\n' {
				// Alone on its line (dst prints a case clause's
				// directive so): the line goes too, or it would
				// push what follows a line down.
				to = end + len(rest) + 1
			}
		}
		edits = append(edits, edit{from, to, ""}, edit{next, next, t.lit})
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].from < edits[j].from })
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.from < last {
			e.from = last // a blank trimmed twice
		}
		out.Write(src[last:e.from])
		out.WriteString(e.with)
		last = max(last, e.to)
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}
