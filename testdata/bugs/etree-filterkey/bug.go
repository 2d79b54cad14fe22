// Package etreefilterkey pins github.com/beevik/etree v1.6.0, whose path
// compiler panics (index out of range [0] with length 0) on a filter that
// compares a value with no key before the '=', as "book[='WEB']":
// parseFilter finds the '=' and a quoted value closed just before the
// ']', takes the text before the '=' as the key and reads its first byte
// to tell an attribute ('@') from a function or a child element, without
// checking that the key is not empty. CompilePath, documented to return
// an error for a bad path, panics instead, so a program that compiles a
// path it is given (a query from a user or a configuration file) crashes.
// Fixed in v1.7.0 (released 2026-07-12), whose release notes list it
// among the security fixes ("Fixed a CompilePath index-out-of-range panic
// that could be caused by a missing path filter key"); the fix returns
// "path contains a filter expression with no key." for an empty key and
// for a lone '@' (which did not panic) and adds both to path_test.go's bad
// paths:
// https://github.com/beevik/etree/blob/v1.7.0/RELEASE_NOTES.md
//
// A bug of the path language's filters: a filter with a quoted value (of
// the [@attr='val'], [tag='val'] or [fn()='val'] kinds) whose key is
// missing, in any segment of a path.
package etreefilterkey

import (
	"github.com/beevik/etree"

	"example.com/bugkit"
)

// Issue is the fixed release's notes (the fix has no public issue).
const Issue = "https://github.com/beevik/etree/blob/v1.7.0/RELEASE_NOTES.md"

// Site is the read of key[0] in (*compiler).parseFilter (path.go:336),
// whatever the segment and the caller (CompilePath, MustCompilePath, the
// Find* methods that take a path string).
var Site = bugkit.Site{Func: "github.com/beevik/etree.(*compiler).parseFilter", File: "path.go", Lines: []int{336}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Catalog is the XML document the paths run on: a library catalog with a
// default namespace and two prefixed ones.
const Catalog = `<?xml version="1.0" encoding="UTF-8"?>
<catalog xmlns="urn:example:catalog" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:x="urn:example:extra" updated="2026-11-29">
  <!-- shelves are ordered by room -->
  <shelf id="s1" room="north" genre="poetry">
    <item code="P-001" lang="en" status="available">
      <dc:title>Songs of the Harbour</dc:title>
      <dc:creator>Ada Lind</dc:creator>
      <year>1911</year>
      <price currency="EUR">12.50</price>
      <x:note kind="condition">worn spine</x:note>
    </item>
    <item code="P-002" lang="fr" status="lent">
      <dc:title>Le Vent du Soir</dc:title>
      <dc:creator>Marc Ferrand</dc:creator>
      <dc:creator>Lise Ferrand</dc:creator>
      <year>1934</year>
      <price currency="EUR">9.00</price>
    </item>
  </shelf>
  <shelf id="s2" room="south" genre="science">
    <item code="S-101" lang="en" status="available">
      <dc:title>Tides and Currents</dc:title>
      <dc:creator>R. Okafor</dc:creator>
      <year>1998</year>
      <price currency="USD">40</price>
      <tags><tag>ocean</tag><tag>physics</tag></tags>
    </item>
    <item code="S-102" lang="de" status="repair">
      <dc:title>Kleine Sternkunde</dc:title>
      <year>1962</year>
      <price/>
      <x:note kind="loan">ask at desk</x:note>
    </item>
    <item code="S-103" lang="en">
      <dc:title><![CDATA[Fish & Chips: A History]]></dc:title>
      <year>2004</year>
    </item>
  </shelf>
  <desk x:staffed="yes">open 9-17</desk>
</catalog>
`

// Tags, Attrs, Values, Prefixes and NamespaceURIs are the document's
// names and values, for the generator.
var (
	Tags   = []string{"catalog", "shelf", "item", "dc:title", "dc:creator", "year", "price", "x:note", "tags", "tag", "desk", "title"}
	Attrs  = []string{"id", "room", "genre", "code", "lang", "status", "currency", "kind", "updated", "x:staffed"}
	Values = []string{"s1", "north", "poetry", "P-002", "en", "fr", "available", "EUR", "1934", "Tides and Currents",
		"Ada Lind", "ocean", "worn spine", "Fish & Chips: A History", "open 9-17", "40"}
	Prefixes      = []string{"dc", "x"}
	NamespaceURIs = []string{"urn:example:catalog", "http://purl.org/dc/elements/1.1/", "urn:example:extra"}
)

var doc = mustRead(Catalog)

func mustRead(s string) *etree.Document {
	d := etree.NewDocument()
	if err := d.ReadFromString(s); err != nil {
		panic(err)
	}
	return d
}

// Find compiles an etree path and returns the elements of the catalog it
// selects, from the document and from the catalog element (relative
// paths mean different things from each), as a program does that takes a
// query from its user or its configuration and must not crash on a bad
// one (so it compiles with CompilePath, which returns an error, and not
// with the Find* methods taking a string, which panic by design).
func Find(path string) ([]*etree.Element, error) {
	p, err := etree.CompilePath(path)
	if err != nil {
		return nil, err
	}
	found := doc.FindElementsPath(p)
	if root := doc.Root(); root != nil {
		found = append(found, root.FindElementsPath(p)...)
	}
	return found, nil
}
