package instrument

import (
	"bytes"
	"fmt"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"
)

// placeDirectives fixes the inline line directives of a rendered file
// (those in ours) that dst printed with nothing but a line break (or a
// line comment) after them. A /*line file:L:C*/ comment gives its position
// to the character right after it: in front of a token, that token is at
// L:C, as intended; at the end of a line, the line break is, and the
// token the directive was meant for, on the next line, would be at L+1.
// dst decides where a node's start decorations go (after a blank line,
// after a comment line, before any case clause but a switch's first, at
// the end of the previous line), so the rewriter always writes the inline
// form and this pass turns each directive that ends up at a line's end
// into /*line file:L-1:1*/, which makes the next line L.
func placeDirectives(src []byte, ours map[string]bool) ([]byte, error) {
	if len(ours) == 0 {
		return src, nil
	}
	fset := token.NewFileSet()
	tf := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	var scanErr error
	s.Init(tf, src, func(pos token.Position, msg string) {
		if scanErr == nil {
			scanErr = fmt.Errorf("line %d: %s", pos.Line, msg)
		}
	}, scanner.ScanComments)
	var out bytes.Buffer
	last := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT || !ours[lit] {
			continue
		}
		end := tf.Offset(pos) + len(lit)
		rest := src[end:]
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i]
		}
		after := strings.TrimLeft(string(rest), " \t")
		if after != "" && !strings.HasPrefix(after, "//") {
			continue // a token follows on the same line
		}
		file, line, ok := splitDirective(lit)
		if !ok || line < 2 {
			continue
		}
		out.Write(src[last:tf.Offset(pos)])
		fmt.Fprintf(&out, "/*line %s:%d:1*/", file, line-1)
		last = end
	}
	if scanErr != nil {
		return nil, fmt.Errorf("place line directives: %w", scanErr)
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}

// splitDirective returns the file and line of /*line file:line:col*/.
func splitDirective(d string) (file string, line int, ok bool) {
	body, ok := strings.CutPrefix(d, "/*line ")
	if !ok {
		return "", 0, false
	}
	body, ok = strings.CutSuffix(body, "*/")
	if !ok {
		return "", 0, false
	}
	i := strings.LastIndexByte(body, ':')
	if i < 0 {
		return "", 0, false
	}
	j := strings.LastIndexByte(body[:i], ':')
	if j < 0 {
		return "", 0, false
	}
	line, err := strconv.Atoi(body[j+1 : i])
	if err != nil {
		return "", 0, false
	}
	return body[:j], line, true
}
