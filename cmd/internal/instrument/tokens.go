package instrument

import (
	"fmt"
	"go/scanner"
	"go/token"
)

// scanned is a token of a printed file: its offset, kind, text and
// printed line (line directives not applied).
type scanned struct {
	off  int
	tok  token.Token
	lit  string
	line int
}

// scanTokens returns the tokens of a printed file, comments included, but
// not the semicolons the scanner inserts at line breaks (they are not in
// the text), with the file for printed positions (PositionFor(pos,
// false): the scanner applies the line directives it reads) and the first
// scanning error.
func scanTokens(src []byte) ([]scanned, *token.File, error) {
	fset := token.NewFileSet()
	tf := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	var scanErr error
	s.Init(tf, src, func(pos token.Position, msg string) {
		if scanErr == nil {
			scanErr = fmt.Errorf("line %d: %s", pos.Line, msg)
		}
	}, scanner.ScanComments)
	var toks []scanned
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		if t == token.SEMICOLON && lit == "\n" {
			continue
		}
		toks = append(toks, scanned{tf.Offset(pos), t, lit, tf.PositionFor(pos, false).Line})
	}
	return toks, tf, scanErr
}
