package yaegilocaltype

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative runs a script (the project has no fuzz target), seeded with
// small programs in the style of the project's script tests (_test/*.go:
// closures, methods and method values, maps, switches, interfaces, defer,
// the standard library). No seed declares a type inside a function.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"package main\n\nfunc main() {\n\tprintln(\"hello\", 1+2)\n}\n",
		"package main\n\nfunc main() {\n\tfoos := []func(){}\n\tfor i := 0; i < 3; i++ {\n\t\ta := i\n\t\tfoos = append(foos, func() { println(i, a) })\n\t}\n\tfor _, f := range foos {\n\t\tf()\n\t}\n}\n",
		"package main\n\ntype Coord struct {\n\tx, y int\n}\n\nfunc (c Coord) dist() int { return c.x*c.x + c.y*c.y }\n\nfunc (c *Coord) move(d int) { c.x += d }\n\nfunc main() {\n\to := Coord{3, 4}\n\to.move(1)\n\tf := o.dist\n\tprintln(f())\n}\n",
		"package main\n\nimport \"fmt\"\n\nfunc main() {\n\tm := map[string]int{\"a\": 1, \"b\": 2}\n\tm[\"c\"] = 3\n\tdelete(m, \"a\")\n\tif v, ok := m[\"b\"]; ok {\n\t\tprintln(fmt.Sprint(v, len(m)))\n\t}\n}\n",
		"package main\n\nfunc f(i int) string {\n\tswitch i {\n\tcase 0, 1:\n\t\treturn \"small\"\n\tcase 2:\n\t\tfallthrough\n\tcase 3:\n\t\treturn \"medium\"\n\tdefault:\n\t\treturn \"large\"\n\t}\n}\n\nfunc main() {\n\tfor i := 0; i < 5; i++ {\n\t\tprintln(f(i))\n\t}\n}\n",
		"package main\n\ntype Shape interface {\n\tArea() float64\n}\n\ntype Rect struct{ W, H float64 }\n\nfunc (r Rect) Area() float64 { return r.W * r.H }\n\nfunc main() {\n\tvar s Shape = Rect{2, 3}\n\tswitch v := s.(type) {\n\tcase Rect:\n\t\tprintln(\"rect\", v.W)\n\tdefault:\n\t\tprintln(\"other\")\n\t}\n\tprintln(s.Area())\n}\n",
		"package main\n\nimport (\n\t\"strconv\"\n\t\"strings\"\n)\n\nfunc main() {\n\tparts := strings.Split(\"1,2,3\", \",\")\n\tsum := 0\n\tfor _, p := range parts {\n\t\tn, err := strconv.Atoi(p)\n\t\tif err != nil {\n\t\t\treturn\n\t\t}\n\t\tsum += n\n\t}\n\tprintln(strings.ToUpper(\"sum\"), sum)\n}\n",
		"package main\n\nfunc main() {\n\tdefer println(\"bye\")\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\tprintln(\"recovered\")\n\t\t}\n\t}()\n\tvar a []int\n\tprintln(len(a), cap(a))\n}\n",
		"package main\n\nimport \"sort\"\n\ntype Pair struct {\n\tKey string\n\tVal int\n}\n\nfunc main() {\n\tps := []Pair{{\"b\", 2}, {\"a\", 1}, {\"c\", 3}}\n\tsort.Slice(ps, func(i, j int) bool { return ps[i].Key < ps[j].Key })\n\tfor i, p := range ps {\n\t\tprintln(i, p.Key, p.Val)\n\t}\n}\n",
		"package main\n\nimport \"fmt\"\n\ntype T int\n\nconst (\n\tA T = iota\n\tB\n\tC\n)\n\nfunc (t T) String() string { return fmt.Sprintf(\"T%d\", int(t)) }\n\nvar names = map[T]string{A: \"a\", B: \"b\"}\n\nfunc main() {\n\tprintln(fmt.Sprint(C), names[B])\n}\n",
		"package main\n\nimport \"errors\"\n\nvar errNeg = errors.New(\"negative\")\n\nfunc sqrt(x float64) (float64, error) {\n\tif x < 0 {\n\t\treturn 0, errNeg\n\t}\n\tz := 1.0\n\tfor i := 0; i < 10; i++ {\n\t\tz -= (z*z - x) / (2 * z)\n\t}\n\treturn z, nil\n}\n\nfunc main() {\n\tv, err := sqrt(2)\n\tprintln(v, err == nil)\n}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _ = Run(src)
	})
}

