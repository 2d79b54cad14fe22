// Package grimoire is the target of gfz's end-to-end test of the args
// engine's generalisation (-grimoire): a small expression language with no
// format generator. Its evaluator records the calls it completes in a
// fixed array of three levels, so a complete call inside three others
// panics.
package grimoire

import (
	"errors"
	"strconv"
)

type parser struct {
	s     string
	pos   int
	depth int
	frame [3]string
}

var errSyntax = errors.New("syntax error")

// Eval evaluates an expression of integers, + - * /, parentheses and the
// functions max, min (two arguments) and abs (one).
func Eval(s string) (int, error) {
	p := &parser{s: s}
	v, err := p.expr()
	if err != nil {
		return 0, err
	}
	p.space()
	if p.pos != len(p.s) {
		return 0, errSyntax
	}
	return v, nil
}

func (p *parser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n') {
		p.pos++
	}
}

func (p *parser) peek() byte {
	p.space()
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *parser) expr() (int, error) {
	v, err := p.term()
	for err == nil {
		op := p.peek()
		if op != '+' && op != '-' {
			break
		}
		p.pos++
		var w int
		if w, err = p.term(); op == '+' {
			v += w
		} else {
			v -= w
		}
	}
	return v, err
}

func (p *parser) term() (int, error) {
	v, err := p.factor()
	for err == nil {
		op := p.peek()
		if op != '*' && op != '/' {
			break
		}
		p.pos++
		var w int
		if w, err = p.factor(); err == nil {
			if op == '*' {
				v *= w
			} else if w != 0 {
				v /= w
			}
		}
	}
	return v, err
}

func (p *parser) factor() (int, error) {
	switch c := p.peek(); {
	case c == '(':
		p.pos++
		v, err := p.expr()
		if err == nil && p.peek() != ')' {
			err = errSyntax
		}
		p.pos++
		return v, err
	case c >= '0' && c <= '9':
		start := p.pos
		for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
			p.pos++
		}
		return strconv.Atoi(p.s[start:p.pos])
	case c >= 'a' && c <= 'z':
		start := p.pos
		for p.pos < len(p.s) && p.s[p.pos] >= 'a' && p.s[p.pos] <= 'z' {
			p.pos++
		}
		return p.call(p.s[start:p.pos])
	}
	return 0, errSyntax
}

func (p *parser) call(name string) (int, error) {
	n := 0
	switch name {
	case "abs":
		n = 1
	case "max", "min":
		n = 2
	default:
		return 0, errors.New("unknown function " + name)
	}
	if p.peek() != '(' {
		return 0, errSyntax
	}
	p.pos++
	p.depth++
	defer func() { p.depth-- }()
	var args []int
	for i := 0; i < n; i++ {
		if i > 0 {
			if p.peek() != ',' {
				return 0, errSyntax
			}
			p.pos++
		}
		v, err := p.expr()
		if err != nil {
			return 0, err
		}
		args = append(args, v)
	}
	if p.peek() != ')' {
		return 0, errSyntax
	}
	p.pos++
	p.frame[p.depth-1] = name // the bug: a call four deep is past the array
	switch name {
	case "abs":
		if args[0] < 0 {
			return -args[0], nil
		}
		return args[0], nil
	case "max":
		return max(args[0], args[1]), nil
	}
	return min(args[0], args[1]), nil
}
