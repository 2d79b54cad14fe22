package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// INIConfig tunes INI.
type INIConfig struct {
	// Sections are the section names; empty: those of an application's
	// configuration file.
	Sections []string
	// Keys are the key names; empty: those of an application's
	// configuration file.
	Keys        []string
	MaxSections int // sections after the keys of the default section; default 5
	MaxKeys     int // keys of a section; default 6
	MistakesPer int // per mille of documents passed through Corrupt; default 0
}

func (c INIConfig) withDefaults() INIConfig {
	if len(c.Sections) == 0 {
		c.Sections = []string{"server", "database", "session", "log", "mailer", "repository", "security",
			"service", "cache", "cron", "author", "package", "features", "types", "paths", "string escapes"}
	}
	if len(c.Keys) == 0 {
		c.Keys = []string{"NAME", "VERSION", "APP_NAME", "RUN_MODE", "RUN_USER", "HOST", "PORT", "PROTOCOL",
			"DOMAIN", "ROOT_URL", "HTTP_ADDR", "USER", "PASSWD", "DB_TYPE", "PATH", "ROOT", "MODE", "LEVEL",
			"ENABLED", "TIMEOUT", "MAX_CONNS", "E-MAIL", "name", "path", "data_dir", "log_level", "url", "key"}
	}
	if c.MaxSections <= 0 {
		c.MaxSections = 5
	}
	if c.MaxKeys <= 0 {
		c.MaxKeys = 6
	}
	return c
}

var (
	iniWords = gen.Tokens("gopher", "app", "My App", "example", "prod", "dev", "Unknwon", "data", "logs", "main",
		"value", "some value", "en, zh, de", "localhost", "127.0.0.1", "u@example.org", "sqlite3", "postgres", "info",
		"warn", "Gopher.", "Coding addict.", "中文", "é")
	iniScalars = gen.Tokens("8080", "0", "-1", "3", "10", "0x3000", "1.25", "-0.5", "true", "false", "on", "off",
		"yes", "no", "1", "2h45m", "30s", "2015-01-01T20:17:05Z", "1, 2, 3", "1.1, 2.2", "true, false", "v1", "0644")
	iniComments = gen.Tokens("Package name", "Information about package author", "Bio can be written in multiple lines.",
		"TODO", "See the documentation", "=== section ===", "key = value", "")
)

type iniWriter struct {
	t    *gfz.T
	cfg  INIConfig
	nl   string
	b    strings.Builder
	keys map[string][]string // the key names written in each section
}

// comment writes a comment line, '#' or ';'.
func (w *iniWriter) comment() {
	w.b.WriteString(gen.Tokens("#", ";", "# ", "; ").Draw(w.t) + iniComments.Draw(w.t) + w.nl)
}

// visible returns the names a recursive value in section s can refer
// to: s's keys, its parent sections' ("a" for "a.b"), the default
// section's.
func (w *iniWriter) visible(s string) []string {
	var out []string
	for {
		out = append(out, w.keys[s]...)
		i := strings.LastIndexByte(s, '.')
		if i < 0 {
			break
		}
		s = s[:i]
	}
	return append(out, w.keys["DEFAULT"]...)
}

// ref writes a recursive value "%(name)s": mostly a name the section
// can see, else any key name.
func (w *iniWriter) ref(section string) string {
	names := w.visible(section)
	if len(names) == 0 || gen.IntRange(0, 4).Draw(w.t) == 0 {
		return "%(" + gen.Tokens(w.cfg.Keys...).Draw(w.t) + ")s"
	}
	return "%(" + gen.Tokens(names...).Draw(w.t) + ")s"
}

// part is a piece of a composed value: a word or a recursive value.
func (w *iniWriter) part(section string) string {
	if gen.IntRange(0, 2).Draw(w.t) == 0 {
		return w.ref(section)
	}
	return strings.ReplaceAll(gen.Tokens("gopher", "app", "example.org", "data", "v1", "8080", "ini").Draw(w.t), " ", "_")
}