// FuzzGfz is the gfz target: Go programs from the grammar generator, 5%
// of them with near-miss edits; a program that does not compile, fails
// at run time or runs out of time is an invalid input. No seeds: under
// plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	program := gens.GoProgram(gens.GoProgramConfig{MistakesPer: 50})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Run(program.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the pull request's program (also the fix's test,
// _test/type34.go): two local types over a struct, a pointer to a
// composite literal of the second, a field read through the pointer.
const reproducer = `package main

type original struct {
	Field string
}

func main() {
	type alias original
	type alias2 alias
	var a = &alias2{
		Field: "test",
	}
	println(a.Field)
}
`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Run(reproducer) }, "index out of range [0] with length 0", IsBug)
	// One local type is enough, and a field of a value (another call of
	// fieldSeq in the compiler's selector code), assigned or read, in a
	// function or in a closure.
	for _, body := range []string{
		"type A S\n\tvar a A\n\ta.F = \"x\"\n\tprintln(a.F)",
		"type A S\n\tf := func() string { return A{F: \"y\"}.F }\n\tprintln(f())",
		"type L struct{ G int }\n\ttype A L\n\tas := []A{{G: 1}}\n\tprintln(as[0].G)",
	} {
		src := "package main\n\ntype S struct {\n\tF string\n}\n\nfunc main() {\n\t" + body + "\n}\n"
		bugkit.ReproducerPanics(t, func() { _, _ = Run(src) }, "index out of range", IsBug)
	}
	// The composite literal site: a chain of two local types, a literal
	// with a field, in a function literal (no selector).
	src := "package main\n\ntype S struct {\n\tF int\n}\n\nfunc main() {\n\tfunc() {\n\t\ttype A S\n\t\ttype B A\n\t\tb := B{F: 1}\n\t\t_ = b\n\t}()\n}\n"
	bugkit.ReproducerPanics(t, func() { _, _ = Run(src) }, "index out of range", CompositeSite.MatchPanic)
}

// TestOracleRejectsOtherPanics checks that other compiler panics of this
// version are not this bug:
//   - a range over an integer (Go 1.22), which v0.16.1 does not support
//     and declares with a nil type,
//     https://github.com/traefik/yaegi/issues/1701 (open);
//   - a type switch whose default clause is empty, whose case check slices
//     the clause's children to [:-1];
//   - the nearest neighbour of the bug: a type defined over another named
//     map type (in a function body, as here, or at package level), and a
//     composite literal of it in a function literal, a nil dereference in
//     (*itype).refType (type.go:2065) reached from genDestValue. The fix
//     of pull request #1679 leaves it as it is.
//
// The last two were met while checking the generator's programs, and the
// smoke run found both again; both are still in the master of January
// 2025, and I found no upstream report.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() {
		_, _ = Run("package main\n\nfunc main() {\n\tfor range 3 {\n\t}\n}\n")
	})
	bugkit.RejectsPanic(t, IsBug, func() {
		_, _ = Run("package main\n\nfunc main() {\n\tvar x any = 1\n\tswitch x.(type) {\n\tcase int:\n\t\tprintln(\"int\")\n\tdefault:\n\t}\n}\n")
	})
	bugkit.RejectsPanic(t, IsBug, func() {
		_, _ = Run("package main\n\ntype M map[int]string\n\nfunc main() {\n\tfunc() {\n\t\ttype L M\n\t\tv := L{0: \"a\"}\n\t\t_ = v\n\t}()\n}\n")
	})
	bugkit.RejectsPanic(t, IsBug, nil)
}
