package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// CronConfig tunes CronSpec.
type CronConfig struct {
	// Fields is the number of time fields of a spec that is not a
	// descriptor: 5 (minute, hour, day of month, month, day of week), 6
	// (a seconds field first, as Quartz has it), or 0: either, half of
	// the time each (a parser whose seconds field is optional).
	Fields int
	// Zones are the time zone names of the optional CRON_TZ= or TZ=
	// prefix; empty: a list of IANA names.
	Zones       []string
	MistakesPer int // per mille of specs passed through Corrupt; default 0
}

func (c CronConfig) withDefaults() CronConfig {
	if len(c.Zones) == 0 {
		c.Zones = []string{"UTC", "Local", "Asia/Tokyo", "America/New_York", "Europe/Berlin", "Europe/London",
			"America/Los_Angeles", "America/Sao_Paulo", "Australia/Sydney", "Asia/Kolkata", "Pacific/Auckland",
			"Africa/Johannesburg", "Asia/Kathmandu", "America/St_Johns", "Europe/Dublin", "Asia/Tehran",
			"America/Havana", "Pacific/Chatham", "Etc/GMT+5", "EST5EDT"}
	}
	return c
}

// cronBounds is one time field: its range and, for months and days of
// the week, the three-letter names the field also accepts.
type cronBounds struct {
	min, max int
	names    []string // names[i] stands for min+i
	question bool     // '?' allowed (day of month, day of week)
}

var (
	cronSecond = cronBounds{min: 0, max: 59}
	cronMinute = cronBounds{min: 0, max: 59}
	cronHour   = cronBounds{min: 0, max: 23}
	cronDom    = cronBounds{min: 1, max: 31, question: true}
	cronMonth  = cronBounds{min: 1, max: 12, names: []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}}
	cronDow    = cronBounds{min: 0, max: 6, names: []string{"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}, question: true}

	// cronBlank separates fields: crontab fields are separated by blanks,
	// spaces or tabs, one or more.
	cronBlank = gen.OneOfWeighted(
		gen.W(14, gen.Just(" ")),
		gen.W(2, gen.Tokens("  ", "\t", " \t", "\t\t")),
	)
	cronDescriptors = gen.OneOfWeighted(
		gen.W(8, gen.Tokens("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly")),
		gen.W(1, gen.Tokens("@reboot", "@Daily", "@HOURLY", "@every", "@")),
	)
	cronDurationUnits = gen.OneOfWeighted(
		gen.W(8, gen.Tokens("h", "m", "s")),
		gen.W(1, gen.Tokens("ms", "us", "µs", "ns", "d", "")),
	)
)

type cronWriter struct {
	t   *gfz.T
	cfg CronConfig
}

// value draws one value of the field and the number it stands for: a
// number in its range mostly (with a leading zero sometimes), a name in
// any case where the field has names, now and then a number just outside
// the range.
func (w *cronWriter) value(b cronBounds) (string, int) {
	if len(b.names) > 0 && gen.IntRange(0, 2).Draw(w.t) == 0 {
		i := gen.IntRange(0, len(b.names)-1).Draw(w.t)
		n := b.names[i]
		switch gen.IntRange(0, 3).Draw(w.t) {
		case 0:
			n = strings.ToLower(n)
		case 1:
			n = n[:1] + strings.ToLower(n[1:])
		}
		return n, b.min + i
	}
	var v int
	switch gen.IntRange(0, 39).Draw(w.t) {
	case 0:
		v = b.max + gen.IntRange(1, 12).Draw(w.t)
	case 1:
		v = max(0, b.min-1)
	default:
		v = gen.IntRange(b.min, b.max).Draw(w.t)
	}
	if v < 10 && gen.IntRange(0, 9).Draw(w.t) == 0 {
		return "0" + itoa(v), v
	}
	return itoa(v), v
}

// rng draws a range low-high, in that order most of the time.
func (w *cronWriter) rng(b cronBounds) string {
	lo, l := w.value(b)
	hi, h := w.value(b)
	if l > h && gen.IntRange(0, 9).Draw(w.t) > 0 {
		lo, hi = hi, lo
	}
	return lo + "-" + hi
}

// step draws an increment: mostly a divisor-like small number, sometimes
// any up to the field's size, rarely 0.
func (w *cronWriter) step(b cronBounds) string {
	switch gen.IntRange(0, 9).Draw(w.t) {
	case 0:
		return itoa(gen.IntRange(0, b.max+2).Draw(w.t))
	case 1, 2:
		return itoa(gen.IntRange(1, b.max).Draw(w.t))
	default:
		return gen.Tokens("2", "3", "4", "5", "6", "10", "15", "20", "30").Draw(w.t)
	}
}

// item draws one element of a field's list: '*', '?', a value, a range,
// or one of them with an increment.
func (w *cronWriter) item(b cronBounds) string {
	switch gen.IntRange(0, 13).Draw(w.t) {
	case 0, 1, 2:
		return "*"
	case 3:
		if b.question {
			return "?"
		}
		return "*"
	case 4, 5, 6, 7:
		v, _ := w.value(b)
		return v
	case 8, 9:
		return w.rng(b)
	case 10, 11:
		return "*/" + w.step(b)
	case 12:
		return w.rng(b) + "/" + w.step(b)
	default:
		v, _ := w.value(b)
		return v + "/" + w.step(b)
	}
}

// field draws a field: one item, or a comma-separated list of them.
func (w *cronWriter) field(b cronBounds) string {
	if gen.IntRange(0, 3).Draw(w.t) > 0 {
		return w.item(b)
	}
	parts := []string{w.item(b)}
	for range gen.IntRange(1, 3).Draw(w.t) {
		parts = append(parts, w.item(b))
	}
	return join(parts, ",")
}

// duration draws a time.ParseDuration string: one to three number-unit
// pairs (decimal numbers sometimes, a sign rarely), or a bare 0.
func (w *cronWriter) duration() string {
	if gen.IntRange(0, 29).Draw(w.t) == 0 {
		return "0"
	}
	var b strings.Builder
	if gen.IntRange(0, 19).Draw(w.t) == 0 {
		b.WriteString(gen.Tokens("-", "+").Draw(w.t))
	}
	for range gen.IntRange(1, 3).Draw(w.t) {
		b.WriteString(itoa(gen.IntRange(0, 90).Draw(w.t)))
		if gen.IntRange(0, 9).Draw(w.t) == 0 {
			b.WriteString("." + itoa(gen.IntRange(0, 99).Draw(w.t)))
		}
		b.WriteString(cronDurationUnits.Draw(w.t))
	}
	return b.String()
}

// schedule draws the spec without its time zone: a descriptor, an
// interval, or the time fields.
func (w *cronWriter) schedule() string {
	switch gen.IntRange(0, 11).Draw(w.t) {
	case 0:
		return cronDescriptors.Draw(w.t)
	case 1:
		return "@every " + w.duration()
	}
	fields := []cronBounds{cronMinute, cronHour, cronDom, cronMonth, cronDow}
	n := w.cfg.Fields
	if n != 5 && n != 6 {
		n = 5 + gen.IntRange(0, 1).Draw(w.t)
	}
	if n == 6 {
		fields = append([]cronBounds{cronSecond}, fields...)
	}
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteString(cronBlank.Draw(w.t))
		}
		b.WriteString(w.field(f))
	}
	return b.String()
}

