package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadBlocks: a coverage profile whose position is listed twice with
// different statement counts (//line directives, as in goyacc's parsers)
// is read, the block hit if either listing is and counting the larger
// number of statements; a line that is not a profile line is an error
// naming the file and line.
func TestReadBlocks(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "cover.out")
	prof := "mode: set\n" +
		"example.com/m/parser.go.y:10.2,12.3 1 0\n" +
		"example.com/m/parser.go.y:10.2,12.3 2 1\n" +
		"example.com/m/a.go:3.14,5.2 4 0\n"
	if err := os.WriteFile(p, []byte(prof), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks, err := readBlocks(p)
	if err != nil {
		t.Fatal(err)
	}
	if b := blocks["example.com/m/parser.go.y:10.2,12.3"]; !b.hit || b.stmts != 2 || b.line != 10 || b.file != "example.com/m/parser.go.y" {
		t.Errorf("the block listed twice: %+v, want hit, 2 statements, line 10", b)
	}
	if b := blocks["example.com/m/a.go:3.14,5.2"]; b.hit || b.stmts != 4 || len(blocks) != 2 {
		t.Errorf("blocks %+v", blocks)
	}
	if err := os.WriteFile(p, []byte("mode: set\nexample.com/m/a.go:3.14,5.2 x 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readBlocks(p); err == nil || !strings.Contains(err.Error(), "cover.out:2") {
		t.Errorf("a bad line: error %v, want one naming cover.out:2", err)
	}
}
