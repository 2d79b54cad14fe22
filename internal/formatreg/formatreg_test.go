package formatreg

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// register adds fake formats for a test and removes them after it.
func register(t *testing.T, fs ...Format) {
	t.Helper()
	for _, f := range fs {
		Register(f)
	}
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, f := range fs {
			delete(formats, f.Name)
		}
	})
}

// prefixed is a fake format whose documents start with p.
func prefixed(name, p string) Format {
	return Format{Name: name, Title: strings.ToUpper(name), Sniff: func(d []byte) bool { return bytes.HasPrefix(d, []byte(p)) },
		Draw: func(src *param.Source) []byte { return append([]byte(p), src.Bytes(2)...) }}
}

func docs(ss ...string) [][]byte {
	var out [][]byte
	for _, s := range ss {
		out = append(out, []byte(s))
	}
	return out
}

func TestRegisterChecks(t *testing.T) {
	register(t, prefixed("toml", "t"))
	for _, f := range []Format{
		prefixed("ini", "i"),  // unknown name
		prefixed("toml", "x"), // twice
		{Name: "csv", Title: "CSV", Sniff: func([]byte) bool { return true }}, // no generator
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", f.Name)
				}
			}()
			Register(f)
		}()
	}
	if f, ok := Lookup("toml"); !ok || f.Title != "TOML" {
		t.Errorf("Lookup(toml) = %v, %v", f.Name, ok)
	}
	if _, ok := Lookup("csv"); ok {
		t.Error("Lookup(csv) found a format that failed to register")
	}
}

// TestChoose: the format most documents look like, if two thirds do;
// ties to the earlier of Names; blank documents not counted.
func TestChoose(t *testing.T) {
	register(t, prefixed("markdown", "m"), prefixed("toml", "t"), prefixed("yaml", "y"), prefixed("json", "{"))
	if got := Registered(); len(got) != 4 || got[0].Name != "json" || got[1].Name != "toml" || got[3].Name != "markdown" {
		t.Fatalf("Registered not in the order of Names: %v", got)
	}
	for _, c := range []struct {
		docs          []string
		want          string
		matched, seen int
	}{
		{[]string{"t1", "t2", "y"}, "toml", 2, 3},
		{[]string{"t1", "t2", "y", "m"}, "", 2, 4}, // 2 of 4 < 2/3
		{[]string{"t1", "t2", "y", "", "  \n"}, "toml", 2, 3},
		{[]string{"tm"}, "toml", 1, 1},
		{[]string{"x", "z"}, "", 0, 2},
		{nil, "", 0, 0},
	} {
		got := Choose(docs(c.docs...))
		if got.Format.Name != c.want || got.Matched != c.matched || got.Total != c.seen {
			t.Errorf("Choose(%q) = %q (%d of %d), want %q (%d of %d)", c.docs, got.Format.Name, got.Matched, got.Total, c.want, c.matched, c.seen)
		}
	}
	// A tie goes to the earlier format of Names: toml before markdown.
	register(t, Format{Name: "csv", Title: "CSV", Sniff: func(d []byte) bool { return bytes.HasPrefix(d, []byte("t")) }, Draw: func(*param.Source) []byte { return nil }})
	if got := Choose(docs("t1", "t2")); got.Format.Name != "toml" {
		t.Errorf("tie between toml and csv: chose %q", got.Format.Name)
	}
	if got := Choose(docs("t1", "t2", "y", "m", "x")); got.Format.Name != "" || got.Best != "TOML" || got.Matched != 2 {
		t.Errorf("no format: %+v", got)
	}
}

// TestSample: of many documents, MaxSniffed spread evenly are counted.
func TestSample(t *testing.T) {
	var ds [][]byte
	for i := range 3 * MaxSniffed {
		ds = append(ds, []byte{byte('a' + i%3)})
	}
	s := sample(ds)
	if len(s) != MaxSniffed {
		t.Fatalf("%d sampled", len(s))
	}
	n := 0
	for _, d := range s {
		if d[0] == 'a' {
			n++
		}
	}
	if n != MaxSniffed {
		t.Errorf("sampled %d of the every-third documents, want %d (evenly spread)", n, MaxSniffed)
	}
}

// TestGenerate: a generator's panic is no document; a sniffer's panic is
// a no.
func TestGenerate(t *testing.T) {
	bad := Format{Name: "url", Title: "URL", Sniff: func([]byte) bool { panic("sniff") },
		Draw: func(src *param.Source) []byte { return src.Bytes(param.DefaultMaxSize + 1) }}
	if doc, ok := Generate(bad, param.New(nil, 1)); ok || doc != nil {
		t.Errorf("Generate of a document past the cap: %q, %v", doc, ok)
	}
	if m, n := Count(bad, docs("a", "b")); m != 0 || n != 2 {
		t.Errorf("Count with a panicking sniffer: %d of %d", m, n)
	}
	f := prefixed("toml", "t")
	a, ok1 := Generate(f, param.New(nil, 7))
	b, ok2 := Generate(f, param.New(nil, 7))
	if !ok1 || !ok2 || !bytes.Equal(a, b) || len(a) != 3 {
		t.Errorf("Generate: %q %v, %q %v", a, ok1, b, ok2)
	}
}
