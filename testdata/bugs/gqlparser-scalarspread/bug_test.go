package gqlparserscalarspread

import (
	"sort"
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/vektah/gqlparser/ast"
)

// FuzzNative parses and validates a query against the schema (the project
// has no fuzz target at this version), seeded with queries like those of
// the project's validator tests.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"{ hero { name } }",
		"query HeroNameAndFriends($episode: Episode = JEDI) {\n  hero(episode: $episode) {\n    name\n    friends { name }\n  }\n}\n",
		"{ human(id: \"1000\") { name height(unit: FOOT) } }",
		"query { search(text: \"an\") { __typename ... on Human { name } ... on Droid { primaryFunction } ... on Starship { length } } }",
		"query Hero($id: ID!, $withFriends: Boolean!) {\n  character(id: $id) {\n    ...CharacterFields\n    friends @include(if: $withFriends) { name }\n  }\n}\nfragment CharacterFields on Character { id name appearsIn }\n",
		"mutation CreateReview($ep: Episode!, $review: ReviewInput!) {\n  createReview(episode: $ep, review: $review) { stars commentary }\n}\n",
		"subscription { reviewAdded(episode: NEWHOPE) { stars episode } }",
		"{ hero { friendsConnection(first: 2) { totalCount edges { cursor node { name } } pageInfo { hasNextPage } } } }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, query string) {
		_, _ = Validate(query)
	})
}

// GraphQLConfig describes the schema for the query generator.
func GraphQLConfig(s *ast.Schema) gens.GraphQLConfig {
	var cfg gens.GraphQLConfig
	fields := func(l ast.FieldList) []gens.GraphQLField {
		var out []gens.GraphQLField
		for _, f := range l {
			if len(f.Name) > 1 && f.Name[:2] == "__" {
				continue // the introspection fields
			}
			g := gens.GraphQLField{Name: f.Name, Type: f.Type.String()}
			for _, a := range f.Arguments {
				g.Args = append(g.Args, gens.GraphQLField{Name: a.Name, Type: a.Type.String()})
			}
			out = append(out, g)
		}
		return out
	}
	var names []string
	for name := range s.Types {
		if len(name) > 1 && name[:2] == "__" {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		d := s.Types[name]
		typ := gens.GraphQLType{Name: d.Name, Kind: string(d.Kind), Fields: fields(d.Fields)}
		if d.IsAbstractType() {
			for _, p := range s.GetPossibleTypes(d) {
				typ.PossibleTypes = append(typ.PossibleTypes, p.Name)
			}
		}
		for _, v := range d.EnumValues {
			typ.Values = append(typ.Values, v.Name)
		}
		cfg.Types = append(cfg.Types, typ)
	}
	for _, root := range []struct {
		def  *ast.Definition
		name *string
	}{{s.Query, &cfg.Query}, {s.Mutation, &cfg.Mutation}, {s.Subscription, &cfg.Subscription}} {
		if root.def != nil {
			*root.name = root.def.Name
		}
	}
	var dirs []string
	for name := range s.Directives {
		dirs = append(dirs, name)
	}
	sort.Strings(dirs)
	for _, name := range dirs {
		d := s.Directives[name]
		if name == "skip" || name == "include" {
			continue
		}
		executable := false
		for _, l := range d.Locations {
			executable = executable || l == ast.LocationField
		}
		if !executable {
			continue
		}
		g := gens.GraphQLField{Name: name}
		for _, a := range d.Arguments {
			g.Args = append(g.Args, gens.GraphQLField{Name: a.Name, Type: a.Type.String()})
		}
		cfg.Directives = append(cfg.Directives, g)
	}
	return cfg
}

// FuzzGfz is the gfz target: queries from the grammar generator over the
// schema, a fifth of them with near-miss edits; a query the validator
// rejects is an invalid input. No seeds: under plain go test it runs
// nothing.
func FuzzGfz(f *testing.F) {
	cfg := GraphQLConfig(Schema())
	cfg.MistakesPer = 200
	query := gens.GraphQLQuery(cfg)
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, errs := Validate(query.Draw(t)); errs != nil {
			t.Skip(errs)
		}
	})
}

// reproducer is the query of the fix's test (validator/spec/
// FragmentsOnCompositeTypes.spec.yml): a fragment on a scalar that
// spreads itself, so that the spread stands in a selection set of type
// Float.
const reproducer = "fragment c on Float\n{...c}"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Validate(reproducer) }, "unexpected type", IsBug)
	// The same panic for an inline fragment in the selection of a String
	// field, the shape a query against this schema takes.
	bugkit.ReproducerPanics(t, func() { _, _ = Validate("{ hero { name { ... on Droid { id } } } }") }, "unexpected type", IsBug)
}

// TestOracleRejectsOtherPanics checks that other panics of this version
// are not this bug: the lexer's index out of range on a block string
// ending in a carriage return (readBlockString, found by the same fuzzing
// session and fixed by https://github.com/vektah/gqlparser/pull/80; its
// test's input), and the KnownArgumentNames rule's nil pointer
// dereference for arguments of __typename in the selection of an unknown
// field (fixed by 6d328aade1d9 in pull request 81; its test's query).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Validate("\"\"\"\r") })
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Validate("{r{__typename(s:0)}}") })
	bugkit.RejectsPanic(t, IsBug, nil)
}
