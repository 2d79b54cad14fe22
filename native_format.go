package gfz

import (
	"fmt"

	"github.com/gfz-dev/gfz/internal/driver"
	"github.com/gfz-dev/gfz/internal/formatreg"
	"github.com/gfz-dev/gfz/internal/native"
	"github.com/gfz-dev/gfz/param"
)

// MixFormat implements driver.FormatMixer: it chooses the format generator
// whose near misses the engine mixes into the run (tg.mix, which the
// executor's codec hands to the engine's mutator) and returns the line
// that says so.
//
// With -format auto every []byte and string argument's seed values are
// sniffed (formatreg.Choose) and the argument whose values most look
// like one format, at least two thirds of them, gets that format's
// documents (ties: the first argument); with a format named, the argument
// whose values most look like it (the first []byte or string if none
// does).
func (tg *nativeTarget) MixFormat(format string, seeds [][]byte) string {
	tg.mix = nil
	if format == driver.FormatNone {
		return ""
	}
	var vars []int
	for i, k := range tg.types {
		if k.Variable() {
			vars = append(vars, i)
		}
	}
	if len(vars) == 0 {
		if format != driver.FormatAuto {
			return fmt.Sprintf("-format %s ignored: the fuzz function has no []byte or string argument", format)
		}
		return ""
	}
	if len(formatreg.Registered()) == 0 {
		return "this fuzz binary has no format generators (it was built without github.com/gfz-dev/gfz/generators/formats, which gfz-build imports): no children from a format generator"
	}
	// docs[j]: the seeds' values of argument vars[j].
	docs := make([][][]byte, len(vars))
	for _, s := range seeds {
		args, err := tg.types.DecodeBytes(s)
		if err != nil {
			continue
		}
		for j, i := range vars {
			docs[j] = append(docs[j], args[i].B)
		}
	}
	where := func(j int) string {
		if len(vars) == 1 {
			return ""
		}
		return fmt.Sprintf(" for argument %d (%s)", vars[j]+1, tg.types[vars[j]])
	}
	if format != driver.FormatAuto {
		f, ok := formatreg.Lookup(format)
		if !ok {
			return fmt.Sprintf("-format %s: this fuzz binary has no %s generator: no children from a format generator", format, format)
		}
		best, bestN := 0, -1
		for j := range vars {
			if n, _ := formatreg.Count(f, docs[j]); n > bestN {
				best, bestN = j, n
			}
		}
		tg.setMix(vars[best], f)
		return fmt.Sprintf("mixing in children from the %s generator%s (-format %s)", f.Title, where(best), format)
	}
	best, total := -1, 0
	var choice, near formatreg.Choice // the best choice made; the closest miss
	for j := range vars {
		c := formatreg.Choose(docs[j])
		total = max(total, c.Total)
		switch {
		case c.Format.Name != "" && (best < 0 || c.Matched > choice.Matched):
			best, choice = j, c
		case c.Format.Name == "" && c.Matched > near.Matched:
			near = c
		}
	}
	switch {
	case best >= 0:
		tg.setMix(vars[best], choice.Format)
		return fmt.Sprintf("seeds look like %s (%d of %d)%s: mixing in children from the %s generator; -format none turns it off",
			choice.Format.Title, choice.Matched, choice.Total, where(best), choice.Format.Title)
	case total == 0:
		return "no seeds to recognise a format from: no children from a format generator; -format NAME chooses one"
	case near.Best != "":
		return fmt.Sprintf("seeds look like no one format (at most %d of %d like %s): no children from a format generator; -format NAME chooses one", near.Matched, near.Total, near.Best)
	}
	return "seeds look like none of the formats gfz generates: no children from a format generator; -format NAME chooses one"
}

// setMix makes the run mix in documents of f as argument i.
func (tg *nativeTarget) setMix(i int, f formatreg.Format) {
	tg.mix = &native.Mix{Arg: i, Draw: func(src *param.Source) ([]byte, bool) { return formatreg.Generate(f, src) }}
}
