package build

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/generators"
)

func TestCollectDictionary(t *testing.T) {
	src := `package p

import "strings"

const magic = "Hello, 世界"

func f(s string) bool {
	if s == "<tag>" || s == "" || s == "Hello, 世界" {
		return strings.HasPrefix(s, ` + "`raw\\n`" + `)
	}
	return len(s) > 42 && s[0] == 'x' && 1.5e3 > 0 && 0x1F != 0
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := CollectDictionary([]*ast.File{f})
	want := []string{"Hello, 世界", "<tag>", `raw\n`, "42", "0", "x", "1.5e3", "0x1F"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CollectDictionary = %q, want %q", got, want)
	}
	if dec := generators.DecodeDictionary(EncodeDictionary(got)); !reflect.DeepEqual(dec, want) {
		t.Errorf("decode(encode) = %q", dec)
	}
	if enc := EncodeDictionary(got); strings.ContainsAny(enc, " '\"\t\n") {
		t.Errorf("encoded dictionary %q has spaces or quotes", enc)
	}
	many := make([]string, 10000)
	for i := range many {
		many[i] = strings.Repeat("y", 60) + string(rune('a'+i%26)) + strings.Repeat("z", i%7)
	}
	if enc := EncodeDictionary(many); len(enc) > MaxDictEncoded || len(enc) < MaxDictEncoded-100 {
		t.Errorf("encoded %d bytes, cap %d", len(enc), MaxDictEncoded)
	}
}

// TestDictionaryEndToEnd builds a fuzz binary whose target fails when
// gen.Dictionary() holds the literals of the package under test, and
// checks that plain go test sees an empty dictionary.
func TestDictionaryEndToEnd(t *testing.T) {
	gfz, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/dict\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => "+gfz+"\n")
	write("d.go", `package dict

// Keyword is matched by Parse.
func Parse(s string) int {
	switch s {
	case "frobnicate, twice":
		return 7331
	case "<quux a=\"1\"/>":
		return 2
	}
	return 0
}
`)
	write("d_test.go", `package dict

import (
	"slices"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

func FuzzDict(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		d := gen.Dictionary()
		if slices.Contains(d, "frobnicate, twice") && slices.Contains(d, "<quux a=\"1\"/>") && slices.Contains(d, "7331") {
			t.Fatalf("dictionary %q", d)
		}
		if len(d) != 0 {
			t.Fatalf("unexpected dictionary %q", d)
		}
	})
}
`)
	if out, err := exec.Command("go", "-C", dir, "test", "-count=1", ".").CombinedOutput(); err != nil {
		t.Fatalf("plain go test (empty dictionary): %v\n%s", err, out)
	}
	bin := filepath.Join(t.TempDir(), "d.gfz")
	var stderr strings.Builder
	res, err := Build(context.Background(), Options{Dir: dir, Output: bin, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !reflect.DeepEqual(res.Dictionary, []string{"frobnicate, twice", "7331", `<quux a="1"/>`, "2", "0"}) {
		t.Errorf("Prepared.Dictionary = %q", res.Dictionary)
	}
	out, err := exec.Command(bin, "-runs", "3", "-workdir", t.TempDir()).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "frobnicate, twice") {
		t.Errorf("fuzz binary: %v (want exit status 1 with the dictionary in the report)\n%s", err, out)
	}
}
