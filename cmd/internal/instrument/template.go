package instrument

import (
	"bytes"
	"fmt"
	"go/token"
	"strconv"

	"github.com/dave/dst/decorator"
)

// A Template is an instrumented package printed once, with its probe IDs
// still to be masked to the map size: the map size depends on the probe
// count of the whole build, which the package does not know, so gfz-build
// caches templates (cmd/internal/build, "build cache") and fills in the IDs
// for each build. Every probe ID literal is printed with IDDigits hex
// digits, and every block index (the i of &_gfzBlocks[i]) with BlockDigits,
// whatever their values, so filling them in changes no other byte: a
// template filled in for a map size is byte for byte what Package.Render
// prints for it. Templates of single files join into the package's
// (Join), so that a package whose one file changed is printed again for
// that file only.
type Template struct {
	Path     string
	Name     string
	Std      bool
	Prefix   string // the helpers' prefix (Package.Prefix)
	Files    []TemplateFile
	Probes   []Probe
	CmpSites []CmpSite
}

// TemplateFile is one printed file of a Template.
type TemplateFile struct {
	Name string   // original file name
	Src  []byte   // the rewritten source, probe IDs zero
	IDs  []IDSlot // where the probe IDs go, in source order
}

// IDSlot is the place of one probe call in a TemplateFile's source: the
// IDDigits hex digits of its ID at Src[Offset:] and the BlockDigits hex
// digits of its block index at Src[Block:] (each after "0x"), for
// Probes[Probe].
type IDSlot struct {
	Offset int
	Block  int
	Probe  int
}

// IDDigits is the number of hex digits of every probe ID literal
// (0x0000a250): enough for the largest map (28 bits) and a full ID.
const IDDigits = 8

// BlockDigits is the number of hex digits of every block index literal
// (&_gfzBlocks[0x00002a]): up to 16,777,215 probes in a package.
const BlockDigits = 6

// Template prints the rewritten files with placeholder IDs and locates the
// ID literals. It may be called more than once.
func (p *Package) Template() (*Template, error) {
	t := &Template{Path: p.Path, Name: p.Name, Std: p.Std, Prefix: p.Prefix, Probes: p.Probes, CmpSites: p.CmpSites}
	placeholder := "0x" + fmt.Sprintf("%0*x", IDDigits, 0)
	for _, f := range p.files {
		for _, l := range f.ids {
			l.lit.Value = placeholder
		}
		var buf bytes.Buffer
		if err := decorator.NewRestorer().Fprint(&buf, f.dst); err != nil {
			return nil, fmt.Errorf("print instrumented %s: %w", f.name, err)
		}
		src, err := finishPrint(buf.Bytes(), f.directives, f.after, p.Prefix)
		if err != nil {
			return nil, fmt.Errorf("print instrumented %s: %w", f.name, err)
		}
		slots, err := findIDSlots(src, len(p.Probes), p.Prefix)
		if err != nil {
			return nil, fmt.Errorf("print instrumented %s: %w", f.name, err)
		}
		if len(slots) != len(f.ids) {
			return nil, fmt.Errorf("print instrumented %s: found %d probe calls, inserted %d", f.name, len(slots), len(f.ids))
		}
		t.Files = append(t.Files, TemplateFile{Name: f.name, Src: src, IDs: slots})
	}
	return t, nil
}

