package generators_test

import (
	"fmt"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

type Server struct {
	Host  string
	Port  int
	Alias []string
}

// Of derives a generator from a Go type; WithField and WithType override
// parts of it.
func ExampleOf() {
	g := gen.Of[Server](
		gen.WithField[Server]("Host", gen.Tokens("localhost", "example.com")),
		gen.WithField[Server]("Port", gen.IntegersRange(1, 65535)),
		gen.WithType(gen.StringFrom("abc", 1, 3)),
	)
	t := gfz.NewT(param.New([]byte{1, 1, 0x50, 0, 2, 1, 0, 1, 0, 2}, 0))
	fmt.Printf("%+v\n", g.Draw(t))
	// Output: {Host:example.com Port:81 Alias:[ab c]}
}

func ExampleStringMatching() {
	email := gen.StringMatching(`[a-z]{2,4}@(example|test)\.org`)
	t := gfz.NewT(param.New([]byte{1, 7, 4, 11, 1}, 0))
	fmt.Println(email.Draw(t))
	// Output: hel@test.org
}

func ExampleOneOfWeighted() {
	// "ok" three times out of four: one byte chooses, modulo 4.
	status := gen.OneOfWeighted(gen.W(3, gen.Just("ok")), gen.W(1, gen.Just("error")))
	t := gfz.NewT(param.New([]byte{0, 1, 2, 3}, 0))
	fmt.Println(status.Draw(t), status.Draw(t), status.Draw(t), status.Draw(t))
	// Output: ok ok ok error
}

// Recursive bounds the depth of a recursive generator: here lists nest at
// most 3 deep whatever the bytes say.
func ExampleRecursive() {
	atom := gen.Map(gen.IntRange(0, 9), func(n int) string { return fmt.Sprint(n) })
	list := gen.Recursive(atom, func(self gen.Generator[string]) gen.Generator[string] {
		return gen.Map(gen.SliceOf(self, 1, 3), func(xs []string) string { return "(" + strings.Join(xs, " ") + ")" })
	}, 3)
	t := gfz.NewT(param.New([]byte{1, 1, 1, 1, 0, 7, 0, 2, 0, 5}, 0))
	fmt.Println(list.Draw(t))
	// Output: ((7 2) 5)
}

func ExampleMapOf() {
	// Three entries drawn; the repeated key 1 keeps its first value.
	g := gen.MapOf(gen.IntRange(0, 9), gen.StringFrom("xy", 1, 1), 0, 5)
	t := gfz.NewT(param.New([]byte{3, 1, 0, 1, 1, 2, 1}, 0))
	fmt.Println(g.Draw(t))
	// Output: map[1:x 2:y]
}

// Filter retries a bounded number of times; when every try is rejected
// the input is invalid (t.Assume(false)), never an endless loop.
func ExampleFilter() {
	odd := gen.Filter(gen.IntRange(0, 99), func(n int) bool { return n%2 == 1 }, 4)
	t := gfz.NewT(param.New([]byte{10, 20, 33}, 0))
	fmt.Println(odd.Draw(t))
	// Output: 33
}
