package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// ShellConfig tunes Shell.
type ShellConfig struct {
	MaxDepth int // nesting of compound commands, substitutions and expansions; default 3
	// MaxStmts bounds a script's statements, a command's words and a
	// case's items; nested lists have one or two statements. Default 3.
	MaxStmts    int
	MistakesPer int // per mille of scripts passed through Corrupt; default 0
}

func (c ShellConfig) withDefaults() ShellConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxStmts <= 0 {
		c.MaxStmts = 3
	}
	return c
}

var (
	shName = gen.OneOfWeighted(
		gen.W(6, gen.Tokens("a", "b", "x", "i", "foo", "bar", "PATH", "HOME", "IFS", "_v1")),
		gen.W(1, gen.Map(gen.Zip(gen.StringFrom("abxyzAZ_", 1, 1), gen.StringFrom("abxyz_019", 0, 3)), func(p gen.Tuple2[string, string]) string { return p.A + p.B })),
	)
	shCommand = gen.Tokens("echo", "printf", "cat", "grep", "test", "[", "cd", "ls", "read", "export", "local", "declare", "readonly", "set", "shift", "exit", "return", "true", "false", ":", "eval", "exec", "sed", "tr", "wc", "source", ".", "printf", "unset", "trap", "wait", "f")
	// shLitChars are unquoted literal characters: letters, digits and the
	// punctuation that needs no quoting.
	shLitChars = gen.OneOfWeighted(
		gen.W(8, gen.StringFrom("abcxyz019._-/", 1, 4)),
		gen.W(2, gen.Tokens("-n", "-e", "--", "%s\\n", "*.txt", "?", "[a-z]", "~", "~/x", "a=b", "+", ",", "@", ":", "{a,b}", "{1..3}", "=", "%", "^")),
	)
	// shEscapes are backslash escapes of unquoted words.
	shEscapes = gen.Tokens(`\$`, `\\`, `\"`, `\'`, "\\`", `\ `, `\*`, `\n`, `\;`, `\|`, `\&`, `\>`, `\#`, "\\\n")
	// shDblChars are the text of double-quoted strings.
	shDblChars = gen.OneOfWeighted(
		gen.W(8, gen.StringFrom("abcxyz 019.,:-/=!*?'#", 1, 4)),
		gen.W(2, gen.Tokens(`\"`, `\\`, `\$`, "\\`", `\n`, `\x`, "\\\n", "\n", "é", "\t")),
	)
	shSglChars  = gen.StringFrom("abcxyz 019.,:-/=$\\\"`*?#!\n", 0, 6)
	shAnsiChars = gen.OneOfWeighted(
		gen.W(6, gen.StringFrom("abcxyz 019.", 1, 4)),
		gen.W(2, gen.Tokens(`\n`, `\t`, `\\`, `\'`, `\"`, `\x41`, `\101`, `\u00e9`, `\e`, `\a`, `\cA`)),
	)
	shSpecialParam = gen.Tokens("@", "*", "#", "?", "-", "$", "!", "0", "1", "2", "9")
	// shParamOps are the operators of ${name OP word}.
	shParamOps    = gen.Tokens(":-", "-", ":=", "=", ":?", "?", ":+", "+", "#", "##", "%", "%%", "/", "//", "/#", "/%", "^", "^^", ",", ",,")
	shRedirOps    = gen.Tokens(">", ">>", "<", "<>", ">&", "<&", ">|", "&>", "&>>", "<<<")
	shArithOps    = gen.Tokens("+", "-", "*", "/", "%", "**", "<<", ">>", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^", "&&", "||", ",")
	shArithAssign = gen.Tokens("=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=")
	shTestUn      = gen.Tokens("-e", "-f", "-d", "-z", "-n", "-r", "-s", "-x", "-L", "-v", "-o")
	shTestBin     = gen.Tokens("==", "=", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef")
	shComment     = gen.Tokens("#", "# c", "#!/bin/sh", "# TODO: x", "#c d")
	shHeredoc     = gen.Tokens("EOF", "END", "X")
)

type shHeredocBody struct {
	delim string
	body  string
}

type shWriter struct {
	t       *gfz.T
	cfg     ShellConfig
	pending []shHeredocBody // here-documents whose bodies follow the next newline
}

// nl returns sep, a separator, with the bodies of the pending
// here-documents after its newline if it ends with one.
func (w *shWriter) nl(sep string) string {
	if strings.HasSuffix(sep, "\n") {
		return sep[:len(sep)-1] + w.newline()
	}
	return sep
}

// newline returns a newline followed by the bodies of the pending
// here-documents.
func (w *shWriter) newline() string {
	var b strings.Builder
	b.WriteString("\n")
	for _, h := range w.pending {
		b.WriteString(h.body)
		b.WriteString(h.delim + "\n")
	}
	w.pending = w.pending[:0]
	return b.String()
}

// paramExp draws a parameter expansion: $name, $1, ${name}, ${#name},
// ${name OP word}, ${name:off:len}, ${arr[i]}, ${!name}.
func (w *shWriter) paramExp(depth int) string {
	switch gen.IntRange(0, 7).Draw(w.t) {
	case 0, 1:
		return "$" + shName.Draw(w.t)
	case 2:
		return "$" + shSpecialParam.Draw(w.t)
	case 3:
		return "${" + shName.Draw(w.t) + "}"
	case 4:
		return "${#" + shName.Draw(w.t) + "}"
	case 5:
		return "${" + shName.Draw(w.t) + shParamOps.Draw(w.t) + w.word(depth-1, true) + "}"
	case 6:
		return "${" + shName.Draw(w.t) + ":" + gen.Tokens("0", "1", "2", "i", "$i", " -1", "(-2)", "i+1").Draw(w.t) + gen.Tokens("", ":1", ":$n", ": -1").Draw(w.t) + "}"
	default:
		return "${" + gen.Tokens("", "!").Draw(w.t) + shName.Draw(w.t) + "[" + gen.Tokens("@", "*", "0", "1", "i", "$i").Draw(w.t) + "]}"
	}
}

// subshell separates a list that starts with "(" from the "(" or "$("
// before it, which would make them "((" or "$((", arithmetic.
func subshell(list string) string {
	if strings.HasPrefix(list, "(") {
		return " " + list
	}
	return list
}

// backquote quotes an inner command for `...`: backslashes and
// backquotes are escaped.
func backquote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "`" + strings.ReplaceAll(s, "`", "\\`") + "`"
}

// subst draws an expansion: a parameter expansion, a command
// substitution $(...) or `...`, an arithmetic expansion $((...)) or a
// process substitution.
func (w *shWriter) subst(depth int) string {
	if depth <= 1 {
		return w.paramExp(depth)
	}
	switch gen.IntRange(0, 6).Draw(w.t) {
	case 0, 1, 2:
		return w.paramExp(depth)
	case 3:
		return "$(" + subshell(w.list(depth-1, true)) + ")"
	case 4:
		return backquote(w.list(depth-1, true))
	case 5:
		return "$(( " + w.arith(depth-1) + " ))"
	default:
		return gen.Tokens("<(", ">(").Draw(w.t) + subshell(w.list(depth-1, true)) + ")"
	}
}

// dblQuoted draws a double-quoted string: text, escapes and expansions.
func (w *shWriter) dblQuoted(depth int) string {
	var b strings.Builder
	b.WriteString(`"`)
	for range gen.IntRange(0, 3).Draw(w.t) {
		if gen.IntRange(0, 2).Draw(w.t) == 0 {
			b.WriteString(w.subst(depth))
		} else {
			b.WriteString(shDblChars.Draw(w.t))
		}
	}
	b.WriteString(`"`)
	return b.String()
}

// word draws a word of one to three parts: literal text, escapes,
// single- and double-quoted strings, ANSI-C and locale strings,
// expansions and substitutions. inBrace words sit inside ${...}.
func (w *shWriter) word(depth int, inBrace bool) string {
	var b strings.Builder
	n := gen.IntRange(1, 2).Draw(w.t)
	if inBrace {
		n = gen.IntRange(0, 2).Draw(w.t)
	}
	for range n {
		switch gen.IntRange(0, 9).Draw(w.t) {
		case 0, 1, 2:
			b.WriteString(shLitChars.Draw(w.t))
		case 3:
			b.WriteString(shEscapes.Draw(w.t))
		case 4:
			b.WriteString("'" + shSglChars.Draw(w.t) + "'")
		case 5, 6:
			b.WriteString(w.dblQuoted(depth))
		case 7:
			if gen.IntRange(0, 3).Draw(w.t) == 0 {
				b.WriteString(`$"` + shDblChars.Draw(w.t) + `"`)
				break
			}
			b.WriteString("$'")
			for range gen.IntRange(0, 2).Draw(w.t) {
				b.WriteString(shAnsiChars.Draw(w.t))
			}
			b.WriteString("'")
		default:
			b.WriteString(w.subst(depth))
		}
	}
	return b.String()
}

// arith draws an arithmetic expression.
func (w *shWriter) arith(depth int) string {
	if depth <= 0 {
		return gen.OneOf(gen.Map(gen.IntRange(0, 20), itoa), gen.Tokens("i", "x", "$x", "0x1F", "010", "2#101", "-1")).Draw(w.t)
	}
	switch gen.IntRange(0, 8).Draw(w.t) {
	case 0:
		return gen.Map(gen.IntRange(0, 100), itoa).Draw(w.t)
	case 1:
		return shName.Draw(w.t)
	case 8:
		return "(" + shName.Draw(w.t) + " " + shArithAssign.Draw(w.t) + " " + w.arith(depth-1) + ")"
	case 2:
		return w.paramExp(depth)
	case 3:
		return gen.Tokens("-", "+", "!", "~").Draw(w.t) + " " + w.arith(depth-1)
	case 4:
		if gen.IntRange(0, 1).Draw(w.t) == 0 {
			return gen.Tokens("++", "--").Draw(w.t) + shName.Draw(w.t)
		}
		return shName.Draw(w.t) + gen.Tokens("++", "--").Draw(w.t)
	case 5:
		return "(" + w.arith(depth-1) + ")"
	case 6:
		return w.arith(depth-1) + " ? " + w.arith(depth-1) + " : " + w.arith(depth-1)
	default:
		return w.arith(depth-1) + " " + shArithOps.Draw(w.t) + " " + w.arith(depth-1)
	}
}

// testExpr draws the inside of [[ ... ]].
func (w *shWriter) testExpr(depth int) string {
	switch k := gen.IntRange(0, 5).Draw(w.t); {
	case k == 0 || depth <= 0:
		return shTestUn.Draw(w.t) + " " + w.word(depth-1, false)
	case k == 1:
		return w.word(depth-1, false)
	case k == 2:
		return w.word(depth-1, false) + " " + shTestBin.Draw(w.t) + " " + w.word(depth-1, false)
	case k == 3:
		return w.word(depth-1, false) + " =~ " + gen.Tokens("^a.*$", "[0-9]+", "(a|b)", "x", "$re").Draw(w.t)
	case k == 4:
		return gen.Tokens("! ", "").Draw(w.t) + "( " + w.testExpr(depth-1) + " )"
	default:
		return w.testExpr(depth-1) + gen.Tokens(" && ", " || ").Draw(w.t) + w.testExpr(depth-1)
	}
}

// redirect draws a redirection, here-documents (whose bodies are queued
// for the next newline) and here-strings included.
func (w *shWriter) redirect(depth int) string {
	fd := gen.Tokens("", "", "", "2", "1", "0", "3", "{fd}").Draw(w.t)
	if gen.IntRange(0, 4).Draw(w.t) == 0 {
		delim := shHeredoc.Draw(w.t)
		op := gen.Tokens("<<", "<<-").Draw(w.t)
		quoted := gen.Tokens("", "", "'", `"`, `\`).Draw(w.t)
		word := delim
		switch quoted {
		case "'", `"`:
			word = quoted + delim + quoted
		case `\`:
			word = `\` + delim
		}
		var body strings.Builder
		for range gen.IntRange(0, 2).Draw(w.t) {
			if op == "<<-" {
				body.WriteString(gen.Tokens("", "\t", "\t\t").Draw(w.t))
			}
			for range gen.IntRange(0, 3).Draw(w.t) {
				if quoted == "" && gen.IntRange(0, 2).Draw(w.t) == 0 {
					body.WriteString(w.subst(depth - 1))
				} else {
					body.WriteString(shDblChars.Draw(w.t))
				}
			}
			body.WriteString("\n")
		}
		w.pending = append(w.pending, shHeredocBody{delim: delim, body: body.String()})
		return fd + op + word
	}
	op := shRedirOps.Draw(w.t)
	if strings.HasPrefix(op, "&") {
		fd = "" // &> and &>> take no file descriptor
	}
	return fd + op + gen.Tokens("", " ").Draw(w.t) + w.word(depth-1, false)
}

// simple draws a simple command: assignments, words and redirections,
// each optional (a command may be only assignments or only
// redirections).
func (w *shWriter) simple(depth int, needCmd bool) string {
	var parts []string
	array := false
	assigns := gen.IntRange(0, 1).Draw(w.t) * gen.IntRange(1, 2).Draw(w.t)
	if needCmd {
		assigns = 0
	}
	for range assigns {
		name := shName.Draw(w.t)
		switch gen.IntRange(0, 5).Draw(w.t) {
		case 0:
			parts = append(parts, name+"=")
		case 1:
			items := make([]string, gen.IntRange(0, 3).Draw(w.t))
			for i := range items {
				items[i] = w.word(depth, false)
			}
			parts = append(parts, name+gen.Tokens("=", "+=").Draw(w.t)+"("+strings.Join(items, " ")+")")
			array = true
		case 2:
			parts = append(parts, name+"["+w.arith(depth-1)+"]="+w.word(depth, false))
			array = true
		default:
			parts = append(parts, name+gen.Tokens("=", "=", "+=").Draw(w.t)+w.word(depth, false))
		}
	}
	// arrays are assigned by commands without words (a command's
	// assignments, which are exported to it, are scalars); a command
	// without assignments has a name, or only redirections one time in
	// ten
	decl := false // the declaration builtins take their redirections last
	redirOnly := len(parts) == 0 && !needCmd && gen.IntRange(0, 9).Draw(w.t) == 0
	if needCmd || len(parts) == 0 && !redirOnly || !array && gen.IntRange(0, 3).Draw(w.t) > 0 {
		name := shCommand.Draw(w.t)
		decl = name == "export" || name == "local" || name == "declare" || name == "readonly"
		parts = append(parts, name)
		for range gen.IntRange(0, w.cfg.MaxStmts).Draw(w.t) {
			parts = append(parts, w.word(depth, false))
		}
	}
	redirs := gen.IntRange(0, 3).Draw(w.t) / 2
	if redirOnly {
		redirs = 1 + redirs
	}
	for range redirs {
		r := w.redirect(depth)
		if i := gen.IntRange(0, len(parts)).Draw(w.t); i < len(parts) && !array && !decl {
			parts = append(parts[:i+1], parts[i:]...)
			parts[i] = r
		} else {
			parts = append(parts, r)
		}
	}
	return strings.Join(parts, " ")
}

// sep draws the separator that ends a statement inside a compound
// command: "; " or a newline.
func (w *shWriter) sep() string {
	if gen.IntRange(0, 1).Draw(w.t) == 0 {
		return "; "
	}
	return w.newline()
}

// compound draws a compound command or a function definition.
func (w *shWriter) compound(depth int) string {
	d := depth - 1
	switch gen.IntRange(0, 11).Draw(w.t) {
	case 0:
		return "{ " + w.list(d, false) + w.sep() + "}"
	case 1:
		return "(" + subshell(w.list(d, true)) + ")"
	case 2:
		s := "if " + w.list(d, false) + w.sep() + "then " + w.list(d, false) + w.sep()
		for range gen.IntRange(0, 1).Draw(w.t) {
			s += "elif " + w.list(d, false) + w.sep() + "then " + w.list(d, false) + w.sep()
		}
		if gen.IntRange(0, 1).Draw(w.t) == 0 {
			s += "else " + w.list(d, false) + w.sep()
		}
		return s + "fi"
	case 3:
		return gen.Tokens("while ", "until ").Draw(w.t) + w.list(d, false) + w.sep() + "do " + w.list(d, false) + w.sep() + "done"
	case 4:
		s := gen.Tokens("for ", "select ").Draw(w.t) + shName.Draw(w.t)
		if gen.IntRange(0, 3).Draw(w.t) > 0 {
			s += " in"
			for range gen.IntRange(0, w.cfg.MaxStmts).Draw(w.t) {
				s += " " + w.word(d, false)
			}
		}
		return s + w.sep() + "do " + w.list(d, false) + w.sep() + "done"
	case 5:
		return "for ((" + w.arith(d) + "; " + w.arith(d) + "; " + w.arith(d) + ")); do " + w.list(d, false) + w.sep() + "done"
	case 6:
		s := "case " + w.word(d, false) + " in" + w.newline()
		for range gen.IntRange(0, w.cfg.MaxStmts).Draw(w.t) {
			pats := make([]string, gen.IntRange(1, 2).Draw(w.t))
			for i := range pats {
				pats[i] = gen.OneOf(gen.Tokens("*", "a", "[0-9]*", "x|y", "?(a)", "'q'", "\"$x\""), shLitChars).Draw(w.t)
			}
			s += gen.Tokens("", "(").Draw(w.t) + strings.Join(pats, "|") + ") " + w.list(d, false) + gen.Tokens(" ;;", ";;", " ;&", " ;;&").Draw(w.t) + w.newline()
		}
		return s + "esac"
	case 7:
		return "[[ " + w.testExpr(d) + " ]]"
	case 8:
		return "(( " + w.arith(d) + " ))"
	case 9:
		name := shName.Draw(w.t)
		if gen.IntRange(0, 3).Draw(w.t) == 0 {
			return name + "() (" + subshell(w.list(d, true)) + ")"
		}
		body := "{ " + w.list(d, false) + w.sep() + "}"
		switch gen.IntRange(0, 2).Draw(w.t) {
		case 0:
			return "function " + name + " " + body
		case 1:
			return "function " + name + "() " + body
		default:
			return name + "() " + body
		}
	case 10:
		return "coproc " + w.simple(d, true)
	default:
		return gen.Tokens("time ", "time -p ").Draw(w.t) + w.simple(d, true)
	}
}

// command draws a simple command or, three times in ten, a compound
// command with optional redirections.
func (w *shWriter) command(depth int) string {
	if depth > 0 && gen.IntRange(0, 9).Draw(w.t) < 3 {
		s := w.compound(depth)
		for range gen.IntRange(0, 3).Draw(w.t) / 2 {
			s += " " + w.redirect(depth)
		}
		return s
	}
	return w.simple(depth, false)
}

// stmt draws a statement: pipelines joined by && and ||, optionally
// negated (list runs some in the background).
func (w *shWriter) stmt(depth int) string {
	var b strings.Builder
	if gen.IntRange(0, 7).Draw(w.t) == 0 {
		b.WriteString("! ")
	}
	for i := range 1 + gen.IntRange(0, 3).Draw(w.t)/3 {
		if i > 0 {
			b.WriteString(w.nl(gen.Tokens(" && ", " || ", " &&\n", "||").Draw(w.t)))
		}
		for j := range 1 + gen.IntRange(0, 3).Draw(w.t)/3 {
			if j > 0 {
				b.WriteString(w.nl(gen.Tokens(" | ", "|", " |& ", " |\n").Draw(w.t)))
			}
			b.WriteString(w.command(depth))
		}
	}
	return b.String()
}

// list draws one or more statements separated by ";", "&" or newlines,
// with comments; a here-document's body follows the first newline after
// its redirection. A sub list (inside a substitution or subshell, before
// its closing token) keeps its here-documents: it ends with a newline
// and their bodies if any is pending.
func (w *shWriter) list(depth int, sub bool) string {
	if sub {
		// a substitution's here-documents end inside it
		outer := w.pending
		w.pending = nil
		defer func() { w.pending = outer }()
	}
	var b strings.Builder
	n := gen.IntRange(1, 2).Draw(w.t)
	if depth == w.cfg.MaxDepth {
		n = gen.IntRange(1, w.cfg.MaxStmts).Draw(w.t)
	}
	sep := ""
	for i := range n {
		if i > 0 && sep == "" {
			sep = w.nl(gen.Tokens("; ", ";", "\n", "\n", " & ", "&\n").Draw(w.t))
		}
		b.WriteString(sep)
		if gen.IntRange(0, 7).Draw(w.t) == 0 {
			b.WriteString(shComment.Draw(w.t) + w.newline())
		}
		stmt := w.stmt(depth)
		if strings.HasSuffix(sep, ";") && strings.HasPrefix(stmt, "&") {
			b.WriteString(" ") // not ";&"
		}
		b.WriteString(stmt)
		sep = ""
		if i < n-1 && gen.IntRange(0, 9).Draw(w.t) == 0 {
			sep = " " + shComment.Draw(w.t) + w.newline()
		}
	}
	if sub && gen.IntRange(0, 9).Draw(w.t) == 0 {
		b.WriteString(" &")
	}
	if sub && len(w.pending) > 0 {
		b.WriteString(w.newline())
	}
	return b.String()
}

// Shell generates shell scripts (POSIX sh and Bash): lists of
// statements separated by ";", "&" and newlines; pipelines (| and |&)
// joined by && and ||, negated with !, run in the background with &;
// simple commands with assignments (scalars, arrays, indexed, +=), words
// and redirections (every operator, file descriptor numbers and {fd},
// here-strings, here-documents plain, quoted and <<- with bodies that
// expand); words of unquoted text with escapes, single-, double-, $'...'
// and $"..." quoted strings, parameter expansions (special parameters,
// ${#x}, every ${x OP word} operator, substrings, array elements and
// indirection), command substitutions $(...) and backquotes (with the
// inner command's backslashes and backquotes escaped), arithmetic
// expansions and process substitutions; compound commands: { }, ( ),
// if/elif/else, while, until, for and select (with and without "in"),
// C-style for, case with patterns and every terminator, [[ ]] tests,
// (( )) arithmetic, function definitions in all three forms, coproc and
// time; comments on their own lines and after statements. MistakesPer
// per mille of scripts go through Corrupt.
func Shell(cfg ShellConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &shWriter{t: t, cfg: cfg}
		var b strings.Builder
		if gen.IntRange(0, 5).Draw(t) == 0 {
			b.WriteString(gen.Tokens("#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env bash").Draw(t) + "\n")
		}
		b.WriteString(w.list(cfg.MaxDepth, false))
		b.WriteString(w.newline())
		return Corrupt(t, b.String(), cfg.MistakesPer)
	})
}