// findIDSlots finds the probe calls _gfzHit(0xID, &_gfzBlocks[i]) and
// _gfzHitE(...) (named with prefix, Package.Prefix) in src by their
// tokens (so that text in comments and strings never counts) and returns
// where their IDs go.
func findIDSlots(src []byte, probes int, prefix string) ([]IDSlot, error) {
	hit, hitE, blocks := helper(prefix, "Hit"), helper(prefix, "HitE"), helper(prefix, "Blocks")
	toks, _, err := scanTokens(src)
	if err != nil {
		return nil, fmt.Errorf("find probe IDs: %w", err)
	}
	// The last 10 tokens: IDENT ( INT , & IDENT [ INT ] ).
	var win [10]scanned
	n := 0
	var slots []IDSlot
	for _, t := range toks {
		if t.tok == token.COMMENT {
			continue
		}
		copy(win[:], win[1:])
		win[9] = t
		n++
		if n < 10 || t.tok != token.RPAREN {
			continue
		}
		w := win
		if w[0].tok != token.IDENT || (w[0].lit != hit && w[0].lit != hitE) ||
			w[1].tok != token.LPAREN || w[2].tok != token.INT || w[3].tok != token.COMMA ||
			w[4].tok != token.AND || w[5].tok != token.IDENT || w[5].lit != blocks ||
			w[6].tok != token.LBRACK || w[7].tok != token.INT || w[8].tok != token.RBRACK {
			continue
		}
		if len(w[2].lit) != 2+IDDigits || w[2].lit[:2] != "0x" {
			return nil, fmt.Errorf("probe ID literal %s at offset %d: want %d hex digits", w[2].lit, w[2].off, IDDigits)
		}
		if len(w[7].lit) != 2+BlockDigits || w[7].lit[:2] != "0x" {
			return nil, fmt.Errorf("probe block index %s at offset %d: want %d hex digits", w[7].lit, w[7].off, BlockDigits)
		}
		i, err := strconv.ParseInt(w[7].lit[2:], 16, 64)
		if err != nil || i < 0 || int(i) >= probes {
			return nil, fmt.Errorf("probe block index %s at offset %d out of range [0, %d)", w[7].lit, w[7].off, probes)
		}
		slots = append(slots, IDSlot{Offset: w[2].off + 2, Block: w[7].off + 2, Probe: int(i)})
	}
	return slots, nil
}

// Check reports whether t is well formed: every ID slot inside its file
// and naming a probe, every probe's ID literal where a slot says. A
// template read back from a cache is checked before use.
func (t *Template) Check() error {
	hex := func(src []byte, at, digits int) bool {
		return at >= 2 && at+digits <= len(src) && string(src[at-2:at]) == "0x"
	}
	for _, f := range t.Files {
		for _, s := range f.IDs {
			if s.Probe < 0 || s.Probe >= len(t.Probes) || s.Probe >= 1<<(4*BlockDigits) || !hex(f.Src, s.Offset, IDDigits) || !hex(f.Src, s.Block, BlockDigits) {
				return fmt.Errorf("template of %s: bad probe slot %+v in %s", t.Path, s, f.Name)
			}
		}
	}
	return nil
}

// Join returns the template of a package made of the templates of its
// files, in order (each from a Package of that file alone): the files one
// after the other, the probes and comparison sites likewise, each file's
// probes renumbered after those of the files before it. Joining the
// templates of one file each gives the template of the package with all
// the files (the rewrite of a file depends only on the file and on the
// package's type information). The parts must share a Prefix, which the
// result gets.
func Join(path, name string, std bool, parts []*Template) *Template {
	t := &Template{Path: path, Name: name, Std: std}
	for _, part := range parts {
		t.Prefix = part.Prefix
		base := len(t.Probes)
		for _, f := range part.Files {
			ids := make([]IDSlot, len(f.IDs))
			for i, s := range f.IDs {
				ids[i] = IDSlot{Offset: s.Offset, Block: s.Block, Probe: base + s.Probe}
			}
			t.Files = append(t.Files, TemplateFile{Name: f.Name, Src: f.Src, IDs: ids})
		}
		t.Probes = append(t.Probes, part.Probes...)
		t.CmpSites = append(t.CmpSites, part.CmpSites...)
	}
	return t
}

// Render returns the files with the probe IDs masked to a map of
// 1<<mapBits entries.
func (t *Template) Render(mapBits int) []Rendered {
	mask := uint32(1)<<uint(mapBits) - 1
	out := make([]Rendered, 0, len(t.Files))
	for _, f := range t.Files {
		src := bytes.Clone(f.Src)
		for _, s := range f.IDs {
			putHex(src[s.Offset:s.Offset+IDDigits], t.Probes[s.Probe].ID&mask)
			putHex(src[s.Block:s.Block+BlockDigits], uint32(s.Probe))
		}
		out = append(out, Rendered{Name: f.Name, Src: src})
	}
	return out
}

// putHex writes v into dst as len(dst) lower-case hex digits.
func putHex(dst []byte, v uint32) {
	const digits = "0123456789abcdef"
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = digits[v&0xf]
		v >>= 4
	}
}
