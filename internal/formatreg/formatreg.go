// Package formatreg is the registry of the format generators gfz mixes
// into the runs of native fuzz targets (docs/ENGINE.md, "Native targets:
// children from a format generator").
//
// The format generators live in generators/... and draw from a *gfz.T, so
// they import package gfz, which links the engine and the driver: neither
// those nor package gfz may import them. This package, which package gfz
// links and which imports only the standard library and param, is where
// they meet: package generators/formats registers every format here in
// its init, and gfz-build adds a blank import of generators/formats to the
// rewritten test file of every native target. The fuzz binary of a native
// target thus has the formats; one of gfz targets only links this small
// registry, empty.
//
// A format is a name (what -format takes), a sniffer that tells whether a
// seed looks like a document of the format, and a function that draws one
// document (a near miss, mostly) from a parameter source.
package formatreg

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gfz-dev/gfz/param"
)

// Names are the formats -format accepts (besides auto and none), in the
// order Choose prefers them when as many seeds look like two of them: the
// formats with a strict parser (JSON, Go source, XML) first, the
// heuristic ones after, Markdown, which most text resembles somewhat,
// last.
var Names = []string{"json", "go", "xml", "html", "toml", "yaml", "csv", "url", "markdown"}

// Known reports whether name is one of Names.
func Known(name string) bool { return slices.Contains(Names, name) }

// Format is one registered format.
type Format struct {
	// Name is its name in Names ("toml").
	Name string
	// Title is how messages name it ("TOML").
	Title string
	// Sniff reports whether doc looks like a document of the format. It
	// must be cheap (it runs once per seed at the start of a run) and
	// conservative: a false "yes" mixes documents of the wrong format
	// into the run.
	Sniff func(doc []byte) bool
	// Draw draws one document from src. It may panic (param.Exhausted
	// when the document would take more than the source's cap): Generate
	// recovers.
	Draw func(src *param.Source) []byte
}

var (
	mu      sync.Mutex
	formats = map[string]Format{}
)

// Register adds a format. It panics if the name is not one of Names, is
// registered already, or a function is missing: registration happens in
// an init function, where these are programming errors.
func Register(f Format) {
	switch {
	case !Known(f.Name):
		panic(fmt.Sprintf("formatreg: unknown format %q (want one of %s)", f.Name, strings.Join(Names, ", ")))
	case f.Sniff == nil || f.Draw == nil || f.Title == "":
		panic(fmt.Sprintf("formatreg: format %q without a title, sniffer or generator", f.Name))
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := formats[f.Name]; dup {
		panic(fmt.Sprintf("formatreg: format %q registered twice", f.Name))
	}
	formats[f.Name] = f
}

// Lookup returns the registered format called name.
func Lookup(name string) (Format, bool) {
	mu.Lock()
	defer mu.Unlock()
	f, ok := formats[name]
	return f, ok
}

// Registered returns the registered formats in the order of Names.
func Registered() []Format {
	mu.Lock()
	defer mu.Unlock()
	var out []Format
	for _, n := range Names {
		if f, ok := formats[n]; ok {
			out = append(out, f)
		}
	}
	return out
}

// Share is the smallest share of the seeds that must look like a format
// for Choose to pick it: two thirds (ShareNum/ShareDen).
const (
	ShareNum = 2
	ShareDen = 3
)

// Choice is what Choose found.
type Choice struct {
	// Format is the format chosen; its Name is "" when none is.
	Format Format
	// Matched is the number of seeds that look like Format (of the best
	// format when none is chosen: it fell short of the share); Total the
	// number of seeds counted (empty and blank seeds are not).
	Matched, Total int
	// Best is the title of the format most seeds look like, "" if no
	// seed looks like any.
	Best string
}

// Choose picks the format of the documents docs (the seeds' values of one
// argument): among the registered formats, the one the most of them look
// like (ties go to the earlier of Names), provided at least Share of them
// do. Empty and blank documents are not counted (f.Add("") is a common
// seed that says nothing of the format). With no document left, or none
// reaching the share, no format is chosen.
func Choose(docs [][]byte) Choice {
	var c Choice
	docs = sample(docs)
	for _, d := range docs {
		if len(bytes.TrimSpace(d)) > 0 {
			c.Total++
		}
	}
	if c.Total == 0 {
		return c
	}
	var best Format
	for _, f := range Registered() {
		if n, _ := Count(f, docs); n > c.Matched {
			best, c.Matched = f, n
		}
	}
	c.Best = best.Title
	if c.Matched > 0 && c.Matched*ShareDen >= c.Total*ShareNum {
		c.Format = best
	}
	return c
}

// MaxSniffed bounds the documents Choose and Count look at: of more, they
// take MaxSniffed spread evenly (the same ones every time), so that a
// large -seedcorpus costs the start of a run little.
const MaxSniffed = 1000

// sample returns docs, or MaxSniffed of them spread evenly.
func sample(docs [][]byte) [][]byte {
	if len(docs) <= MaxSniffed {
		return docs
	}
	out := make([][]byte, MaxSniffed)
	for i := range out {
		out[i] = docs[i*len(docs)/MaxSniffed]
	}
	return out
}

// Count returns how many of docs look like f, and how many are counted
// (not empty nor blank), as Choose counts them.
func Count(f Format, docs [][]byte) (matched, total int) {
	for _, d := range sample(docs) {
		if len(bytes.TrimSpace(d)) == 0 {
			continue
		}
		total++
		if sniff(f, d) {
			matched++
		}
	}
	return matched, total
}

// sniff is f.Sniff, a panic counting as no.
func sniff(f Format, doc []byte) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return f.Sniff(doc)
}

// Generate draws one document of f from src; ok is false when the
// generator panicked (the document did not fit the source's cap, or a bug
// of the generator): the caller makes another kind of child then.
func Generate(f Format, src *param.Source) (doc []byte, ok bool) {
	defer func() {
		if recover() != nil {
			doc, ok = nil, false
		}
	}()
	return f.Draw(src), true
}
