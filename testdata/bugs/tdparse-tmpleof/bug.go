// Package tdparsetmpleof pins github.com/tdewolff/parse/v2 v2.7.6, whose
// HTML lexer, when it is given template delimiters (NewTemplateLexer: Go
// templates' {{ }}, EJS's or ASP's <% %>, PHP's <? ?>), panics (index out
// of range) on a document whose last text-level template action runs to
// the end of the input: one closed exactly at the end ("<p>x</p>{{end}}"),
// one left open (a PHP file whose last <?php block has no closing ?>, as
// the PHP manual recommends for files that end in code), or one holding a
// quote that is never closed (the lexer skips quoted strings inside
// actions, so the apostrophe of "{{/* don't */}}" runs to the end unless
// another one follows). Next skips the action with moveTemplate and then
// moves one byte further, past the NUL that ends the input, and its next
// Peek reads beyond the buffer. The template mode was new in v2.7.x;
// minify's HTML minifier uses it for Go templates, EJS, ASP and PHP
// files. (At v2.7.6 the text state does not see "<%" as an action, a
// later fix, so EJS and ASP templates do not reach the bug; {{ }} and
// <? ?> do.)
//
// Reported through minify (v2.20.8 and v2.20.9, on PHP files, with the
// trace at parse v2.7.6 html/lex.go:163):
// https://github.com/tdewolff/minify/issues/650; fixed in v2.7.7 by
// commit 835ff6b ("HTML: fix bug with unexpected ending in template",
// whose tests add "{{" and "{{'"), which minify took up the same day.
package tdparsetmpleof

import (
	"fmt"
	"io"

	"example.com/bugkit"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/html"
)

// Issue is the upstream report (filed against minify, whose HTML
// minifier runs the lexer of this module).
const Issue = "https://github.com/tdewolff/minify/issues/650"

// Site is the read of the next byte at the top of Next's text loop
// (lex.go:163, c = l.r.Peek(0), the report's line), through the inlined
// Input.Peek, whatever the caller: the text state is the only one that
// moves past a template action without checking for the end.
var Site = bugkit.Site{
	Func:  "github.com/tdewolff/parse/v2/html.(*Lexer).Next",
	File:  "lex.go",
	Lines: []int{163},
	Inner: []string{"github.com/tdewolff/parse/v2.(*Input).Peek"},
}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Language is a template language: its name and the delimiters the lexer
// is given, as minify's command sets them by file extension.
type Language struct {
	Name   string
	Delims [2]string
}

// Languages are the template languages of the targets, by index.
var Languages = []Language{
	{"go", html.GoTemplate},                 // Go's text/template and html/template, Hugo
	{"handlebars", html.HandlebarsTemplate}, // Handlebars and Mustache
	{"ejs", html.EJSTemplate},               // EJS
	{"asp", html.ASPTemplate},               // classic ASP
	{"php", html.PHPTemplate},               // PHP (also <?php and <?=)
}

// Token is one token of the lexer: its type, its bytes, the attribute
// value of an attribute, and whether it holds a template action.
type Token struct {
	Type    html.TokenType
	Data    string
	AttrVal string
	Tmpl    bool
}

// Tokenize lexes an HTML template with the template delimiters of lang,
// as a template-aware minifier or linter does: every token up to the end
// of the input, the attributes of each start tag. A lexer error other
// than the end of the input (a NULL inside SVG or MathML) is returned.
func Tokenize(doc string, lang Language) ([]Token, error) {
	l := html.NewTemplateLexer(parse.NewInputString(doc), lang.Delims)
	var toks []Token
	for {
		tt, data := l.Next()
		if tt == html.ErrorToken {
			if err := l.Err(); err != io.EOF {
				return toks, fmt.Errorf("%s template: %w", lang.Name, err)
			}
			return toks, nil
		}
		tok := Token{Type: tt, Data: string(data), Tmpl: l.HasTemplate()}
		if tt == html.AttributeToken {
			tok.AttrVal = string(l.AttrVal())
		}
		toks = append(toks, tok)
	}
}
