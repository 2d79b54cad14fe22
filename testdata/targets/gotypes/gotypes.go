// Package gotypes is a realistic gfz target: go/parser and go/types on
// generated Go programs (package gosrc), with Zest's split of validity into
// a syntax stage (go/scanner and go/parser) and a semantic stage (go/types).
//
// An input is INVALID when it does not parse or does not type-check; a
// panic anywhere in go/parser, go/types, go/format or go/printer is a
// FAILURE, and so is a violation of the round-trip property checked on
// valid programs: formatting a program with go/format and checking it again
// must succeed and give every package-level object the same type.
package gotypes

import (
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// Stage is how far a program got.
type Stage int

// Stages of Check.
const (
	SyntaxError Stage = iota // go/parser rejected it
	TypeError                // go/types rejected it
	Valid                    // type-checked
)

func (s Stage) String() string {
	return [...]string{"syntax error", "type error", "valid"}[s]
}

// Check parses and type-checks src as one file of package p and returns
// the stage it reached with the error that stopped it, and on success a
// summary of the package's objects ("name: type" lines, sorted).
func Check(src string) (Stage, string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "gen.go", src, parser.AllErrors|parser.SkipObjectResolution)
	if err != nil {
		return SyntaxError, "", fmt.Errorf("parse: %w", err)
	}
	conf := types.Config{Error: func(error) {}} // collect all errors; the first is returned
	pkg, err := conf.Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		return TypeError, "", fmt.Errorf("type-check: %w", err)
	}
	var lines []string
	for _, name := range pkg.Scope().Names() {
		obj := pkg.Scope().Lookup(name)
		lines = append(lines, name+": "+obj.Type().String())
		if tn, ok := obj.(*types.TypeName); ok {
			if named, ok := tn.Type().(*types.Named); ok {
				for i := 0; i < named.NumMethods(); i++ {
					m := named.Method(i)
					lines = append(lines, name+"."+m.Name()+": "+m.Type().String())
				}
			}
		}
	}
	slices.Sort(lines)
	return Valid, strings.Join(lines, "\n"), nil
}

// RoundTrip checks the property on a valid program: go/format's output
// type-checks with the same objects. It returns nil when it holds.
func RoundTrip(src, summary string) error {
	out, err := format.Source([]byte(src))
	if err != nil {
		return fmt.Errorf("format.Source of a valid program: %w", err)
	}
	stage, again, err := Check(string(out))
	if stage != Valid {
		return fmt.Errorf("formatted program no longer type-checks (%v): %w", stage, err)
	}
	if again != summary {
		return errors.New("formatted program has different objects:\n" + again + "\nwant:\n" + summary)
	}
	return nil
}