// value draws a key's value as written after the delimiter.
func (w *iniWriter) value(section string) string {
	switch gen.IntRange(0, 19).Draw(w.t) {
	case 0, 1, 2, 3:
		return iniWords.Draw(w.t)
	case 4, 5, 6, 7:
		return iniScalars.Draw(w.t)
	case 8: // empty
		return ""
	case 9: // quoted
		q := gen.Tokens(`"`, `'`).Draw(w.t)
		return q + iniWords.Draw(w.t) + q
	case 10: // backquoted, where '#' and ';' are no comment; sometimes over lines
		if gen.IntRange(0, 2).Draw(w.t) == 0 {
			return "`" + iniWords.Draw(w.t) + "," + w.nl + iniWords.Draw(w.t) + "`"
		}
		return "`" + gen.Tokens("my#password", "my;password", "a=b", "404 road").Draw(w.t) + "`"
	case 11: // triple-quoted, over lines
		return `"""` + iniWords.Draw(w.t) + w.nl + iniWords.Draw(w.t) + w.nl + `"""`
	case 12: // continuation lines
		return iniWords.Draw(w.t) + ` \` + w.nl + "  " + iniWords.Draw(w.t)
	case 13: // escaped commas and backslashes
		return gen.Tokens(`value1\, value2`, `val\ue1, value2`, `value1\\, value\\\\2`, `aaa bbb\ and\ space ccc`).Draw(w.t)
	case 14, 15: // a URL
		s := gen.Tokens("http", "https").Draw(w.t) + "://" + w.part(section)
		if gen.Bool().Draw(w.t) {
			s += ":" + w.part(section)
		}
		return s + "/" + w.part(section)
	case 16: // a path
		s := gen.Tokens("/var/lib/", "/home/", "./", "").Draw(w.t)
		for i := range gen.IntRange(1, 3).Draw(w.t) {
			if i > 0 {
				s += "/"
			}
			s += w.part(section)
		}
		return s
	case 17: // text around a recursive value
		return iniWords.Draw(w.t) + " " + w.ref(section) + gen.Tokens("", ".", " "+iniWords.Draw(w.t)).Draw(w.t)
	default: // a recursive value alone
		return w.ref(section)
	}
}

// key writes one key line of section, and records its name.
func (w *iniWriter) key(section string) {
	if gen.IntRange(0, 5).Draw(w.t) == 0 {
		w.comment()
	}
	name := gen.Tokens(w.cfg.Keys...).Draw(w.t)
	written := name
	switch gen.IntRange(0, 29).Draw(w.t) {
	case 0, 1: // auto-increment
		name = ""
		written = "-"
	case 2: // quoted key names, which may hold the delimiters
		name = gen.Tokens("1+1=2", "6+1=7", "a:b").Draw(w.t)
		written = gen.Tokens(`"`, `"""`, "`").Draw(w.t)
		written = written + name + written
	}
	w.b.WriteString(written)
	switch gen.IntRange(0, 3).Draw(w.t) {
	case 0:
	case 1:
		w.b.WriteString(" ")
	default: // aligned
		w.b.WriteString(strings.Repeat(" ", max(1, 12-len(written))))
	}
	w.b.WriteString(gen.OneOfWeighted(gen.W(6, gen.Just("=")), gen.W(1, gen.Just(":"))).Draw(w.t))
	v := w.value(section)
	if v != "" && gen.IntRange(0, 5).Draw(w.t) > 0 {
		w.b.WriteString(" ")
	}
	w.b.WriteString(v)
	if gen.IntRange(0, 9).Draw(w.t) == 0 {
		w.b.WriteString(gen.Tokens(" # ", " ; ", "  # ").Draw(w.t) + iniComments.Draw(w.t))
	}
	w.b.WriteString(w.nl)
	if name != "" {
		w.keys[section] = append(w.keys[section], name)
	}
}

// section writes a section header and its keys, and returns its name.
func (w *iniWriter) section(previous []string) string {
	if gen.IntRange(0, 2).Draw(w.t) == 0 {
		w.comment()
	}
	var name string
	switch {
	case len(previous) > 0 && gen.IntRange(0, 4).Draw(w.t) == 0: // a child section
		name = gen.Tokens(previous...).Draw(w.t) + "." + gen.Tokens("sub", "child", "file", "console", "tls").Draw(w.t)
	case gen.IntRange(0, 19).Draw(w.t) == 0:
		name = "DEFAULT"
	default:
		name = gen.Tokens(w.cfg.Sections...).Draw(w.t)
	}
	w.b.WriteString("[" + name + "]")
	if gen.IntRange(0, 9).Draw(w.t) == 0 {
		w.b.WriteString(" ; " + iniComments.Draw(w.t))
	}
	w.b.WriteString(w.nl)
	for range gen.IntRange(0, w.cfg.MaxKeys).Draw(w.t) {
		w.key(name)
	}
	return name
}

// INI generates INI documents as go-ini (gopkg.in/ini.v1) documents
// them: keys of the default section first, then sections ("[name]",
// child sections "[parent.child]" that inherit their parent's keys, an
// explicit "[DEFAULT]" now and then), each of key lines: a name (or "-"
// for an auto-incremented one, or a quoted name holding a delimiter),
// '=' or ':', a value (words, numbers, booleans, durations, times,
// lists, quoted, backquoted or triple-quoted strings over several lines,
// continuation lines, escaped commas, URLs and paths), and now and then
// an inline comment; comment lines with '#' or ';', blank lines,
// CRLF line ends in a tenth of the documents, a UTF-8 byte order mark in
// a few. Values use the recursive value syntax "%(name)s", mostly with
// the name of a key the section can see (its own, its parents', the
// default section's), else any key name. MistakesPer per mille go
// through Corrupt.
func INI(cfg INIConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &iniWriter{t: t, cfg: cfg, nl: "\n", keys: map[string][]string{}}
		if gen.IntRange(0, 9).Draw(t) == 0 {
			w.nl = "\r\n"
		}
		if gen.IntRange(0, 29).Draw(t) == 0 {
			w.b.WriteString("\xef\xbb\xbf")
		}
		if gen.IntRange(0, 2).Draw(t) == 0 {
			w.comment()
		}
		if gen.Bool().Draw(t) {
			for range gen.IntRange(1, cfg.MaxKeys).Draw(t) {
				w.key("DEFAULT")
			}
			w.b.WriteString(w.nl)
		}
		var names []string
		for range gen.IntRange(0, cfg.MaxSections).Draw(t) {
			names = append(names, w.section(names))
			if gen.IntRange(0, 4).Draw(t) > 0 {
				w.b.WriteString(w.nl)
			}
		}
		return Corrupt(t, w.b.String(), cfg.MistakesPer)
	})
}
