// Package inimissingref pins gopkg.in/ini.v1 v1.48.0 (go-ini/ini), where
// reading a value panics (nil pointer dereference) when the value holds a
// recursive reference, the documented "%(name)s" syntax, to a key that
// exists neither in the key's section (or its parent sections) nor in the
// DEFAULT section, as "bar = %(missing)s" under [foo], or to the key
// itself outside DEFAULT. Key.transformValue looks the name up in the
// section, then in DEFAULT, ignores the second lookup's error and
// substitutes the value of the nil key it got. The file loads without
// error; the panic comes on the first read of the value (Key.String,
// MustString, the typed getters, MapTo). Reported as
// https://github.com/go-ini/ini/issues/191; fixed in v1.49.0 by commit
// 2e33564 ("key: fix panic when recursive value has missing target"),
// which leaves the reference as it is.
//
// A document with a section, a key and a recursive value whose name
// matches no key the lookup can see.
package inimissingref

import (
	"strings"

	"example.com/bugkit"
	"gopkg.in/ini.v1"
)

// Issue is the upstream report.
const Issue = "https://github.com/go-ini/ini/issues/191"

// Site is the substitution of the looked-up key's value in
// transformValue (key.go:157), whatever read the value (String, the
// typed getters, MapTo). The traceback spells the package
// "gopkg.in/ini%2ev1".
var Site = bugkit.Site{Func: "gopkg.in/ini%2ev1.(*Key).transformValue", File: "key.go", Lines: []int{157}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Dump loads an INI document and writes every value as a program reading
// its configuration gets it (recursive values expanded), one
// "section.key = value" line each, sections and keys in file order: what
// a tool converting or checking configuration files does. A document
// the library does not load is an error.
func Dump(data []byte) (string, error) {
	f, err := ini.Load(data)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, s := range f.Sections() {
		for _, k := range s.Keys() {
			b.WriteString(s.Name() + "." + k.Name() + " = " + k.String() + "\n")
		}
	}
	return b.String(), nil
}
