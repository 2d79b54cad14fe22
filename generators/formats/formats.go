// Package formats registers gfz's format generators for native fuzz
// targets. It has no API: importing it (blank) is what makes a fuzz
// binary's native targets able to recognise the format of their seeds and
// mix near misses of that format into their runs (docs/ENGINE.md, "Native
// targets", "Children from a format generator"; the fuzz binary's -format
// flag, docs/CLI.md). gfz-build adds the import to the rewritten copy of
// every native target's test file, so nobody needs to write it.
//
// Each format is a sniffer and a near-miss generator with its package's
// default configuration (gen.Dictionary() tokens, the code's literals,
// are drawn by the generators themselves):
//
//	json      gojson.Object through nearmiss.Of with nearmiss.JSON
//	go        gosrc.File through nearmiss.Of with nearmiss.GoSource
//	xml       goxml.Document through nearmiss.Of with nearmiss.XML
//	html      gohtml.Near
//	toml      gotoml.Near
//	yaml      goyaml.Near
//	csv       gocsv.Near
//	url       gourl.Near
//	markdown  gomd.Near
//
// The sniffers are cheap and conservative (sniff.go): JSON, Go, XML, CSV
// and URLs are checked with the standard library's parsers, TOML, YAML,
// HTML and Markdown with line-based heuristics that require the format's
// marks and tolerate few lines without them.
package formats

import (
	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gocsv"
	"github.com/gfz-dev/gfz/generators/gohtml"
	"github.com/gfz-dev/gfz/generators/gojson"
	"github.com/gfz-dev/gfz/generators/gomd"
	"github.com/gfz-dev/gfz/generators/gosrc"
	"github.com/gfz-dev/gfz/generators/gotoml"
	"github.com/gfz-dev/gfz/generators/gourl"
	"github.com/gfz-dev/gfz/generators/goxml"
	"github.com/gfz-dev/gfz/generators/goyaml"
	"github.com/gfz-dev/gfz/generators/nearmiss"
	"github.com/gfz-dev/gfz/internal/formatreg"
	"github.com/gfz-dev/gfz/param"
)

// format is one format as registered: its name and title, sniffer and
// near-miss generator.
type format struct {
	name, title string
	sniff       func([]byte) bool
	gen         gen.Generator[string]
}

// all lists the formats, in formatreg.Names's order.
func all() []format {
	return []format{
		{"json", "JSON", sniffJSON, nearmiss.Of(gojson.Object(gojson.Config{}), nearmiss.JSON, nearmiss.Config{})},
		{"go", "Go source", sniffGo, nearmiss.Of(gosrc.File(gosrc.Config{}), nearmiss.GoSource, nearmiss.Config{})},
		{"xml", "XML", sniffXML, nearmiss.Of(goxml.Document(goxml.Config{}), nearmiss.XML, nearmiss.Config{})},
		{"html", "HTML", sniffHTML, gohtml.Near(gohtml.Config{})},
		{"toml", "TOML", sniffTOML, gotoml.Near(gotoml.Config{})},
		{"yaml", "YAML", sniffYAML, goyaml.Near(goyaml.Config{})},
		{"csv", "CSV", sniffCSV, gocsv.Near(gocsv.Config{})},
		{"url", "URL", sniffURL, gourl.Near(gourl.Config{})},
		{"markdown", "Markdown", sniffMarkdown, gomd.Near(gomd.Config{})},
	}
}

func init() {
	for _, f := range all() {
		g := f.gen
		formatreg.Register(formatreg.Format{
			Name: f.name, Title: f.title, Sniff: f.sniff,
			Draw: func(src *param.Source) []byte { return []byte(g.Draw(gfz.NewT(src))) },
		})
	}
}
