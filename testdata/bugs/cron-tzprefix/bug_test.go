package crontzprefix

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/robfig/cron/v3"
)

// FuzzNative is a plain target (the project has no fuzz target): the
// activations of a spec through Upcoming, seeded with specs like those of
// the project's tests and documentation (parser_test.go, doc.go), without
// the time zone prefix: a prefixed seed is one deletion away from the bug.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"0 5 * * * *",
		"5 * * * *",
		"30 3-6,20-23 * * *",
		"0 0 15 */3 *",
		"0 6 * * ?",
		"*/5 * * * * ?",
		"0 30 9 * JAN,jul MON-FRI",
		"3-59/15 * * * *",
		"@every 1h30m",
		"@midnight",
		"@yearly",
		"* 5 j * * *",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		_, _ = Upcoming(spec)
	})
}

// FuzzGfz is the gfz target: specs from the grammar generator (5 or 6
// fields, descriptors, intervals, time zone prefixes), a tenth of them
// with near-miss edits; a spec the parser rejects is an invalid input.
// No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	spec := gens.CronSpec(gens.CronConfig{MistakesPer: 100})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Upcoming(spec.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

func TestReproducer(t *testing.T) {
	// Issue #554's spec, through the scheduler and through ParseStandard
	// as the issue calls it.
	bugkit.ReproducerPanics(t, func() { _, _ = Upcoming("TZ=0") }, "slice bounds out of range", IsBug)
	bugkit.ReproducerPanics(t, func() { _, _ = cron.ParseStandard("TZ=0") }, "slice bounds out of range", IsBug)
	// Issue #470's spec.
	bugkit.ReproducerPanics(t, func() { _, _ = Upcoming("TZ=TZ=TZ=") }, "slice bounds out of range", IsBug)
	// A valid zone and no fields (the pull requests' test rows).
	bugkit.ReproducerPanics(t, func() { _, _ = Upcoming("CRON_TZ=America/Los_Angeles") }, "slice bounds out of range", IsBug)
	// Fields separated by a tab: no space anywhere, the same slicing.
	bugkit.ReproducerPanics(t, func() { _, _ = Upcoming("CRON_TZ=Asia/Tokyo\t@daily") }, "slice bounds out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic of this version
// is not this bug: NewParser's documented panic when both optional fields
// are configured ("multiple optionals may not be configured"; no other
// panic of v3.0.1 is reported).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _ = cron.NewParser(cron.SecondOptional | cron.DowOptional | cron.Minute | cron.Hour) })
	bugkit.RejectsPanic(t, IsBug, nil)
}
