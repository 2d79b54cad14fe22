package instrument

import (
	"bytes"
	"fmt"
	"go/token"
)

// pruneDirectives removes the inline line directives of a rendered file
// that the rewriter added (ours) and that change nothing: the position
// they give the character after them is the one the directives before
// them already give it once they are gone. The rewriter gives every
// statement a directive, since dst prints the file anew and the inserted
// probes push lines down; but between two probes the printed lines follow
// the original's one for one, and each directive there repeats what the
// last one said. Each one kept costs the compiler a position base, and
// its SSA passes clear a map per base and block (cmd/compile's xposmap):
// on a function of 9,000 probes, 14,000 directives made the compile 2.3
// times as long.
//
// The rule follows the spec's (and go/token's): after a directive giving
// file:L:C to the character at printed line p, a character on a later
// printed line p' is at file:L+(p'-p) and its printed column, and one on
// line p itself at C plus its distance from that character; a directive
// without a column leaves columns unknown up to the next one. A directive
// of ours is removed when it is the first directive on its line, the one
// in force came from an earlier line and has a column, and that one
// already gives file:L:C to the character after it once it is removed
// with the blanks that follow it (which moves the token after them to the
// column where the directive began: it must be on the same line); and
// when removing it joins no two tokens. The others, the user's own and
// the //line ones, are kept, and each becomes the one in force.
func pruneDirectives(src []byte, ours map[string]bool) ([]byte, error) {
	if len(ours) == 0 {
		return src, nil
	}
	toks, tf, err := scanTokens(src)
	if err != nil {
		return nil, fmt.Errorf("prune line directives: %w", err)
	}
	// The directive in force: it gives file:line:col to the character at
	// printed line at (col 0: columns unknown); ok is false before the
	// first one.
	var base struct {
		file      string
		line, col int
		at        int
		ok        bool
	}
	lastLine := 0 // the printed line of the last directive seen
	var cuts [][2]int
	for _, t := range toks {
		if t.tok != token.COMMENT {
			continue
		}
		lit := t.lit
		file, line, col, ok := parseDirective(lit)
		if !ok {
			continue
		}
		start := t.off
		end := start + len(lit)
		p := tf.PositionFor(tf.Pos(start), false)
		first := p.Line != lastLine
		lastLine = p.Line
		if lit[1] == '/' { // //line: for the start of the next line
			base.file, base.line, base.col, base.at, base.ok = file, line, col, p.Line+1, true
			continue
		}
		// Removed with the blanks after it (placeDirectives puts one
		// between a directive and its token, and gives the blank the
		// column before the token's), the token after it moves to
		// where the directive began.
		blanks := end
		for blanks < len(src) && (src[blanks] == ' ' || src[blanks] == '\t') {
			blanks++
		}
		if ours[lit] && first && base.ok && base.col > 0 && base.at < p.Line && base.file == file &&
			base.line+p.Line-base.at == line && col > 0 && p.Column == col+blanks-end &&
			blanks < len(src) && src[blanks] != '\n' && src[blanks] != '\r' && !joins(src, start, blanks) {
			cuts = append(cuts, [2]int{start, blanks})
			continue
		}
		base.file, base.line, base.col, base.at, base.ok = file, line, col, p.Line, true
	}
	return cut(src, cuts, ""), nil
}

// joins reports whether removing src[start:end] would join the characters
// on its two sides into one token (an identifier, keyword or number on
// each side).
func joins(src []byte, start, end int) bool {
	word := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	return start > 0 && end < len(src) && word(src[start-1]) && word(src[end])
}

