package instrument

import "testing"

func TestParseDirective(t *testing.T) {
	for _, c := range []struct {
		text      string
		file      string
		line, col int
		ok        bool
	}{
		{"//line lex.go:5", "lex.go", 5, 0, true},
		{"//line lex.go:5:3", "lex.go", 5, 3, true},
		{"//line :5", "", 5, 0, true},
		{"//line :5:3", "", 5, 3, true},
		{"/*line lex.go:5*/", "lex.go", 5, 0, true},
		{"/*line lex.go:5:3*/", "lex.go", 5, 3, true},
		{`//line C:\x\y.go:12`, `C:\x\y.go`, 12, 0, true},
		{`//line C:\x\y.go:12:4`, `C:\x\y.go`, 12, 4, true},
		{"//line a:b:7", "a:b", 7, 0, true},
		{"//line my file.go:7", "my file.go", 7, 0, true},
		{"//line a:99999999999999999999999:7", "a:99999999999999999999999", 7, 0, true},
		{"//line lex.go:0", "", 0, 0, false},
		{"//line lex.go:5:0", "", 0, 0, false},
		{"//line lex.go:0:5", "", 0, 0, false},
		{"//line lex.go:x", "", 0, 0, false},
		{"//line lex.go", "", 0, 0, false},
		{"//line lex.go:1073741825", "", 0, 0, false},
		{"// line lex.go:5", "", 0, 0, false},
		{"/*line lex.go:5", "", 0, 0, false},
	} {
		file, line, col, ok := parseDirective(c.text)
		if file != c.file || line != c.line || col != c.col || ok != c.ok {
			t.Errorf("parseDirective(%q) = %q, %d, %d, %v; want %q, %d, %d, %v", c.text, file, line, col, ok, c.file, c.line, c.col, c.ok)
		}
	}
	for _, c := range []struct {
		inline    bool
		file      string
		line, col int
		want      string
	}{
		{false, "lex.go", 5, 3, "//line lex.go:5:3"},
		{false, "lex.go", 5, 0, "//line lex.go:5"},
		{true, "lex.go", 5, 0, "/*line lex.go:5*/"},
		{true, `C:\x\y.go`, 12, 0, `/*line C:\x\y.go:12*/`},
		{true, "", 5, 3, "/*line :5*/"}, // :5:3 would keep the current file
		{true, "a*/b", 5, 3, ""},
	} {
		if got := directive(c.inline, c.file, c.line, c.col); got != c.want {
			t.Errorf("directive(%v, %q, %d, %d) = %q, want %q", c.inline, c.file, c.line, c.col, got, c.want)
		}
	}
}
