package instrument

import (
	"strings"
	"testing"
)

// TestJoinProbes: a probe on a line of its own joins the line before it
// after a block's { or a case or default clause's colon, with a block of
// the probe alone closing on that line; not after a label's colon, a
// colon inside the case's expression, a comment, or when more follows the
// probe on its line.
func TestJoinProbes(t *testing.T) {
	src := strings.Join([]string{
		"func f(x any) {",
		"\t_gfzHit(0x01, &_gfzBlocks[0x000000])",
		"\tswitch y := x.(type) {",
		"\tcase map[string]int:",
		"\t\t_gfzHit(0x02, &_gfzBlocks[0x000001])",
		"\tdefault:",
		"\t\t_gfzHit(0x03, &_gfzBlocks[0x000002])",
		"\t}",
		"L:",
		"\t_gfzHit(0x04, &_gfzBlocks[0x000003])",
		"\tif a { // why",
		"\t\t_gfzHit(0x05, &_gfzBlocks[0x000004])",
		"\t} else {",
		"\t\t_gfzHit(0x06, &_gfzBlocks[0x000005])",
		"\t}",
		"\tfor {",
		"\t\t_gfzHit(0x07, &_gfzBlocks[0x000006]); x = 1",
		"\t}",
		"}",
	}, "\n")
	got, err := joinProbes([]byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"func f(x any) { _gfzHit(0x01, &_gfzBlocks[0x000000])",
		"\tswitch y := x.(type) {",
		"\tcase map[string]int: _gfzHit(0x02, &_gfzBlocks[0x000001])",
		"\tdefault: _gfzHit(0x03, &_gfzBlocks[0x000002])",
		"\t}",
		"L:",
		"\t_gfzHit(0x04, &_gfzBlocks[0x000003])",
		"\tif a { // why",
		"\t\t_gfzHit(0x05, &_gfzBlocks[0x000004])",
		"\t} else { _gfzHit(0x06, &_gfzBlocks[0x000005]) }",
		"\tfor {",
		"\t\t_gfzHit(0x07, &_gfzBlocks[0x000006]); x = 1",
		"\t}",
		"}",
	}, "\n")
	if string(got) != want {
		t.Errorf("joined:\n%s\nwant:\n%s", got, want)
	}
}

// TestPruneDirectives: a directive of ours that gives its token the
// position the one in force already gives it is removed with the blank
// after it; one that changes the line or the column, the first after a
// directive without a column, a second on its line, the user's own, and
// one whose removal would join two words are kept.
func TestPruneDirectives(t *testing.T) {
	ours := map[string]bool{}
	for _, d := range []string{"/*line f.go:11:1*/", "/*line f.go:13:1*/", "/*line f.go:14:2*/", "/*line f.go:21:1*/", "/*line f.go:22:1*/", "/*line f.go:23:2*/", "/*line f.go:24:5*/", "/*line f.go:25:1*/"} {
		ours[d] = true
	}
	src := strings.Join([]string{
		"//line f.go:10:1",                                // printed line 1: gives line 2 f.go:10:1
		"func f() {",                                      // f.go:10
		"\t/*line f.go:11:1*/ a()",                        // repeats: removed
		"\t/*line f.go:13:1*/ b()",                        // line 12 otherwise: kept
		"\t/*line f.go:14:2*/ c()",                        // column 3 otherwise: kept
		"\t/*line f.go:15*/ d()",                          // the user's, no column
		"\t/*line f.go:21:1*/ e()",                        // after a directive without a column: kept
		"\t/*line f.go:22:1*/ g() /*line f.go:23:2*/ h()", // the first repeats; the second is not first on its line
		"\tx :=/*line f.go:24:5*/y",                       // would join nothing, but its column is wrong: kept
		"\t/*line f.go:25:1*/ i()",
		"}",
	}, "\n")
	got, err := pruneDirectives([]byte(src), ours)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"//line f.go:10:1",
		"func f() {",
		"\ta()",
		"\t/*line f.go:13:1*/ b()",
		"\t/*line f.go:14:2*/ c()",
		"\t/*line f.go:15*/ d()",
		"\t/*line f.go:21:1*/ e()",
		"\tg() /*line f.go:23:2*/ h()",
		"\tx :=/*line f.go:24:5*/y",
		"\ti()",
		"}",
	}, "\n")
	if string(got) != want {
		t.Errorf("pruned:\n%s\nwant:\n%s", got, want)
	}
	if !joins([]byte("x/**/y"), 1, 5) || joins([]byte("x /**/ y"), 2, 6) {
		t.Errorf("joins: wrong")
	}
}

// TestPlaceDirectiveAloneOnLine: a directive dst printed alone on its line
// (before a case clause) moves in front of its token with its line, so
// that it pushes nothing down.
func TestPlaceDirectiveAloneOnLine(t *testing.T) {
	d := "/*line f.go:7:2*/"
	src := "switch op {\ncase 0:\n\t\tx++\n\t\t" + d + "\n\tcase 1:\n\t\tx--\n}\n"
	got, err := placeDirectives([]byte(src), map[string]bool{d: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "switch op {\ncase 0:\n\t\tx++\n\t" + d + "case 1:\n\t\tx--\n}\n"; string(got) != want {
		t.Errorf("placed:\n%q\nwant:\n%q", got, want)
	}
}
