package testmod

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// usageFlag matches a flag's line in a flag.FlagSet's PrintDefaults.
var usageFlag = regexp.MustCompile(`(?m)^  (-[A-Za-z0-9_.-]+)`)

// FlagsDocumented runs help (a command's -h, writing its usage to the
// writer it is given and returning its exit status, which must be 0) and
// fails t for every flag of the usage that docs/CLI.md does not name, as "`-flag" followed by a space, a
// backquote, "=" or "]", between the heading from and the next heading of
// the same level. It fails too when usage lists no flag or the section is
// missing, so that a changed format cannot make it pass vacuously.
func FlagsDocumented(t testing.TB, from string, help func(stderr io.Writer) int) {
	t.Helper()
	var b strings.Builder
	if code := help(&b); code != 0 {
		t.Fatalf("-h: exit %d\n%s", code, b.String())
	}
	usage := b.String()
	doc, err := os.ReadFile(filepath.Join(GfzRoot(t), "docs", "CLI.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	i := strings.Index(text, "\n"+from+"\n")
	if i < 0 {
		t.Fatalf("docs/CLI.md has no heading %q", from)
	}
	section := text[i+1:]
	level := from[:strings.IndexByte(from, ' ')+1] // "## "
	if j := strings.Index(section[len(from):], "\n"+level); j >= 0 {
		section = section[:len(from)+j]
	}
	flags := usageFlag.FindAllStringSubmatch(usage, -1)
	if len(flags) == 0 {
		t.Fatalf("no flags in the usage text:\n%s", usage)
	}
	for _, f := range flags {
		if !regexp.MustCompile("`" + regexp.QuoteMeta(f[1]) + "[ `=\\]]").MatchString(section) {
			t.Errorf("flag %s is not documented in docs/CLI.md, section %q", f[1], from)
		}
	}
}
