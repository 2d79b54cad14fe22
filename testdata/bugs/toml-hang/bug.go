// Package tomlhang pins github.com/BurntSushi/toml v0.2.0, where
// toml.Decode never returns on a document whose multi-line basic string
// ("""...) is not closed: lexMultilineString keeps reading at the end of
// the input: https://github.com/BurntSushi/toml/issues/155 (second input,
// "hangs").
package tomlhang

import (
	"example.com/bugkit"
	"github.com/BurntSushi/toml"
)

// Issue is the upstream report.
const Issue = "https://github.com/BurntSushi/toml/issues/155"

// Site is where the hung goroutine is found: in lexMultilineString, the
// lexer state the loop never leaves, or in the lexer's state loop itself
// (LoopSite: (*lexer).nextItem runs the state functions one after the
// other; a dump taken between two calls shows only the loop). A dump
// cannot tell which state the loop repeats in the second case, so another
// infinite loop of the lexer would match too; none other is reported at
// this version.
var (
	Site     = bugkit.Site{Func: "github.com/BurntSushi/toml.lexMultilineString", File: "lex.go"}
	LoopSite = bugkit.Site{Func: "github.com/BurntSushi/toml.(*lexer).nextItem", File: "lex.go", Lines: []int{79, 80, 82, 83}}
)

// IsBug reports whether a dump of the goroutines taken while an input ran
// too long (a SIGQUIT dump, a test timeout) is this bug.
func IsBug(stack string) bool { return Site.MatchHang(stack) || LoopSite.MatchHang(stack) }

// Decode decodes a document the way a program reading a configuration
// file does.
func Decode(doc string) error {
	var v map[string]any
	_, err := toml.Decode(doc, &v)
	return err
}
