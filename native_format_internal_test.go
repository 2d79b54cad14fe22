package gfz

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/driver"
	"github.com/gfz-dev/gfz/internal/formatreg"
	"github.com/gfz-dev/gfz/internal/native"
	"github.com/gfz-dev/gfz/param"
)

// The formats of these tests (package gfz cannot import generators/formats,
// which imports it): a TOML document has " = ", a CSV one a comma; their
// generators write "T" or "C" and two drawn bytes.
func init() {
	for _, f := range []struct{ name, mark, out string }{{"toml", " = ", "T"}, {"csv", ",", "C"}} {
		formatreg.Register(formatreg.Format{Name: f.name, Title: strings.ToUpper(f.name),
			Sniff: func(d []byte) bool { return bytes.Contains(d, []byte(f.mark)) },
			Draw:  func(src *param.Source) []byte { return append([]byte(f.out), src.Bytes(2)...) }})
	}
}

// seedsOf encodes each row of values as a seed of types ts.
func seedsOf(t *testing.T, ts native.Types, rows ...[]any) [][]byte {
	t.Helper()
	var out [][]byte
	for _, r := range rows {
		args := make([]native.Arg, len(r))
		for i, v := range r {
			args[i], _ = native.ArgOf(v)
		}
		b, err := ts.Encode(args)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestMixFormat: the format and the argument chosen, and the line
// printed, for -format auto, none and a named format.
func TestMixFormat(t *testing.T) {
	one := native.Types{native.Bytes}
	two := native.Types{native.String, native.Int, native.Bytes}
	for _, c := range []struct {
		name   string
		types  native.Types
		format string
		seeds  [][]any
		arg    int // the argument mixed, -1 for none
		msg    string
	}{
		{"toml seeds", one, driver.FormatAuto, [][]any{{[]byte("a = 1")}, {[]byte("b = 2")}, {[]byte("x")}},
			0, "seeds look like TOML (2 of 3): mixing in children from the TOML generator; -format none turns it off"},
		{"too few", one, driver.FormatAuto, [][]any{{[]byte("a = 1")}, {[]byte("y")}, {[]byte("x")}},
			-1, "seeds look like no one format (at most 1 of 3 like TOML): no children from a format generator; -format NAME chooses one"},
		{"no format", one, driver.FormatAuto, [][]any{{[]byte("y")}},
			-1, "seeds look like none of the formats gfz generates: no children from a format generator; -format NAME chooses one"},
		{"no seeds", one, driver.FormatAuto, nil,
			-1, "no seeds to recognise a format from: no children from a format generator; -format NAME chooses one"},
		{"off", one, driver.FormatNone, [][]any{{[]byte("a = 1")}}, -1, ""},
		{"named", one, "csv", nil, 0, "mixing in children from the CSV generator (-format csv)"},
		{"second argument", two, driver.FormatAuto, [][]any{{"k", 1, []byte("a,b")}, {"j", 2, []byte("c,d")}},
			2, "seeds look like CSV (2 of 2) for argument 3 ([]byte): mixing in children from the CSV generator; -format none turns it off"},
		{"best argument", two, driver.FormatAuto, [][]any{{"a,b", 1, []byte("k = v")}, {"c", 2, []byte("k = w")}},
			2, "seeds look like TOML (2 of 2) for argument 3 ([]byte): mixing in children from the TOML generator; -format none turns it off"},
		{"named, best argument", two, "toml", [][]any{{"a,b", 1, []byte("k = v")}},
			2, "mixing in children from the TOML generator for argument 3 ([]byte) (-format toml)"},
		{"no argument", native.Types{native.Int}, "toml", nil, -1, "-format toml ignored: the fuzz function has no []byte or string argument"},
		{"no generator", one, "json", nil, -1, "-format json: this fuzz binary has no json generator: no children from a format generator"},
	} {
		tg := &nativeTarget{name: "FuzzX", types: c.types}
		msg := tg.MixFormat(c.format, seedsOf(t, c.types, c.seeds...))
		if msg != c.msg {
			t.Errorf("%s: printed %q, want %q", c.name, msg, c.msg)
		}
		switch {
		case c.arg < 0 && tg.mix != nil:
			t.Errorf("%s: mixes argument %d", c.name, tg.mix.Arg)
		case c.arg >= 0 && (tg.mix == nil || tg.mix.Arg != c.arg):
			t.Errorf("%s: mix %+v, want argument %d", c.name, tg.mix, c.arg)
		}
		if cd, ok := tg.Codec().(native.Codec); !ok || cd.Mix != tg.mix {
			t.Errorf("%s: the target's codec does not carry its mix", c.name)
		}
	}
}

// TestNativeExecMixes: the executor's codec gives the engine a mutator
// whose generated children hold the format's documents (as the first
// []byte or string argument: -format named, no seeds).
func TestNativeExecMixes(t *testing.T) {
	ex := nativeExecOf(t, func(t *testing.T, s string, b []byte) {})
	ex.tg.MixFormat("toml", nil)
	m, ok := ex.Codec().(native.Codec).NewArgMutator(nil).(*native.Mutator)
	if !ok || !m.Generates() {
		t.Fatal("the executor's mutator does not generate")
	}
	n := uint64(0)
	child, ok := m.GenerateArgs(func() uint64 { n++; return n }, nil, params(t, "k", []byte("v")), 100)
	if !ok {
		t.Fatal("no child")
	}
	args, err := native.Types{native.String, native.Bytes}.DecodeBytes(child)
	if err != nil || string(args[1].B) != "v" || len(args[0].B) != 3 || args[0].B[0] != 'T' {
		t.Errorf("generated child %q: %v", child, err)
	}
}
