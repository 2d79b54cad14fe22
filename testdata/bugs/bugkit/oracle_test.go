package bugkit

import "testing"

// A traceback as go test prints it for a panic recovered and re-raised by
// the code under test (the original site is below the last panic frame).
const repanicked = `panic: runtime error: index out of range [-1] [recovered]
	panic: runtime error: index out of range [-1]

goroutine 7 [running]:
testing.tRunner.func1.2({0x5a4f40, 0xc000016150})
	/usr/local/go/src/testing/testing.go:1632 +0x230
testing.tRunner.func1()
	/usr/local/go/src/testing/testing.go:1635 +0x35e
panic({0x5a4f40?, 0xc000016150?})
	/usr/local/go/src/runtime/panic.go:785 +0x132
example.com/p.parse.func1()
	/src/p/parse.go:46 +0xf9
panic({0x5a4f40?, 0xc000016150?})
	/usr/local/go/src/runtime/panic.go:785 +0x132
runtime.goPanicIndex(0xffffffffffffffff, 0x0)
	/usr/local/go/src/runtime/panic.go:115 +0x74
example.com/p.lexValue(0xc000010120)
	/src/p/lex.go:406 +0x3cd
example.com/p.(*lexer).nextItem(...)
	/src/p/lex.go:84
example.com/p.parse({0x5b1234, 0x5})
	/src/p/parse.go:60 +0x1a
created by testing.(*T).Run in goroutine 1
	/usr/local/go/src/testing/testing.go:1742 +0x390
`

const hung = `SIGQUIT: quit
PC=0x46a1c1 m=0 sigcode=0

goroutine 0 gp=0x5e1c20 m=0 mp=0x5e2620 [idle]:
runtime.futex(0x5e2760, 0x80, 0x0, 0x0, 0x0, 0x0)
	/usr/local/go/src/runtime/sys_linux_amd64.s:557 +0x21 fp=0x7ffd2c8 sp=0x7ffd2c0 pc=0x46a1c1

goroutine 1 gp=0xc000002380 m=nil [runnable]:
example.com/p.(*lexer).next(...)
	/src/p/lex.go:120
example.com/p.lexMultilineString(0xc000010120)
	/src/p/lex.go:490 +0x210
example.com/p.(*lexer).nextItem(...)
	/src/p/lex.go:83
main.main()
	/src/main.go:21 +0x45
`

func TestPanicFrames(t *testing.T) {
	fr := PanicFrames(repanicked)
	if len(fr) != 3 || fr[0] != (Frame{"example.com/p.lexValue", "/src/p/lex.go", 406}) || fr[1].Func != "example.com/p.(*lexer).nextItem" {
		t.Fatalf("PanicFrames = %v", fr)
	}
	if PanicFrames(hung) != nil {
		t.Fatalf("a dump without a panic has panic frames")
	}
}

func TestSiteMatchPanic(t *testing.T) {
	for _, c := range []struct {
		site Site
		want bool
	}{
		{Site{Func: "example.com/p.lexValue", File: "lex.go", Lines: []int{406}}, true},
		{Site{Func: "example.com/p.lexValue", File: "lex.go"}, true},
		{Site{Func: "example.com/p.lexValue", File: "lex.go", Lines: []int{405}}, false},
		{Site{Func: "example.com/p.lexValue", File: "parse.go"}, false},
		{Site{Func: "example.com/p.lexValue", File: "lex.go", Callers: []string{"example.com/p.(*lexer).nextItem", "example.com/p.parse"}}, true},
		{Site{Func: "example.com/p.lexValue", File: "lex.go", Callers: []string{"example.com/p.parse"}}, false},
		{Site{Func: "example.com/p.parse.func1", File: "parse.go"}, false}, // the re-panic is not the site
		{Site{Func: "example.com/p.lexMultilineString", File: "lex.go"}, false},
		{Site{Func: "example.com/p.(*lexer).nextItem", File: "lex.go"}, false},
		{Site{Func: "example.com/p.(*lexer).nextItem", File: "lex.go", Inner: []string{"example.com/p.lexValue"}}, true},
	} {
		if got := c.site.MatchPanic(repanicked); got != c.want {
			t.Errorf("%v.MatchPanic = %v, want %v", c.site, got, c.want)
		}
	}
}

func TestSiteMatchHang(t *testing.T) {
	for _, c := range []struct {
		site Site
		want bool
	}{
		{Site{Func: "example.com/p.lexMultilineString", File: "lex.go"}, true},
		{Site{Func: "example.com/p.lexMultilineString", File: "lex.go", Callers: []string{"example.com/p.(*lexer).nextItem"}}, true},
		{Site{Func: "example.com/p.lexMultilineString", File: "lex.go", Callers: []string{"main.main"}}, false},
		{Site{Func: "example.com/p.lexString", File: "lex.go"}, false},
	} {
		if got := c.site.MatchHang(hung); got != c.want {
			t.Errorf("%v.MatchHang = %v, want %v", c.site, got, c.want)
		}
	}
	if (Site{Func: "example.com/p.lexValue", File: "lex.go"}).MatchHang(hung) {
		t.Errorf("MatchHang matches a function absent from the dump")
	}
}
