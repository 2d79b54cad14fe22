package generators

import (
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/param"
)

// DefaultMaxRepeat bounds the unbounded repetitions (*, + and {n,}) of
// StringMatching: at most this many repetitions beyond the minimum.
const DefaultMaxRepeat = 8

// StringMatching returns a generator of strings that match the regular
// expression re (Go RE2 syntax, as regexp.Compile): the whole string
// matches, i.e. regexp.MustCompile(`^(?:` + re + `)$`) matches every value,
// provided re has no word-boundary (\b, \B) or inner anchor (^, $ other
// than at the start and end of re) assertions: assertions produce no text
// and are not checked. Repetitions without an upper bound (x*, x+, x{n,})
// repeat at most DefaultMaxRepeat times past their minimum.
//
// Byte costs, per node of the parsed syntax tree (regexp/syntax.Parse,
// not simplified, so x{2,4} is one count draw): a literal costs
// nothing; a character class one value draw of BytesFor(size of the class,
// surrogates excluded); . a value draw like Rune (its selector byte
// included; a newline is replaced by a space unless (?s) is set); an
// alternation a structure draw of BytesFor(number of alternatives that
// can match); x{n,m}
// a structure draw of BytesFor(m-n+1) for the count, then the repetitions.
// Parts that match no string (an empty character class such as
// [^\x00-\x{10FFFF}]) are left out: an alternation draws among the
// alternatives that can match, a repetition of such a part repeats it its
// minimum, zero, times. It panics if re does not parse or matches no
// string.
func StringMatching(re string) Generator[string] {
	r, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		panic("generators: StringMatching: " + err.Error())
	}
	if r = viable(r); r == nil {
		panic("generators: StringMatching: " + strconv.Quote(re) + " matches no string")
	}
	return Generator[string]{name: "StringMatching", draw: func(t *gfz.T) string {
		var b strings.Builder
		genRegexp(t, r, &b)
		return b.String()
	}}
}

func genRegexp(t *gfz.T, r *syntax.Regexp, b *strings.Builder) {
	s := t.Source()
	switch r.Op {
	case syntax.OpLiteral:
		b.WriteString(string(r.Rune))
	case syntax.OpCharClass:
		b.WriteRune(pickClass(s, r.Rune))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		c := drawRune(t)
		if c == '\n' && r.Op == syntax.OpAnyCharNotNL {
			c = ' '
		}
		b.WriteRune(c)
	case syntax.OpCapture:
		genRegexp(t, r.Sub[0], b)
	case syntax.OpConcat:
		for _, sub := range r.Sub {
			genRegexp(t, sub, b)
		}
	case syntax.OpAlternate:
		genRegexp(t, r.Sub[s.Uintn(uint64(len(r.Sub)), param.Structure)], b)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := r.Min, r.Max
		switch r.Op {
		case syntax.OpStar:
			lo, hi = 0, -1
		case syntax.OpPlus:
			lo, hi = 1, -1
		case syntax.OpQuest:
			lo, hi = 0, 1
		}
		if hi < 0 {
			hi = lo + DefaultMaxRepeat
		}
		n := s.Range(int64(lo), int64(hi), param.Structure)
		for range n {
			genRegexp(t, r.Sub[0], b)
		}
	default:
		// OpEmptyMatch, OpNoMatch, anchors and word boundaries: no text.
	}
}

// viable returns r without the parts that can match no string (nil when
// r itself cannot): a character class of no rune (surrogates do not
// count), a no-match node, a concatenation holding one, an alternative
// that cannot match (dropped), a repetition of one (repeated zero times
// when that is allowed). r is not changed; changed nodes are copies.
func viable(r *syntax.Regexp) *syntax.Regexp {
	switch r.Op {
	case syntax.OpNoMatch:
		return nil
	case syntax.OpCharClass:
		var total uint64
		for i := 0; i+1 < len(r.Rune); i += 2 {
			total += classSize(r.Rune[i], r.Rune[i+1])
		}
		if total == 0 {
			return nil
		}
		return r
	case syntax.OpCapture, syntax.OpConcat, syntax.OpAlternate:
		subs := make([]*syntax.Regexp, 0, len(r.Sub))
		changed := false
		for _, sub := range r.Sub {
			v := viable(sub)
			if v == nil && r.Op != syntax.OpAlternate {
				return nil
			}
			changed = changed || v != sub
			if v != nil {
				subs = append(subs, v)
			}
		}
		if len(subs) == 0 {
			return nil
		}
		if !changed {
			return r
		}
		c := *r
		c.Sub = subs
		return &c
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		v := viable(r.Sub[0])
		if v == r.Sub[0] {
			return r
		}
		if v == nil {
			if r.Op == syntax.OpPlus || r.Op == syntax.OpRepeat && r.Min > 0 {
				return nil
			}
			return &syntax.Regexp{Op: syntax.OpEmptyMatch}
		}
		c := *r
		c.Sub = []*syntax.Regexp{v}
		return &c
	}
	return r
}

// pickClass picks a rune of the class given as sorted [lo, hi] pairs,
// skipping surrogates.
func pickClass(s *param.Source, ranges []rune) rune {
	var total uint64
	for i := 0; i < len(ranges); i += 2 {
		total += classSize(ranges[i], ranges[i+1])
	}
	if total == 0 {
		return unicode.ReplacementChar
	}
	x := s.Uintn(total, param.Value)
	for i := 0; i < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		n := classSize(lo, hi)
		if x >= n {
			x -= n
			continue
		}
		r := lo + rune(x)
		if lo < 0xD800 && r >= 0xD800 {
			r += 0x800
		} else if lo >= 0xD800 && lo <= 0xDFFF {
			r = 0xE000 + rune(x)
		}
		return r
	}
	panic("unreachable")
}

// classSize is the number of non-surrogate runes in [lo, hi].
func classSize(lo, hi rune) uint64 {
	n := uint64(hi-lo) + 1
	a, z := max(lo, 0xD800), min(hi, 0xDFFF)
	if a <= z {
		n -= uint64(z-a) + 1
	}
	return n
}
