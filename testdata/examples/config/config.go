// Package config is a gfz example: a tiny XML-like configuration reader with
// a parser, a schema check, and a semantic bug that only schema-valid
// documents reach.
//
// Documents look like
//
//	<config>
//	  <server name="api" port="8080">
//	    <route path="/v1" weight="3"/>
//	  </server>
//	</config>
//
// Parse checks the syntax, Load checks the schema, and Shares computes each
// route's share of its server's traffic. The planted bug: Shares divides by
// the server's total weight, which is zero when every route of a server has
// weight 0, a value the schema accepts.
package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Element is a parsed element.
type Element struct {
	Name     string
	Attrs    []Attr
	Children []*Element
}

// Attr is one attribute.
type Attr struct{ Name, Value string }

// Attr returns the value of the named attribute and whether it is present.
func (e *Element) Attr(name string) (string, bool) {
	for _, a := range e.Attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Parse parses one element (with nested elements) from src.
func Parse(src string) (*Element, error) {
	p := &parser{src: src}
	p.space()
	e, err := p.element()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(p.src) {
		return nil, fmt.Errorf("offset %d: trailing data", p.pos)
	}
	return e, nil
}

type parser struct {
	src string
	pos int
}

func (p *parser) space() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *parser) name() (string, error) {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || p.pos > start && c >= '0' && c <= '9' {
			p.pos++
			continue
		}
		break
	}
	if p.pos == start {
		return "", p.errorf("expected a name")
	}
	return p.src[start:p.pos], nil
}

func (p *parser) expect(c byte) error {
	if p.pos >= len(p.src) || p.src[p.pos] != c {
		return p.errorf("expected %q", c)
	}
	p.pos++
	return nil
}

func (p *parser) element() (*Element, error) {
	if err := p.expect('<'); err != nil {
		return nil, err
	}
	name, err := p.name()
	if err != nil {
		return nil, err
	}
	e := &Element{Name: name}
	for {
		p.space()
		if p.pos >= len(p.src) {
			return nil, p.errorf("unterminated tag <%s", name)
		}
		switch p.src[p.pos] {
		case '/':
			p.pos++
			return e, p.expect('>')
		case '>':
			p.pos++
			return p.content(e)
		}
		an, err := p.name()
		if err != nil {
			return nil, err
		}
		if _, dup := e.Attr(an); dup {
			return nil, p.errorf("duplicate attribute %s", an)
		}
		if err := p.expect('='); err != nil {
			return nil, err
		}
		if err := p.expect('"'); err != nil {
			return nil, err
		}
		end := strings.IndexByte(p.src[p.pos:], '"')
		if end < 0 {
			return nil, p.errorf("unterminated attribute value")
		}
		e.Attrs = append(e.Attrs, Attr{an, p.src[p.pos : p.pos+end]})
		p.pos += end + 1
	}
}

func (p *parser) content(e *Element) (*Element, error) {
	for {
		p.space()
		if strings.HasPrefix(p.src[p.pos:], "</") {
			p.pos += 2
			name, err := p.name()
			if err != nil {
				return nil, err
			}
			if name != e.Name {
				return nil, p.errorf("</%s> closes <%s>", name, e.Name)
			}
			return e, p.expect('>')
		}
		child, err := p.element()
		if err != nil {
			return nil, err
		}
		e.Children = append(e.Children, child)
	}
}

// Config is a schema-checked configuration.
type Config struct{ Servers []Server }

// Server is one <server> element.
type Server struct {
	Name   string
	Port   int
	Routes []Route
}

// Route is one <route> element.
type Route struct {
	Path   string
	Weight int
}

// ErrSchema is wrapped by every schema violation Load reports.
var ErrSchema = errors.New("schema violation")

// Load parses src and checks it against the schema: a <config> root holding
// one or more <server name=".." port="1..65535"> elements with distinct
// names, each holding one or more <route path="/.." weight="0..100">
// elements.
func Load(src string) (*Config, error) {
	root, err := Parse(src)
	if err != nil {
		return nil, err
	}
	if root.Name != "config" || len(root.Attrs) != 0 || len(root.Children) == 0 {
		return nil, fmt.Errorf("%w: root must be a non-empty <config>", ErrSchema)
	}
	cfg := &Config{}
	seen := map[string]bool{}
	for _, se := range root.Children {
		if se.Name != "server" || len(se.Children) == 0 {
			return nil, fmt.Errorf("%w: <config> holds non-empty <server> elements only", ErrSchema)
		}
		name, ok := se.Attr("name")
		if !ok || name == "" || seen[name] {
			return nil, fmt.Errorf("%w: server needs a unique name", ErrSchema)
		}
		seen[name] = true
		port, err := intAttr(se, "port", 1, 65535)
		if err != nil {
			return nil, err
		}
		s := Server{Name: name, Port: port}
		for _, re := range se.Children {
			if re.Name != "route" || len(re.Children) != 0 {
				return nil, fmt.Errorf("%w: <server> holds empty <route> elements only", ErrSchema)
			}
			path, ok := re.Attr("path")
			if !ok || !strings.HasPrefix(path, "/") {
				return nil, fmt.Errorf("%w: route path must start with /", ErrSchema)
			}
			w, err := intAttr(re, "weight", 0, 100)
			if err != nil {
				return nil, err
			}
			s.Routes = append(s.Routes, Route{Path: path, Weight: w})
		}
		cfg.Servers = append(cfg.Servers, s)
	}
	return cfg, nil
}

func intAttr(e *Element, name string, lo, hi int) (int, error) {
	v, ok := e.Attr(name)
	if !ok {
		return 0, fmt.Errorf("%w: <%s> needs %s", ErrSchema, e.Name, name)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%w: <%s %s=%q> must be in %d..%d", ErrSchema, e.Name, name, v, lo, hi)
	}
	return n, nil
}

// Shares returns, per server and route, the route's percentage of its
// server's total weight.
func Shares(cfg *Config) map[string][]int {
	out := make(map[string][]int, len(cfg.Servers))
	for _, s := range cfg.Servers {
		total := 0
		for _, r := range s.Routes {
			total += r.Weight
		}
		shares := make([]int, len(s.Routes))
		for i, r := range s.Routes {
			shares[i] = r.Weight * 100 / total // BUG: total may be 0
		}
		out[s.Name] = shares
	}
	return out
}
