// Package tomllexvalue pins github.com/BurntSushi/toml v0.2.0, where
// toml.Decode panics with "index out of range [-1]" in the lexer
// (lexValue backing up before the start of the input) on a document that
// starts with two double quotes and a character that is not '=':
// https://github.com/BurntSushi/toml/issues/155 (first crash).
package tomllexvalue

import (
	"example.com/bugkit"
	"github.com/BurntSushi/toml"
)

// Issue is the upstream report.
const Issue = "https://github.com/BurntSushi/toml/issues/155"

// Site is where the bug panics: lx.backup() (inlined) in lexValue.
var Site = bugkit.Site{
	Func:  "github.com/BurntSushi/toml.lexValue",
	File:  "lex.go",
	Lines: []int{389},
	Inner: []string{"github.com/BurntSushi/toml.(*lexer).backup"},
}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a document the way a program reading a configuration
// file does.
func Decode(doc string) error {
	var v map[string]any
	_, err := toml.Decode(doc, &v)
	return err
}