// zone draws the name of the time zone prefix: one of the configured
// names mostly, else a misspelt or unknown one.
func (w *cronWriter) zone() string {
	if gen.IntRange(0, 11).Draw(w.t) > 0 {
		return gen.Tokens(w.cfg.Zones...).Draw(w.t)
	}
	return gen.Tokens("Asia/Tokio", "utc", "Europe/Pari", "America/New York", "GMT+2", "Mars/Olympus_Mons", "").Draw(w.t)
}

// CronSpec generates cron specs as robfig/cron documents them: five time
// fields (minute to day of week) or six (seconds first), each '*', '?'
// (day fields), a value, a range or an increment ("*/15", "3-59/15",
// "N/step"), or a comma-separated list of them, with month and weekday
// names in any case; fields separated by blanks (a tab now and then, as
// crontab allows); the predefined descriptors (@yearly ... @hourly) and
// "@every <duration>" intervals; an optional CRON_TZ= or TZ= prefix with
// a time zone name, as a first blank-separated field. A few values fall
// outside their field's range and a few descriptors or zone names are not
// known; MistakesPer per mille go through Corrupt.
func CronSpec(cfg CronConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &cronWriter{t: t, cfg: cfg}
		s := w.schedule()
		if gen.IntRange(0, 4).Draw(t) == 0 {
			s = gen.OneOfWeighted(gen.W(3, gen.Just("CRON_TZ=")), gen.W(1, gen.Just("TZ="))).Draw(t) + w.zone() + cronBlank.Draw(t) + s
		}
		if gen.IntRange(0, 19).Draw(t) == 0 {
			s += cronBlank.Draw(t)
		}
		return Corrupt(t, s, cfg.MistakesPer)
	})
}
