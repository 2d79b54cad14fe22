package gens

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// DateStringConfig tunes DateString.
type DateStringConfig struct {
	MistakesPer int // per mille of strings passed through Corrupt; default 0
}

var (
	dateMonthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August",
		"September", "October", "November", "December"}
	dateDayNames = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

	// dateZoneAbbrevs are zone abbreviations as date strings carry them
	// (time.Parse takes any of them as a name; only a few are known).
	dateZoneAbbrevs = gen.OneOfWeighted(
		gen.W(6, gen.Tokens("UTC", "GMT", "MST", "PST", "PDT", "EST", "EDT", "CST", "CET", "CEST")),
		gen.W(3, gen.Tokens("BST", "JST", "IST", "MSK", "AEST", "AEDT", "NZDT", "HKT", "EET", "WIB")),
		gen.W(1, gen.Tokens("Z", "UT", "CHADT", "AKST", "+08", "-03")),
	)
	// dateZoneLongNames are the descriptive names some writers append in
	// parentheses (JavaScript's Date.toString, mail clients).
	dateZoneLongNames = gen.Tokens("Coordinated Universal Time", "GMT Daylight Time", "Central European Summer Time",
		"Pacific Standard Time", "Eastern Daylight Time", "Japan Standard Time", "India Standard Time")
	dateAMPM = gen.OneOfWeighted(
		gen.W(6, gen.Tokens("AM", "PM")),
		gen.W(3, gen.Tokens("am", "pm")),
		gen.W(1, gen.Tokens("a.m.", "p.m.", "Am", "pM")),
	)
)

type dateWriter struct {
	t *gfz.T
}

func (w dateWriter) n(lo, hi int) int { return gen.IntRange(lo, hi).Draw(w.t) }

// chance is true one time in k.
func (w dateWriter) chance(k int) bool { return w.n(0, k-1) == 0 }

func datePad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

// year draws a four-digit year: mostly recent, sometimes any of the
// Gregorian years a four-digit field holds.
func (w dateWriter) year() int {
	switch w.n(0, 9) {
	case 0:
		return w.n(0, 9999)
	case 1, 2:
		return w.n(1900, 2099)
	default:
		return w.n(1970, 2030)
	}
}

// month draws a month number, now and then one outside 1-12.
func (w dateWriter) month() int {
	if w.chance(40) {
		return w.n(0, 1) * 13
	}
	return w.n(1, 12)
}

// day draws a day of the month for month m: within its length mostly,
// now and then past it or 0.
func (w dateWriter) day(m int) int {
	last := 31
	switch m {
	case 2:
		last = 29
	case 4, 6, 9, 11:
		last = 30
	}
	if w.chance(40) {
		return []int{0, last + 1, 31, 32}[w.n(0, 3)]
	}
	return w.n(1, last)
}

// num writes n with two digits, or without the leading zero now and then.
func (w dateWriter) num(n int) string {
	if n < 10 && w.chance(3) {
		return strconv.Itoa(n)
	}
	return datePad(n, 2)
}

// cased writes a month or day name in full or abbreviated to three letters
// (with a period now and then), in title, lower or upper case.
func (w dateWriter) cased(name string, abbrevOnly bool) string {
	s := name
	if abbrevOnly || w.n(0, 2) > 0 {
		s = name[:3]
		if !abbrevOnly && w.chance(8) {
			s += "."
		}
	}
	switch w.n(0, 9) {
	case 0, 1:
		return strings.ToLower(s)
	case 2:
		return strings.ToUpper(s)
	}
	return s
}

func (w dateWriter) monthName(m int, abbrevOnly bool) string {
	if m < 1 || m > 12 {
		m = w.n(1, 12)
	}
	return w.cased(dateMonthNames[m-1], abbrevOnly)
}

func (w dateWriter) dayName(abbrevOnly bool) string {
	return w.cased(dateDayNames[w.n(0, 6)], abbrevOnly)
}

