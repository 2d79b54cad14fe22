package driver

import (
	"bytes"
	gfzrt "github.com/gfz-dev/gfz/runtime"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/engine"
)

// TestFormatFlag: -format takes auto (the default), none and the formats'
// names, nothing else.
func TestFormatFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // "" : refused
	}{
		{[]string{"FuzzA"}, "auto"},
		{[]string{"-format", "none", "FuzzA"}, "none"},
		{[]string{"-format", "toml", "FuzzA"}, "toml"},
		{[]string{"-format=markdown", "FuzzA"}, "markdown"},
		{[]string{"-format", "ini", "FuzzA"}, ""},
		{[]string{"-format", "TOML", "FuzzA"}, ""},
	} {
		var out, errb bytes.Buffer
		cfg, code := parseArgs(testInfo, c.args, &out, &errb)
		switch {
		case c.want == "" && (code != ExitUsage || !strings.Contains(errb.String(), "want auto, none or one of json, go, xml, html, toml, yaml, csv, url, markdown")):
			t.Errorf("%q: code %d, stderr %q; want a usage error naming the formats", c.args, code, errb.String())
		case c.want != "" && (code != -1 || cfg.format != c.want):
			t.Errorf("%q: code %d (%s), want -format %s", c.args, code, errb.String(), c.want)
		}
	}
}

// mixer is a Target that records MixFormat's arguments.
type mixer struct {
	Target
	format string
	seeds  int
}

func (m *mixer) MixFormat(format string, seeds [][]byte) string {
	m.format, m.seeds = format, len(seeds)
	return "chose " + format
}

// TestMixFormatPrinted: every worker sets its mix up; only the first
// incarnation of worker 0 prints the choice; a gfz target ignores
// -format with a note when it was given.
func TestMixFormatPrinted(t *testing.T) {
	for _, c := range []struct {
		worker *engine.WorkerSpec
		print  bool
	}{
		{nil, true},
		{&engine.WorkerSpec{ID: 0}, true},
		{&engine.WorkerSpec{ID: 0, Incarnation: 1}, false},
		{&engine.WorkerSpec{ID: 2}, false},
	} {
		var errb bytes.Buffer
		cfg := &config{format: "toml", worker: c.worker, stderr: &errb}
		cfg.run.Target = "FuzzX"
		m := &mixer{}
		cfg.mixFormat(m, [][]byte{{1}, {2}})
		if m.format != "toml" || m.seeds != 2 {
			t.Errorf("worker %+v: MixFormat(%q, %d seeds)", c.worker, m.format, m.seeds)
		}
		if got := errb.String(); (got == "gfz: FuzzX: chose toml\n") != c.print || !c.print && got != "" {
			t.Errorf("worker %+v: printed %q", c.worker, got)
		}
	}
	var errb bytes.Buffer
	cfg := &config{format: "json", stderr: &errb}
	cfg.run.Target = "FuzzG"
	cfg.mixFormat(struct{ Target }{}, nil)
	if !strings.Contains(errb.String(), "gfz: FuzzG: -format json ignored: only native targets") {
		t.Errorf("a gfz target with -format json: %q", errb.String())
	}
	errb.Reset()
	cfg.format = FormatAuto
	cfg.mixFormat(struct{ Target }{}, nil)
	if errb.Len() != 0 {
		t.Errorf("a gfz target with -format auto: %q", errb.String())
	}
}

// sniffer is a Target whose MixFormat marks blocks of an instrumented
// package, as the format sniffers do of a -cover'd parser's.
type sniffer struct {
	Target
	blocks []uint8
}

func (s *sniffer) MixFormat(string, [][]byte) string {
	s.blocks[1], s.blocks[2] = 1, 1
	return ""
}

// TestMixFormatLeavesBlocks: what the sniffers cover while the mix is set
// up is taken back out of the block marks coverage reports read; the
// marks made before stay.
func TestMixFormatLeavesBlocks(t *testing.T) {
	blocks := make([]uint8, 4)
	blocks[0] = 1 // covered before (a package's init)
	gfzrt.Register("example.com/sniffed", blocks, "")
	var errb bytes.Buffer
	cfg := &config{format: "auto", stderr: &errb}
	cfg.mixFormat(&sniffer{blocks: blocks}, [][]byte{{1}})
	if !bytes.Equal(blocks, []uint8{1, 0, 0, 0}) {
		t.Errorf("blocks after the mix's set-up %v, want [1 0 0 0]", blocks)
	}
}
