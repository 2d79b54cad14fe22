package cover_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/cover"
)

func sample() []cover.Block {
	return []cover.Block{
		{File: "example.com/p/a.go", Func: "F", StartLine: 3, StartCol: 20, EndLine: 9, EndCol: 2, Stmts: 2, Kind: 1, Hit: true},
		{File: "example.com/p/a.go", Func: "F", StartLine: 4, StartCol: 11, EndLine: 6, EndCol: 3, Stmts: 1, Kind: 2},
		{File: "example.com/p/a.go", Func: "F", StartLine: 6, StartCol: 3, EndLine: 6, EndCol: 3, Stmts: 0, Kind: 4, Hit: true},
		{File: "example.com/p/b.go", Func: "(*T).M", StartLine: 5, StartCol: 1, EndLine: 7, EndCol: 2, Stmts: 3, Kind: 1},
	}
}

func TestSummarize(t *testing.T) {
	pc := cover.Summarize("example.com/p", sample())
	if pc.Probes != 4 || pc.ProbesHit != 2 || pc.Stmts != 6 || pc.StmtsHit != 2 || len(pc.Files) != 2 {
		t.Fatalf("%+v", pc)
	}
	a := pc.Files[0]
	if a.Name != "example.com/p/a.go" || len(a.Funcs) != 1 || a.Funcs[0].Name != "F" || a.Funcs[0].Line != 3 || a.Funcs[0].Stmts != 3 {
		t.Errorf("%+v", a)
	}
	if got := pc.Percent(); got < 33.3 || got > 33.4 {
		t.Errorf("Percent = %v", got)
	}
}

func TestWriteBlocks(t *testing.T) {
	var buf bytes.Buffer
	if err := cover.WriteBlocks(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	// F's block is split around its then block: "if" before it, the
	// statement after it (reached: the implicit else fired).
	want := "mode: set\nexample.com/p/a.go:3.20,4.11 1 1\nexample.com/p/a.go:4.11,6.3 1 0\nexample.com/p/a.go:6.3,9.2 1 1\nexample.com/p/b.go:5.1,7.2 3 0\n"
	if buf.String() != want {
		t.Errorf("profile:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, s := range []string{"", "gfzt", "xxxxx", "gfzt1\x05ab", "gfzt1\x00\x00\x05"} {
		if _, err := cover.Decode("p", s); err == nil {
			t.Errorf("Decode(%q) succeeded", s)
		}
	}
	if b, err := cover.Decode("p", "gfzt1\x00\x00\x00"); err != nil || len(b) != 0 {
		t.Errorf("empty table: %v %v", b, err)
	}
}

// In a plain (uninstrumented) process no package is registered: the
// profile is just the mode line.
func ExampleWriteProfile() {
	if err := cover.WriteProfile(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output: mode: set
}

func ExampleSummary() {
	for _, pc := range cover.Summary() {
		fmt.Printf("%s: %.1f%% of %d statements\n", pc.Path, pc.Percent(), pc.Stmts)
		for _, f := range pc.Files {
			for _, fn := range f.Funcs {
				fmt.Printf("  %s %s: %d/%d probes\n", f.Name, fn.Name, fn.ProbesHit, fn.Probes)
			}
		}
	}
	fmt.Println(strings.TrimSpace("done"))
	// Output: done
}
