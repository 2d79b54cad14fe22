// Package crontzprefix pins github.com/robfig/cron/v3 v3.0.1, whose spec
// parser panics (slice bounds out of range [:-1]) on a spec that starts
// with the CRON_TZ= or TZ= time zone prefix and holds no space: Parse
// looks for the space that ends the prefix with strings.Index and slices
// the zone name up to it without checking for -1, so "TZ=0" (issue #554),
// "TZ=TZ=TZ=" (issue #470), a prefix alone ("CRON_TZ=Asia/Tokyo") or a
// spec whose fields are separated by tabs only crash the caller instead
// of returning an error. Every parser is affected (ParseStandard, the
// parsers of cron.New and its options, NewParser's). v3.0.1 is the latest
// release and the project is unmaintained: no fixed release exists; the
// open pull requests #365, #555, #566 and #574 all add the missing check
// of the index (return an error when there is no space):
// https://github.com/robfig/cron/issues/554
//
// A parser bug on a near miss: a spec with a time zone prefix cut before
// its fields, or with tabs for blanks.
package crontzprefix

import (
	"time"
	_ "time/tzdata" // the same zones on every machine

	"example.com/bugkit"
	"github.com/robfig/cron/v3"
)

// Issue is the upstream report (issue #470 reported the same panic first,
// on v3.0.0).
const Issue = "https://github.com/robfig/cron/issues/554"

// Site is the slicing of the zone name in Parser.Parse (parser.go:99),
// any caller (ParseStandard, Cron.AddFunc and AddJob, a parser of one's
// own).
var Site = bugkit.Site{Func: "github.com/robfig/cron/v3.Parser.Parse", File: "parser.go", Lines: []int{99}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Start is the fixed instant the activations are computed from (the eve
// of a daylight-saving change in Europe, so that zoned schedules cross
// one).
var Start = time.Date(2024, time.March, 30, 22, 15, 30, 0, time.UTC)

// Activations is how many activation times Upcoming computes.
const Activations = 5

// Upcoming does what a scheduler does with a user's spec: it adds a job
// on the spec to a Cron whose parser takes an optional seconds field and
// the descriptors (the package documentation's "Alternative Formats"
// parser, which accepts both 5 and 6 fields), in UTC, and returns the
// job's next activation times after Start (fewer when the schedule is
// never satisfied).
func Upcoming(spec string) ([]time.Time, error) {
	c := cron.New(
		cron.WithParser(cron.NewParser(cron.SecondOptional|cron.Minute|cron.Hour|cron.Dom|cron.Month|cron.Dow|cron.Descriptor)),
		cron.WithLocation(time.UTC),
	)
	id, err := c.AddFunc(spec, func() {})
	if err != nil {
		return nil, err
	}
	sched := c.Entry(id).Schedule
	var times []time.Time
	t := Start
	for range Activations {
		t = sched.Next(t)
		if t.IsZero() {
			break
		}
		times = append(times, t)
	}
	return times, nil
}
