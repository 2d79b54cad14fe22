package workdir

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 0))
	cases := [][]byte{nil, {}, []byte("hello"), {0, 1, 2, 0xff, '"', '\\', '\n', '\r', '`'}, []byte("héllo\u2028\U0001F600")}
	for range 200 {
		b := make([]byte, r.IntN(300))
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		cases = append(cases, b)
	}
	for _, c := range cases {
		enc := EncodeInput(c)
		// Byte-for-byte what Go's fuzzer writes for a single []byte value.
		if want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", c); string(enc) != want {
			t.Fatalf("EncodeInput(%q) = %q, want %q", c, enc, want)
		}
		dec, err := DecodeInput(enc)
		if err != nil {
			t.Fatalf("DecodeInput(%q): %v", enc, err)
		}
		if string(dec) != string(c) {
			t.Fatalf("round trip of %q gave %q", c, dec)
		}
	}
}

func TestDecodeAcceptsGoForms(t *testing.T) {
	cases := map[string]string{
		"go test fuzz v1\n[]byte(\"\\x00ab\")\n":          "\x00ab",
		"go test fuzz v1\r\n[]byte(\"x\")\r\n":            "x",
		"go test fuzz v1\n\n  []byte(\"x\")  \n\n":        "x",
		"go test fuzz v1\n[]byte(`raw\\n`)":               `raw\n`,
		"go test fuzz v1\n[]byte ( \"sp\" )\n":            "sp",
		"go test fuzz v1\n[]byte(\"\\u00e9\\U0001F600\")": "\u00e9\U0001F600",
		"go test fuzz v1\n[]byte(\"\")\n":                 "",
	}
	for in, want := range cases {
		got, err := DecodeInput([]byte(in))
		if err != nil {
			t.Errorf("DecodeInput(%q): %v", in, err)
			continue
		}
		if string(got) != want {
			t.Errorf("DecodeInput(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecodeRejectsGarbage(t *testing.T) {
	cases := map[string]string{
		"":                                 "empty",
		"garbage":                          "bad header",
		"go test fuzz v2\n[]byte(\"x\")\n": "bad header",
		"go test fuzz v1":                  "no value",
		"go test fuzz v1\n\n":              "no value",
		"go test fuzz v1\n[]byte(\"x\")\n[]byte(\"y\")": "more than one value",
		"go test fuzz v1\nstring(\"x\")\n":              "expected []byte",
		"go test fuzz v1\n[]uint8(\"x\")\n":             "expected []byte",
		"go test fuzz v1\n[]byte(x)\n":                  "string literal required",
		"go test fuzz v1\n[]byte(\"x\"\n":               "expected )",
		"go test fuzz v1\n[]byte(\"\\q\")\n":            "bad string literal",
		"go test fuzz v1\n[]byte(\"unterminated)\n":     "bad string literal",
		"go test fuzz v1\n[]byte\"x\"\n":                "expected (",
		"go test fuzz v1\nint(3)\n":                     "expected []byte",
	}
	for in, want := range cases {
		_, err := DecodeInput([]byte(in))
		if err == nil {
			t.Errorf("DecodeInput(%q) succeeded, want error containing %q", in, want)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("DecodeInput(%q) = %v, want error containing %q", in, err, want)
		}
	}
}

func TestReadInputFileAndWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "in")
	if err := WriteFileAtomic(p, EncodeInput([]byte("abc"))); err != nil {
		t.Fatal(err)
	}
	got, err := ReadInputFile(p)
	if err != nil || string(got) != "abc" {
		t.Fatalf("ReadInputFile = %q, %v", got, err)
	}
	// Overwrite, and check no temp file is left behind.
	if err := WriteFileAtomic(p, []byte("go test fuzz v1\nbad\n")); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("directory holds %d entries, want 1", len(ents))
	}
	if _, err := ReadInputFile(p); err == nil || !strings.Contains(err.Error(), p) {
		t.Fatalf("ReadInputFile of a bad file: %v, want an error naming %s", err, p)
	}
	if _, err := ReadInputFile(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("ReadInputFile of a missing file succeeded")
	}
	if err := WriteFileAtomic(filepath.Join(dir, "nodir", "x"), nil); err == nil {
		t.Fatal("WriteFileAtomic into a missing directory succeeded")
	}
}

// TestWriteFileIfChangedTempOutside: WriteFileIfChanged writes into a go
// test seed corpus directory (testdata/fuzz/FuzzX), whose every file go
// test reads: its temporary file is made in the parent, so one a killed
// process leaves behind cannot break plain go test; the file is written.
func TestWriteFileIfChangedTempOutside(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "testdata", "fuzz", "FuzzX")
	if got, want := tempDirFor(dir), filepath.Dir(dir); got != want {
		t.Errorf("temporary files for %s go to %s, want %s", dir, got, want)
	}
	if got := tempDirFor(dir + "/"); got != filepath.Dir(dir) {
		t.Errorf("with a trailing slash: %s", got)
	}
	wrote, err := WriteFileIfChanged(dir, "x", []byte("go test fuzz v1\n[]byte(\"a\")\n"))
	if err != nil || !wrote {
		t.Fatal(wrote, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "x" {
		t.Errorf("%s holds %v, want only x", dir, entries)
	}
	parent, _ := os.ReadDir(filepath.Dir(dir))
	for _, e := range parent {
		if e.Name() != "FuzzX" {
			t.Errorf("left in the parent: %s", e.Name())
		}
	}
}