// joinProbes moves each probe statement printed on a line of its own
// (prefix's Hit call: _gfzHit(0x..., &_gfzBlocks[0x...])) to the end of
// the line before it when that line ends a block's opening brace or a
// case or default clause's colon, with nothing but blanks between them:
// `if x {` and the probe become `if x { _gfzHit(...)`. The printed lines
// then follow the original's one for one across the probe, so that the
// directive of the statement after it repeats what the one in force says
// and pruneDirectives removes it. A line ending in a comment, a label's
// colon or anything else keeps its probe on the next line. A block holding
// the probe alone (an implicit else) gets its closing brace on that line
// too: `} else { _gfzHit(...) }`.
func joinProbes(src []byte, prefix string) ([]byte, error) {
	hit := helper(prefix, "Hit")
	toks, _, err := scanTokens(src)
	if err != nil {
		return nil, fmt.Errorf("join probes: %w", err)
	}
	// clause[i]: toks[i] is the colon of a case or default clause (the
	// first colon after the keyword at the same depth).
	clause := make([]bool, len(toks))
	var open []int // the depths of the case/default keywords awaiting their colon
	depth := 0
	for i, t := range toks {
		switch t.tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		case token.CASE, token.DEFAULT:
			open = append(open, depth)
		case token.COLON:
			if n := len(open); n > 0 && open[n-1] == depth {
				clause[i] = true
				open = open[:n-1]
			}
		}
	}
	var cuts [][2]int // replace src[from:to] by one blank
	for i := 1; i < len(toks); i++ {
		t, prev := toks[i], toks[i-1]
		if t.tok != token.IDENT || t.lit != hit || prev.line != t.line-1 ||
			!(prev.tok == token.LBRACE || prev.tok == token.COLON && clause[i-1]) {
			continue
		}
		from, to := prev.off+1, t.off // after the { or the :
		if len(bytes.TrimLeft(src[from:to], " \t\r\n")) != 0 || bytes.Count(src[from:to], []byte("\n")) != 1 {
			continue
		}
		// The probe is the whole statement on its line: its call ends
		// the line.
		end := probeEnd(toks, i)
		if end < 0 || end+1 < len(toks) && toks[end+1].line == t.line {
			continue
		}
		cuts = append(cuts, [2]int{from, to})
		// A block of the probe alone (an if's implicit else, which the
		// rewriter adds: `} else { _gfzHit(...)` and `}` on the next
		// line) closes on the probe's line too.
		if c := end + 1; prev.tok == token.LBRACE && c < len(toks) && toks[c].tok == token.RBRACE && toks[c].line == t.line+1 &&
			(c+1 == len(toks) || toks[c+1].line > toks[c].line) {
			from, to := toks[end].off+1, toks[c].off
			if len(bytes.TrimLeft(src[from:to], " \t\r\n")) == 0 {
				cuts = append(cuts, [2]int{from, to})
			}
		}
	}
	return cut(src, cuts, " "), nil
}

// cut returns src with each range of cuts (in order, not overlapping)
// replaced by with.
func cut(src []byte, cuts [][2]int, with string) []byte {
	if len(cuts) == 0 {
		return src
	}
	var out bytes.Buffer
	out.Grow(len(src))
	last := 0
	for _, c := range cuts {
		out.Write(src[last:c[0]])
		out.WriteString(with)
		last = c[1]
	}
	out.Write(src[last:])
	return out.Bytes()
}

// probeEnd returns the index of the closing parenthesis of the call whose
// name is toks[i], or -1.
func probeEnd(toks []scanned, i int) int {
	if i+1 >= len(toks) || toks[i+1].tok != token.LPAREN {
		return -1
	}
	depth := 0
	for j := i + 1; j < len(toks); j++ {
		switch toks[j].tok {
		case token.LPAREN:
			depth++
		case token.RPAREN:
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// finishPrint is the text passes over a rendered file: the directives put
// in front of their tokens, the probes joined to the lines before them,
// and the directives that change nothing removed.
func finishPrint(src []byte, ours, after map[string]bool, prefix string) ([]byte, error) {
	src, err := placeDirectives(src, ours, after)
	if err == nil {
		src, err = joinProbes(src, prefix)
	}
	if err == nil {
		src, err = pruneDirectives(src, ours)
	}
	return src, err
}