// ordinal writes a day with its English suffix (1st, 22nd, 13th).
func (w dateWriter) ordinal(d int) string {
	suffix := "th"
	if d%100 < 11 || d%100 > 13 {
		switch d % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	if w.chance(6) {
		suffix = strings.ToUpper(suffix)
	}
	return strconv.Itoa(d) + suffix
}

// frac writes a fraction of a second: 1 to 9 digits after a period, or
// a comma as ISO 8601 allows.
func (w dateWriter) frac() string {
	sep := "."
	if w.chance(8) {
		sep = ","
	}
	return sep + gen.StringFrom("0123456789", 1, 9).Draw(w.t)
}

// clock writes a time of day: hours and minutes, seconds most of the time,
// a fraction sometimes; on a 12-hour clock with AM/PM (attached or after a
// blank) a quarter of the time.
func (w dateWriter) clock() string {
	twelve := w.chance(4)
	var h int
	if twelve {
		h = w.n(1, 12)
	} else {
		h = w.n(0, 23)
		if w.chance(50) {
			h = 24
		}
	}
	var b strings.Builder
	b.WriteString(w.num(h))
	b.WriteString(":" + datePad(w.n(0, 59), 2))
	if w.n(0, 4) > 0 {
		s := w.n(0, 59)
		if w.chance(60) {
			s = 60
		}
		b.WriteString(":" + datePad(s, 2))
		if w.chance(4) {
			b.WriteString(w.frac())
		}
	}
	if twelve {
		if w.chance(3) {
			b.WriteString(dateAMPM.Draw(w.t))
		} else {
			b.WriteString(" " + dateAMPM.Draw(w.t))
		}
	}
	return b.String()
}

// offset writes a numeric UTC offset: +hh:mm, +hhmm or +hh.
func (w dateWriter) offset() string {
	sign := "+"
	if w.chance(2) {
		sign = "-"
	}
	h := w.n(0, 14)
	m := gen.Tokens("00", "00", "00", "30", "45").Draw(w.t)
	switch w.n(0, 5) {
	case 0, 1:
		return sign + datePad(h, 2) + ":" + m
	case 2, 3, 4:
		return sign + datePad(h, 2) + m
	default:
		return sign + datePad(h, 2)
	}
}

// zone writes what may follow a time: nothing, Z, an offset (attached or
// after a blank), a zone abbreviation, both, a GMT/UTC-prefixed offset, or
// one of them with a parenthesised name.
func (w dateWriter) zone() string {
	switch w.n(0, 11) {
	case 0, 1, 2:
		return ""
	case 3:
		return "Z"
	case 4:
		return w.offset()
	case 5, 6:
		return " " + w.offset()
	case 7, 8:
		return " " + dateZoneAbbrevs.Draw(w.t)
	case 9:
		return " " + w.offset() + " " + dateZoneAbbrevs.Draw(w.t)
	case 10:
		return " " + gen.Tokens("GMT", "UTC").Draw(w.t) + w.offset()
	default:
		z := " " + w.offset() + " ("
		if w.chance(2) {
			return z + dateZoneAbbrevs.Draw(w.t) + ")"
		}
		return z + dateZoneLongNames.Draw(w.t) + ")"
	}
}

// iso writes ISO 8601 / RFC 3339 dates and date-times and their common
// relatives: yyyy-mm-dd, yyyy-mm, yyyy, yyyy-Mon-dd, a 'T' or a blank
// before the time, and Go's time.Time.String form (with its monotonic
// clock reading now and then).
func (w dateWriter) iso() string {
	y, m := w.year(), w.month()
	d := w.day(m)
	switch w.n(0, 15) {
	case 0:
		return datePad(y, 4)
	case 1:
		return datePad(y, 4) + "-" + datePad(m, 2)
	case 2:
		return datePad(y, 4) + "-" + w.monthName(m, true) + "-" + datePad(d, 2)
	case 3:
		// time.Time.String: 2006-01-02 15:04:05.999999999 -0700 MST
		s := datePad(y, 4) + "-" + datePad(m, 2) + "-" + datePad(d, 2) + " " + datePad(w.n(0, 23), 2) + ":" +
			datePad(w.n(0, 59), 2) + ":" + datePad(w.n(0, 59), 2)
		if w.chance(2) {
			s += "." + gen.StringFrom("0123456789", 1, 9).Draw(w.t)
		}
		s += " " + strings.ReplaceAll(w.offset(), ":", "") + " " + dateZoneAbbrevs.Draw(w.t)
		if w.chance(3) {
			s += " m=+" + strconv.Itoa(w.n(0, 999)) + "." + datePad(w.n(0, 999999999), 9)
		}
		return s
	}
	date := datePad(y, 4) + "-" + w.num(m) + "-" + w.num(d)
	if w.chance(4) {
		return date + w.zone()
	}
	sep := "T"
	if w.chance(2) {
		sep = " "
	}
	return date + sep + w.clock() + w.zone()
}

// numeric writes all-number dates with '/', '.' or '-' between the fields
// (or ':' as EXIF writes them): month first (US), day first, or year
// first, with a four- or two-digit year, and a time after a blank or a
// comma sometimes.
func (w dateWriter) numeric() string {
	y, m := w.year(), w.month()
	d := w.day(m)
	sep := gen.OneOfWeighted(gen.W(6, gen.Just("/")), gen.W(2, gen.Just(".")), gen.W(2, gen.Just("-"))).Draw(w.t)
	yr := datePad(y, 4)
	if w.chance(3) {
		yr = datePad(y%100, 2)
	}
	var date string
	switch w.n(0, 5) {
	case 0, 1, 2:
		date = w.num(m) + sep + w.num(d) + sep + yr
	case 3:
		date = w.num(d) + sep + w.num(m) + sep + yr
	case 4:
		if w.chance(4) {
			sep = ":"
		}
		date = datePad(y, 4) + sep + w.num(m) + sep + w.num(d)
	default:
		if w.chance(2) {
			return datePad(y, 4) + sep + datePad(m, 2)
		}
		date = datePad(y, 4) + sep + w.num(m) + sep + w.num(d)
	}
	switch w.n(0, 5) {
	case 0, 1, 2:
		return date
	case 3:
		return date + ", " + w.clock()
	default:
		return date + " " + w.clock() + w.zone()
	}
}

// mail writes RFC 5322 (RFC 1123, RFC 822) dates, with or without the day
// of the week, a numeric zone or an abbreviation and now and then a
// comment; or RFC 850's dd-Mon-yy form.
func (w dateWriter) mail() string {
	y, m := w.year(), w.month()
	d := w.day(m)
	if w.chance(5) {
		// RFC 850: Monday, 02-Jan-06 15:04:05 MST
		return w.dayName(false) + ", " + datePad(d, 2) + "-" + w.monthName(m, true) + "-" + datePad(y%100, 2) + " " +
			datePad(w.n(0, 23), 2) + ":" + datePad(w.n(0, 59), 2) + ":" + datePad(w.n(0, 59), 2) + " " + dateZoneAbbrevs.Draw(w.t)
	}
	var b strings.Builder
	if w.n(0, 4) > 0 {
		b.WriteString(w.dayName(true) + ", ")
	}
	b.WriteString(w.num(d) + " " + w.monthName(m, true) + " " + datePad(y, 4))
	if w.chance(6) {
		return b.String()
	}
	b.WriteString(" " + datePad(w.n(0, 23), 2) + ":" + datePad(w.n(0, 59), 2))
	if w.n(0, 5) > 0 {
		b.WriteString(":" + datePad(w.n(0, 59), 2))
	}
	switch w.n(0, 4) {
	case 0:
		b.WriteString(" " + dateZoneAbbrevs.Draw(w.t))
	case 1:
		b.WriteString(" " + strings.ReplaceAll(w.offset(), ":", "") + " (" + dateZoneAbbrevs.Draw(w.t) + ")")
	default:
		b.WriteString(" " + strings.ReplaceAll(w.offset(), ":", ""))
	}
	return b.String()
}

// unixStyle writes the C library's and the shells' forms: asctime (ANSIC,
// the day padded with a blank), date(1) with a zone (UnixDate, RubyDate),
// and JavaScript's Date.toString.
func (w dateWriter) unixStyle() string {
	y, m := w.year(), w.month()
	d := w.day(m)
	clock := datePad(w.n(0, 23), 2) + ":" + datePad(w.n(0, 59), 2) + ":" + datePad(w.n(0, 59), 2)
	if w.chance(8) {
		clock += w.frac()
	}
	day := datePad(d, 2)
	if w.chance(2) && d < 10 {
		day = " " + strconv.Itoa(d)
	}
	head := w.dayName(true) + " " + w.monthName(m, true) + " " + day
	switch w.n(0, 3) {
	case 0:
		return head + " " + clock + " " + datePad(y, 4)
	case 1:
		return head + " " + clock + " " + dateZoneAbbrevs.Draw(w.t) + " " + datePad(y, 4)
	case 2:
		return head + " " + clock + " " + strings.ReplaceAll(w.offset(), ":", "") + " " + datePad(y, 4)
	default:
		s := head + " " + datePad(y, 4)
		if w.chance(5) {
			return s
		}
		s += " " + clock + " " + gen.Tokens("GMT", "UTC").Draw(w.t) + strings.ReplaceAll(w.offset(), ":", "")
		if w.n(0, 3) > 0 {
			s += " (" + dateZoneLongNames.Draw(w.t) + ")"
		}
		return s
	}
}

// prose writes dates with the month's name as people type them: month
// first ("October 7, 1970", "oct. 7th 1970", "Oct 7, '70") or day first
// ("7 October 1970", "03 Feb 2013, 19:17", "12-Feb-2006"), a time after a
// blank, a comma or "at" sometimes; a month and a year ("March 2019"); and
// the Common Log Format's dd/Mon/yyyy:hh:mm:ss -0700.
func (w dateWriter) prose() string {
	y, m := w.year(), w.month()
	d := w.day(m)
	yr := datePad(y, 4)
	if w.chance(6) {
		yr = "'" + datePad(y%100, 2)
	} else if w.chance(8) {
		yr = datePad(y%100, 2)
	}
	var date string
	switch w.n(0, 9) {
	case 0, 1, 2, 3:
		dd := strconv.Itoa(d)
		if w.chance(4) {
			dd = w.ordinal(d)
		}
		sep := ", "
		if w.chance(4) {
			sep = " "
		}
		date = w.monthName(m, false) + " " + dd + sep + yr
	case 4, 5, 6:
		dd := w.num(d)
		if w.chance(6) {
			dd = w.ordinal(d)
		}
		date = dd + " " + w.monthName(m, false) + " " + yr
	case 7:
		date = w.num(d) + "-" + w.monthName(m, true) + "-" + yr
	case 8:
		return w.monthName(m, false) + " " + datePad(y, 4)
	default:
		return datePad(d, 2) + "/" + w.monthName(m, true) + "/" + datePad(y, 4) + ":" + datePad(w.n(0, 23), 2) + ":" +
			datePad(w.n(0, 59), 2) + ":" + datePad(w.n(0, 59), 2) + " " + strings.ReplaceAll(w.offset(), ":", "")
	}
	switch w.n(0, 7) {
	case 0, 1, 2, 3:
		return date
	case 4:
		return date + ", " + w.clock()
	case 5:
		return date + " at " + w.clock() + w.zone()
	default:
		return date + " " + w.clock() + w.zone()
	}
}

// compact writes the digit-only forms: yyyymmdd, yyyymmddhhmmss, the
// MySQL log's yymmdd hh:mm:ss, and Unix timestamps in seconds,
// milliseconds, microseconds or nanoseconds.
func (w dateWriter) compact() string {
	y, m := w.year(), w.month()
	d := w.day(m)
	switch w.n(0, 5) {
	case 0:
		return datePad(y, 4) + datePad(m, 2) + datePad(d, 2)
	case 1:
		return datePad(y, 4) + datePad(m, 2) + datePad(d, 2) + datePad(w.n(0, 23), 2) + datePad(w.n(0, 59), 2) + datePad(w.n(0, 59), 2)
	case 2:
		return datePad(y%100, 2) + datePad(m, 2) + datePad(d, 2) + " " + w.num(w.n(0, 23)) + ":" + datePad(w.n(0, 59), 2) + ":" + datePad(w.n(0, 59), 2)
	}
	secs := strconv.Itoa(w.n(100000000, 2147483647))
	switch w.n(0, 3) {
	case 0:
		return secs
	case 1:
		return secs + datePad(w.n(0, 999), 3)
	case 2:
		return secs + datePad(w.n(0, 999999), 6)
	default:
		return secs + datePad(w.n(0, 999999999), 9)
	}
}

// chinese writes yyyy年mm月dd日 dates, with a time now and then.
func (w dateWriter) chinese() string {
	y, m := w.year(), w.month()
	s := datePad(y, 4) + "年" + w.num(m) + "月" + w.num(w.day(m)) + "日"
	switch w.n(0, 3) {
	case 0:
		return s + " " + datePad(w.n(0, 23), 2) + ":" + datePad(w.n(0, 59), 2) + ":" + datePad(w.n(0, 59), 2)
	case 1:
		return s + " " + w.num(w.n(0, 23)) + "时" + datePad(w.n(0, 59), 2) + "分" + datePad(w.n(0, 59), 2) + "秒"
	}
	return s
}

// DateString generates date and date-time strings in the forms programs
// meet in logs, mail headers, spreadsheets and user input: ISO 8601 / RFC
// 3339 and Go's time.Time.String, all-number dates in month-first,
// day-first and year-first order with '/', '.', '-' or ':', RFC 5322 and
// RFC 850 mail dates, asctime, date(1) and JavaScript Date.toString forms,
// dates with month names (full, abbreviated, any case, ordinal days, '70
// years), the Common Log Format, digit-only dates and Unix timestamps of
// four precisions, and Chinese dates; times on 24- or 12-hour clocks with
// fractions, zones as Z, offsets, abbreviations and parenthesised names. A
// few fields fall outside their ranges; MistakesPer per mille go through
// Corrupt.
func DateString(cfg DateStringConfig) gen.Generator[string] {
	return gen.Custom(func(t *gfz.T) string {
		w := dateWriter{t: t}
		var s string
		switch w.n(0, 19) {
		case 0, 1, 2, 3, 4:
			s = w.iso()
		case 5, 6, 7, 8:
			s = w.numeric()
		case 9, 10, 11:
			s = w.mail()
		case 12, 13:
			s = w.unixStyle()
		case 14, 15, 16:
			s = w.prose()
		case 17, 18:
			s = w.compact()
		default:
			s = w.chinese()
		}
		return Corrupt(t, s, cfg.MistakesPer)
	})
}
