package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportArms: the adaptive engine's arms in the stats file become a
// table (arms never used left out); a stats file without arms has none.
func TestReportArms(t *testing.T) {
	f := newFixture(t)
	write(t, filepath.Join(f.workdir, "stats"), "target: FuzzFixture\nengine: auto\nexecs: 4000\n"+
		"arms: zest,bytes,cmp,random\narms_parents: turns,fast\n"+
		"arm_random_chosen: 10\narm_random_execs: 4010\narm_random_finds: 3\narm_random_share: 4000\n"+
		"arm_zest_chosen: 3000\narm_zest_execs: 2990\narm_zest_finds: 12\n"+
		"arm_bytes_chosen: 1000\narm_bytes_execs: 1000\narm_bytes_finds: 1\n"+
		"arm_cmp_chosen: 0\narm_cmp_execs: 0\narm_cmp_finds: 0\n"+
		"arm_turns_chosen: 40\narm_turns_execs: 3990\narm_turns_finds: 13\n"+
		"arm_fast_chosen: 0\narm_fast_execs: 0\narm_fast_finds: 0\n")
	p := build(f.options(""))
	want := []armRow{
		{Kind: "operator", Name: "zest", Chosen: "3,000", Execs: "2,990", Finds: "12", Share: "37.4%", PerThousand: "4.013"},
		{Kind: "operator", Name: "bytes", Chosen: "1,000", Execs: "1,000", Finds: "1", Share: "12.5%", PerThousand: "1.000"},
		{Kind: "operator", Name: "random", Chosen: "10 + 4,000 of the generation share", Execs: "4,010", Finds: "3", Share: "50.1%", PerThousand: "0.748"},
		{Kind: "parent schedule", Name: "turns", Chosen: "40", Execs: "3,990", Finds: "13", Share: "100.0%", PerThousand: "3.258"},
	}
	if len(p.Arms) != len(want) {
		t.Fatalf("arms %+v, want %+v", p.Arms, want)
	}
	for i := range want {
		if p.Arms[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, p.Arms[i], want[i])
		}
	}
	var b bytes.Buffer
	if err := Render(&b, f.options("")); err != nil {
		t.Fatal(err)
	}
	text, _ := checkWellFormed(t, b.String())
	if !strings.Contains(text, "Arms of the adaptive engine") || !strings.Contains(text, "4.013") {
		t.Errorf("report without the arms table:\n%s", text)
	}
	const shareText = "Half of the children's cost (the bytes they read, plus 32 each) is fresh random generation"
	if !p.ArmsShare || !strings.Contains(text, shareText) {
		t.Errorf("a run with a generation share: the report does not say so (ArmsShare %v)", p.ArmsShare)
	}
	if strings.Contains(text, "generation first") {
		t.Error("a run without generation first: the report mentions it")
	}
	// Generation first made the first 2,500 children, then ended: the
	// report says so; while it has not ended, it says that instead.
	for _, c := range []struct{ ended, want, not string }{
		{"1", "Generation first made the first 2,500 children: fresh random generation, outside the decisions, until generation stopped finding new edges. After them, half of the children's cost", "had not ended"},
		{"0", "Generation first made all 2,500 children: fresh random generation, outside the decisions, until generation stops finding new edges; it had not ended.", "After them"},
	} {
		write(t, filepath.Join(f.workdir, "stats"), "target: FuzzFixture\nengine: auto\nexecs: 2500\n"+
			"arms: zest,random\narms_parents: turns\narm_random_chosen: 0\narm_random_execs: 2500\narm_random_finds: 3\n"+
			"arm_random_share: 2500\narm_random_first: 2500\narm_random_first_ended: "+c.ended+"\n")
		b.Reset()
		if err := Render(&b, f.options("")); err != nil {
			t.Fatal(err)
		}
		if text, _ := checkWellFormed(t, b.String()); !strings.Contains(text, c.want) || strings.Contains(text, c.not) {
			t.Errorf("generation first ended %s: the report does not say %q (or says %q):\n%s", c.ended, c.want, c.not, text)
		}
	}
	// A run without the share (GFZ_AUTO_ARMS without random) does not
	// mention it.
	write(t, filepath.Join(f.workdir, "stats"), "target: FuzzFixture\nengine: auto\nexecs: 10\narms: zest\narms_parents: turns\n"+
		"arm_zest_chosen: 10\narm_zest_execs: 10\narm_zest_finds: 1\narm_turns_chosen: 1\narm_turns_execs: 10\narm_turns_finds: 1\n")
	b.Reset()
	if err := Render(&b, f.options("")); err != nil {
		t.Fatal(err)
	}
	if text, _ := checkWellFormed(t, b.String()); strings.Contains(text, shareText) {
		t.Error("a run without a generation share: the report mentions one")
	}

	write(t, filepath.Join(f.workdir, "stats"), "target: FuzzFixture\nengine: zest\n")
	if p := build(f.options("")); len(p.Arms) != 0 {
		t.Errorf("zest run: arms %+v", p.Arms)
	}
}
