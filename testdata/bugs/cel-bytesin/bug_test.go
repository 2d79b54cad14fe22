package celbytesin

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the project's OSS-Fuzz target FuzzCompile (oss-fuzz's
// projects/cel-go: compile, with a parser recursion limit, then build a
// program; the repository has no fuzz target of its own at this version)
// turned native on Eval, which builds the program with the options of a
// service (the optimizer, a cost limit) and evaluates it too, seeded with
// expressions in the style of the project's README, codelab and tests.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		`name.startsWith("/groups/" + group)`,
		`group == 'admin' && active`,
		`age >= 18 && score > 0.5 || quota > 100u`,
		`'prod' in tags && !('test' in labels)`,
		`labels.env == 'prod' || has(labels.team)`,
		`request.path.startsWith('/v1/') && request.method == "GET"`,
		`ports.all(p, p < 1024) && tags.exists(t, t.startsWith('d'))`,
		`limits.cpu * 2 <= 8 && size(payload) < 1024`,
		`created + ttl > timestamp('2023-06-15T09:00:00Z')`,
		`base64.encode(payload) == 'aGVsbG8='`,
		`name.upperAscii() + ':' + string(quota)`,
		`math.greatest(age, 21) - int(score * 10.0)`,
		`ports.map(p, p + 1).filter(q, q > 100).size() == 1`,
		`duration('1h') < ttl ? created.getHours() : -1`,
		`{'a': 1, 'b': 2}.exists_one(k, k == 'a') && request.size == 3`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		_, _ = Eval(expr)
	})
}

// FuzzGfz is the gfz target: expressions from the CEL grammar generator
// over the declared variables and the enabled extensions, a fifth of
// them with near-miss edits; an expression that does not compile or
// fails at evaluation is an invalid input. No seeds: under plain go test
// it runs nothing.
func FuzzGfz(f *testing.F) {
	vars := make([]gens.CELVar, len(Vars))
	for i, v := range Vars {
		vars[i] = gens.CELVar{Name: v.Name, Type: v.Type}
	}
	expr := gens.CEL(gens.CELConfig{Vars: vars, Keys: Keys, Words: Words, Strings: true, Encoders: true, Math: true, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Eval(expr.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the expression of the fix's test case
// (bytes_in_constant_list in interpreter/interpreter_test.go).
const reproducer = `b'hello' in [b'world', b'universe', b'hello']`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Eval(reproducer) }, "hash of unhashable type", IsBug)
	// The pull request's description: a variable tested against a list
	// of bytes.
	bugkit.ReproducerPanics(t, func() { _, _ = Eval(`payload in [b'hello', b'world']`) }, "hash of unhashable type", IsBug)
	// The same test inside a macro's predicate, in a list of dyn values
	// whose first element is an int.
	bugkit.ReproducerPanics(t, func() { _, _ = Eval(`ports.exists(p, dyn(p) in [8080, b'\x00'])`) }, "hash of unhashable type", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this
// bug (no other panic of v0.13.0 reachable through Eval is reported:
// evaluation panics are turned into errors by Program.Eval).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
