package tomlcfg

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// The TOML generator knows the TOML 1.0 grammar and the configuration's
// key names (and, in a fuzz binary, this package's literals through
// gen.Dictionary()), not which key goes where: every document it draws is
// syntactically valid TOML (no duplicate keys or tables), and whether it is
// a valid Config is left to chance and feedback.
var (
	keyNames   = []string{"title", "owner", "name", "since", "server", "host", "port", "ratio", "aliases", "routes", "path", "weight", "limits", "labels", "enabled"}
	tableNames = []string{"owner", "server", "routes", "limits", "labels"}
	key        = gen.OneOfWeighted(gen.W(6, gen.Tokens(keyNames...)), gen.W(1, gen.DictionaryOr(gen.StringFrom(gen.AlphaLower, 1, 6))))
	words      = gen.OneOf(gen.Tokens("api", "/", "/v1", "Ada", "localhost", "", "x y"), gen.UTF8String(0, 8))
)

// tomlKey writes a key: bare when it can be, quoted otherwise.
func tomlKey(k string) string {
	if k != "" && strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == "" {
		return k
	}
	return strconv.Quote(k)
}

// basicString quotes s as a TOML basic string.
func basicString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\u` + strconv.FormatInt(0x10000+int64(r), 16)[1:])
		case r == 0xFFFD:
			b.WriteString(`\uFFFD`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

var scalar = gen.OneOf(
	gen.Map(words, basicString),
	gen.Map(gen.StringFrom("abc /xyz.", 0, 6), func(s string) string { return "'" + s + "'" }),
	gen.Map(gen.Int64(), func(n int64) string { return strconv.FormatInt(n, 10) }),
	gen.Map(gen.IntegersRange(-1, 70000), strconv.Itoa),
	gen.Tokens("0x1F", "0o17", "0b101", "1_000", "+7", "-0"),
	gen.Map(gen.FloatRange(-1e6, 1e6), func(f float64) string { return strconv.FormatFloat(f, 'e', -1, 64) }),
	gen.Tokens("1.5", "inf", "-inf", "nan", "6.02e23", "-0.0"),
	gen.Tokens("true", "false"),
	gen.Tokens("1979-05-27T07:32:00Z", "1979-05-27T00:32:00.999999-07:00", "1979-05-27T07:32:00", "1979-05-27", "07:32:00"),
)

// value writes a scalar, an array or an inline table.
func value(t *gfz.T, depth int) string {
	k := gen.IntRange(0, 5).Draw(t)
	switch {
	case depth > 0 && k == 4:
		n := gen.IntRange(0, 3).Draw(t)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = value(t, depth-1)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case depth > 0 && k == 5:
		return "{" + strings.Join(pairs(t, depth-1, 3), ", ") + "}"
	}
	return scalar.Draw(t)
}

// pairs draws up to max key = value pairs with distinct keys.
func pairs(t *gfz.T, depth, max int) []string {
	n := gen.IntRange(0, max).Draw(t)
	var seen, out []string
	for range n {
		k := key.Draw(t)
		v := value(t, depth)
		if slices.Contains(seen, k) {
			continue
		}
		seen = append(seen, k)
		out = append(out, tomlKey(k)+" = "+v)
	}
	return out
}

// typedDoc is the second generator: gen.Of[Config] derives a generator from
// the Go type, with field overrides drawing from small value pools (some
// invalid), printed by toml.Marshal.
var (
	route = gen.Of[Route](
		gen.WithField[Route]("Path", gen.Tokens("/", "/v1", "v2", "")),
		gen.WithField[Route]("Weight", gen.IntegersRange(-2, 9)),
	)
	config = gen.Of[Config](
		gen.WithField[Config]("Title", gen.Tokens("svc", "", "api")),
		gen.WithField[Config]("Routes", gen.SliceOf(route, 0, 3)),
		gen.WithField[Server]("Host", gen.Tokens("localhost", "", "10.0.0.1")),
		gen.WithField[Server]("Port", gen.IntegersRange(-1, 70000)),
		gen.WithField[Server]("Ratio", gen.FloatRange(-1.0, 1.0)),
		gen.MaxLen(3),
	)
	typedDoc = gen.Map(config, func(c Config) string {
		b, err := toml.Marshal(c)
		if err != nil {
			panic(err)
		}
		return string(b)
	})
)

var document = gen.OneOf(syntaxDoc, typedDoc).Named("document")

var syntaxDoc = gen.Custom(func(t *gfz.T) string {
	var b strings.Builder
	top := pairs(t, 2, 4)
	for _, p := range top {
		b.WriteString(p + "\n")
	}
	n := gen.IntRange(0, 4).Draw(t)
	var tables []string
	for range n {
		name := gen.Tokens(tableNames...).Draw(t)
		array := gen.Bool().Draw(t)
		body := pairs(t, 2, 4)
		if slices.Contains(top, name) || slices.ContainsFunc(top, func(p string) bool { return strings.HasPrefix(p, name+" =") }) {
			continue
		}
		if array {
			if slices.Contains(tables, name) {
				continue
			}
			b.WriteString("\n[[" + name + "]]\n")
			tables = append(tables, "[["+name)
		} else {
			if slices.Contains(tables, name) || slices.Contains(tables, "[["+name) {
				continue
			}
			b.WriteString("\n[" + name + "]\n")
			tables = append(tables, name)
		}
		for _, p := range body {
			b.WriteString(p + "\n")
		}
	}
	return b.String()
}).Named("toml")

func FuzzConfig(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		c, stage, err := Load(document.Draw(t))
		if stage != Valid {
			t.Skip(err)
		}
		if err := RoundTrip(c); err != nil {
			t.Fatal(err)
		}
	})
}

func TestLoad(t *testing.T) {
	good := `title = "svc"
enabled = true

[owner]
name = "Ada"
since = 1979-05-27T07:32:00Z

[server]
host = "localhost"
port = 8080
ratio = 0.5
aliases = ["a", "b"]

[[routes]]
path = "/v1"
weight = 3

[limits]
rps = 100
`
	c, stage, err := Load(good)
	if stage != Valid || err != nil || c.Server.Port != 8080 || len(c.Routes) != 1 {
		t.Fatalf("Load = %+v, %v, %v", c, stage, err)
	}
	if err := RoundTrip(c); err != nil {
		t.Error(err)
	}
	for doc, want := range map[string]Stage{
		"title = ":                            SyntaxError,
		"title = 1":                           SchemaError,
		"title = \"x\"\nbogus = 1":            SchemaError,
		"title = \"x\"\n[server]\nport = 0\n": SchemaError,
	} {
		if _, got, _ := Load(doc); got != want {
			t.Errorf("Load(%q) stage %d, want %d", doc, got, want)
		}
	}
}

// TestGeneratedTOMLParses checks that every generated document is valid
// TOML, and reports the share of valid configurations.
func TestGeneratedTOMLParses(t *testing.T) {
	counts := map[Stage]int{}
	for i := range 1000 {
		doc := document.Draw(gfz.NewT(param.New(nil, uint64(i)+1)))
		var m map[string]any
		if _, err := toml.Decode(doc, &m); err != nil {
			t.Fatalf("generated TOML does not parse: %v\n%s", err, doc)
		}
		c, stage, _ := Load(doc)
		counts[stage]++
		if stage == Valid {
			if err := RoundTrip(c); err != nil {
				t.Errorf("%v\n%s", err, doc)
			}
		}
	}
	t.Logf("1000 documents: %d syntax, %d schema errors, %d valid", counts[SyntaxError], counts[SchemaError], counts[Valid])
}
