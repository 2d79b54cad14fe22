// Package gqlparserscalarspread pins github.com/vektah/gqlparser at
// d0fbd67c7fe9 (2018-08-23), where validating a query panics ("unexpected
// type") when a fragment, inline or spread, stands in the selection set
// of a field whose type is a scalar or an enum (as in
// "{ hero { name { ... on Droid { id } } } }"): the PossibleFragmentSpreads
// rule expects the enclosing type to be an object, an interface or a
// union and panics on any other kind. Found by fuzzing and fixed by
// https://github.com/vektah/gqlparser/pull/81 (42d23d4c132a, "Fix panic
// when using fragment spread on scalars"; first release v1.0.0).
//
// A validator bug: the query must parse, and the walker must reach a
// fragment below a leaf field (a selection set there is itself invalid,
// which the ScalarLeafs rule reports, but every rule runs).
package gqlparserscalarspread

import (
	"sync"

	"example.com/bugkit"
	"github.com/vektah/gqlparser"
	"github.com/vektah/gqlparser/ast"
	"github.com/vektah/gqlparser/gqlerror"
)

// Issue is the upstream report.
const Issue = "https://github.com/vektah/gqlparser/pull/81"

// Site is the panic("unexpected type") of the validate closure of the
// PossibleFragmentSpreads rule (the rules package's init.12), called by
// its OnInlineFragment or OnFragmentSpread observer.
var Site = bugkit.Site{Func: "github.com/vektah/gqlparser/validator/rules.init.12.func1.1",
	File: "possible_fragment_spreads.go", Lines: []int{23}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// SchemaSDL is the service's schema: a Star Wars schema like the one of
// the project's validator tests (validator/testdata/swapi.graphql), with
// interfaces, a union, enums, input objects and a directive.
const SchemaSDL = `schema {
    query: Query
    mutation: Mutation
    subscription: Subscription
}

type Query {
    hero(episode: Episode): Character
    reviews(episode: Episode!): [Review]
    search(text: String): [SearchResult]
    character(id: ID!): Character
    droid(id: ID!): Droid
    human(id: ID!): Human
    starship(id: ID!): Starship
}

type Mutation {
    createReview(episode: Episode, review: ReviewInput!): Review
}

type Subscription {
    reviewAdded(episode: Episode): Review
}

enum Episode { NEWHOPE EMPIRE JEDI }

enum LengthUnit { METER FOOT }

interface Character {
    id: ID!
    name: String!
    friends: [Character]
    friendsConnection(first: Int, after: ID): FriendsConnection!
    appearsIn: [Episode]!
}

type Human implements Character {
    id: ID!
    name: String!
    homePlanet: String
    height(unit: LengthUnit = METER): Float
    mass: Float
    friends: [Character]
    friendsConnection(first: Int, after: ID): FriendsConnection!
    appearsIn: [Episode]!
    starships: [Starship]
}

type Droid implements Character {
    id: ID!
    name: String!
    friends: [Character]
    friendsConnection(first: Int, after: ID): FriendsConnection!
    appearsIn: [Episode]!
    primaryFunction: String
}

type FriendsConnection {
    totalCount: Int
    edges: [FriendsEdge]
    friends: [Character]
    pageInfo: PageInfo!
}

type FriendsEdge {
    cursor: ID!
    node: Character
}

type PageInfo {
    startCursor: ID
    endCursor: ID
    hasNextPage: Boolean!
}

type Review {
    episode: Episode
    stars: Int!
    commentary: String
}

input ReviewInput {
    stars: Int!
    commentary: String
    favorite_color: ColorInput
}

input ColorInput {
    red: Int!
    green: Int!
    blue: Int!
}

type Starship {
    id: ID!
    name: String!
    length(unit: LengthUnit = METER): Float
    coordinates: [[Float!]!]
}

union SearchResult = Human | Droid | Starship

directive @cached(ttl: Int) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
`

var (
	schemaOnce sync.Once
	schema     *ast.Schema
)

// Schema returns the loaded schema.
func Schema() *ast.Schema {
	schemaOnce.Do(func() {
		s, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: SchemaSDL})
		if err != nil {
			panic(err)
		}
		schema = s
	})
	return schema
}

// Validate parses a query and validates it against the schema, as a
// GraphQL server does with every request before executing it.
func Validate(query string) (*ast.QueryDocument, gqlerror.List) {
	return gqlparser.LoadQuery(Schema(), query)
}
