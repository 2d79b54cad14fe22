// Package gosrc generates syntactically valid Go source files for fuzzing
// Go tools (parsers, type checkers, formatters, compilers).
//
// File(cfg) returns a generator of one Go file: a package clause followed by
// type declarations (structs), constants, package variables and functions
// (plain functions and methods) whose bodies hold declarations,
// assignments, if/else, for loops (three-clause and range), switch
// statements, calls, appends and returns, over expressions of int, float64,
// string, bool, []int, []string and the generated struct types.
//
// Every output parses with go/parser (the generator writes the syntax
// itself and parenthesizes every compound operand). The generator also
// tracks the declared names and their types in scope, and builds each
// expression for a wanted type from variables, fields, calls and literals
// of that type, avoiding the constant-expression pitfalls the type checker
// rejects (division by a constant zero, overflowing constant products,
// negative constant indices, unused local variables). So every file
// type-checks with go/types unless Config.Mistakes asks for ill-typed
// references (the realistic targets use a few percent, so that a share of
// the inputs fails at the semantic stage).
//
// All choices are structure draws on the parameter source except literal
// values (value draws), so byte-level mutations reshape the program.
package gosrc

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// Config holds the size and depth knobs of File. Zero fields take the
// defaults of DefaultConfig.
type Config struct {
	MaxDecls     int // top-level declarations (1..MaxDecls); default 8
	MaxStmts     int // statements per block (0..MaxStmts); default 5
	MaxBlock     int // nesting of blocks in a function body; default 3
	MaxExpr      int // nesting of expressions; default 3
	MaxParams    int // parameters per function; default 3
	MaxFields    int // fields per struct type; default 4
	Package      string
	Mistakes     int  // per-mille chance that a variable reference ignores its type (default 0: type-correct)
	NoDictionary bool // do not use gen.Dictionary() tokens in string literals
}

// DefaultConfig returns the default knobs.
func DefaultConfig() Config {
	return Config{MaxDecls: 8, MaxStmts: 5, MaxBlock: 3, MaxExpr: 3, MaxParams: 3, MaxFields: 4, Package: "p"}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&c.MaxDecls, d.MaxDecls)
	set(&c.MaxStmts, d.MaxStmts)
	set(&c.MaxBlock, d.MaxBlock)
	set(&c.MaxExpr, d.MaxExpr)
	set(&c.MaxParams, d.MaxParams)
	set(&c.MaxFields, d.MaxFields)
	if c.Package == "" {
		c.Package = d.Package
	}
	return c
}

// File returns a generator of Go source files with the given knobs. It
// panics if cfg.Package is not a valid package name.
func File(cfg Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	if !token.IsIdentifier(cfg.Package) || cfg.Package == "_" {
		panic(fmt.Sprintf("gosrc: Config.Package: %q is not a valid package name", cfg.Package))
	}
	return gen.Custom(func(t *gfz.T) string {
		g := newGenerator(t, cfg)
		g.file()
		return g.b.String()
	}).Named("gosrc.File")
}

// type kinds
const (
	kInt = iota
	kFloat
	kString
	kBool
	kSlice
	kStruct
)

type ty int

const (
	tInt ty = iota
	tFloat
	tString
	tBool
	tIntSlice
	tStringSlice
	nBasic
)

type field struct {
	name string
	typ  ty
}

type typeInfo struct {
	kind   int
	name   string
	elem   ty
	fields []field
}

type variable struct {
	name  string
	typ   ty
	konst bool // a constant
}

type function struct {
	name   string
	params []ty
	result ty // -1: none
	recv   ty // -1: plain function
}

type generator struct {
	t     *gfz.T
	s     *param.Source
	cfg   Config
	b     strings.Builder
	types []typeInfo
	vars  []variable // scope stack
	funcs []function
	ids   int
	loops int // enclosing loops
	words []string
}

func newGenerator(t *gfz.T, cfg Config) *generator {
	g := &generator{t: t, s: t.Source(), cfg: cfg}
	g.types = []typeInfo{
		{kind: kInt, name: "int"}, {kind: kFloat, name: "float64"}, {kind: kString, name: "string"},
		{kind: kBool, name: "bool"}, {kind: kSlice, name: "[]int", elem: tInt}, {kind: kSlice, name: "[]string", elem: tString},
	}
	if !cfg.NoDictionary {
		for _, w := range gen.Dictionary() {
			if len(w) <= 32 {
				g.words = append(g.words, w)
			}
		}
	}
	return g
}

// choice is a structure draw in [0, n).
func (g *generator) choice(n int) int { return int(g.s.Uintn(uint64(n), param.Structure)) }

func (g *generator) count(lo, hi int) int {
	return int(g.s.Range(int64(lo), int64(hi), param.Structure))
}

func (g *generator) id(prefix string) string {
	g.ids++
	return prefix + strconv.Itoa(g.ids)
}

func (g *generator) line(depth int, s string) {
	for range depth {
		g.b.WriteByte('\t')
	}
	g.b.WriteString(s)
	g.b.WriteByte('\n')
}

func (g *generator) anyType() ty { return ty(g.choice(len(g.types))) }

func (g *generator) file() {
	g.line(0, "package "+g.cfg.Package)
	n := g.count(1, g.cfg.MaxDecls)
	for range n {
		g.b.WriteByte('\n')
		switch g.choice(8) {
		case 0:
			g.structDecl()
		case 1:
			g.constDecl()
		case 2, 3:
			g.varDecl(0, true)
		case 4:
			if g.hasStructs() {
				g.methodDecl()
			} else {
				g.funcDecl()
			}
		default:
			g.funcDecl()
		}
	}
}

func (g *generator) hasStructs() bool { return len(g.types) > int(nBasic) }

func (g *generator) structDecl() {
	name := g.id("S")
	n := g.count(1, g.cfg.MaxFields)
	var fs []field
	g.line(0, "type "+name+" struct {")
	for i := range n {
		f := field{name: "f" + strconv.Itoa(i), typ: g.anyType()}
		fs = append(fs, f)
		g.line(1, f.name+" "+g.types[f.typ].name)
	}
	g.line(0, "}")
	g.types = append(g.types, typeInfo{kind: kStruct, name: name, fields: fs})
}

func (g *generator) constDecl() {
	name := g.id("c")
	e := g.constInt(2)
	g.line(0, "const "+name+" = "+e)
	g.vars = append(g.vars, variable{name: name, typ: tInt, konst: true})
}
