package formats

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestCoverCorpus feeds one parser a fixed corpus, for the coverage
// measurement of cover.sh: GFZ_FORMATS_COVER=FORMAT/MODE names the format
// and where the inputs come from (valid: its valid generator; near: its
// near-miss generator; bytes: random byte strings of 0 to 512 bytes), and
// GFZ_FORMATS_N their number (default 20000). The inputs are fixed: the
// i-th draws from data(i, 6) with extension seed i. Without
// GFZ_FORMATS_COVER the test does nothing.
func TestCoverCorpus(t *testing.T) {
	spec := os.Getenv("GFZ_FORMATS_COVER")
	if spec == "" {
		t.Skip("GFZ_FORMATS_COVER not set (see cover.sh)")
	}
	name, mode, ok := strings.Cut(spec, "/")
	if !ok {
		t.Fatalf("GFZ_FORMATS_COVER=%q: want FORMAT/MODE, MODE valid, near or bytes", spec)
	}
	n := 20000
	if s := os.Getenv("GFZ_FORMATS_N"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("GFZ_FORMATS_N=%q: want a positive number", s)
		}
		n = v
	}
	f := formatNamed(name)
	errs := 0
	for i := range n {
		var doc string
		switch mode {
		case "valid":
			doc = drawFrom(f.valid, data(i, 6), uint64(i))
		case "near":
			doc = drawFrom(f.near, data(i, 6), uint64(i))
		case "bytes":
			b := data(i, 6)
			doc = string(b[:rand.New(rand.NewPCG(uint64(i), 7)).IntN(len(b)+1)])
		default:
			t.Fatalf("GFZ_FORMATS_COVER=%q: unknown mode %q (valid, near or bytes)", spec, mode)
		}
		if _, err := f.parse(doc); err != nil {
			errs++
		}
	}
	t.Logf("%s: %d inputs, %d rejected", spec, n, errs)
}
