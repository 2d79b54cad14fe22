// Package formats holds the tests that check gfz's format generators
// (generators/gotoml, goyaml, gomd, gohtml, ...) against real parsers,
// which the library module cannot require: validity of the valid
// generators, the share of near misses the parsers reject, feature
// coverage, shrinking, and (with GFZ_FORMATS_COVER set) the statement
// coverage a fixed number of drawn documents reaches in each parser.
package formats
