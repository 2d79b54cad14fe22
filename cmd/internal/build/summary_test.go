package build

import "testing"

// TestProbeSummaryPlurals: one package, one probe, one more module are
// singular.
func TestProbeSummaryPlurals(t *testing.T) {
	one := ProbeSummary([]InstrumentedPackage{{Probes: 1}}, []ModuleProbes{{Module: "example.com/m", Probes: 1}}, nil)
	if want := "instrumented 1 package, 1 probe: example.com/m 1"; one != want {
		t.Errorf("%q, want %q", one, want)
	}
	mods := []ModuleProbes{{"a", 1, 1}, {"b", 1, 1}, {"c", 1, 1}, {"d", 1, 1}, {"e", 1, 2}}
	five := ProbeSummary([]InstrumentedPackage{{Probes: 3}, {Probes: 3}}, mods, nil)
	if want := "instrumented 2 packages, 6 probes: a 1, b 1, c 1, d 1, 1 more module (-v lists them)"; five != want {
		t.Errorf("%q, want %q", five, want)
	}
}
