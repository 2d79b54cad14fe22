package gfz

import (
	"math"
	"strings"
	"testing"
	"time"
)

type fnode struct {
	Key         int
	Left, Right *fnode
	name        string
}

type month int

type dur struct {
	D time.Duration
	m month
}

type ring struct {
	Next *ring
}

func TestFormatValue(t *testing.T) {
	loop := &ring{}
	loop.Next = loop
	var nilMap map[string]int
	cases := []struct {
		v    any
		want string
	}{
		{nil, "nil"},
		{42, "42"},
		{-3, "-3"},
		{true, "true"},
		{1.5, "1.5"},
		{"a\"b\n", `"a\"b\n"`},
		{[]int{1, 2}, "[]int{1, 2}"},
		{[]int(nil), "[]int(nil)"},
		{[]byte{0, 255}, "[]byte{0x0, 0xff}"},
		{[2]bool{true, false}, "[2]bool{true, false}"},
		{map[string]int{"b": 2, "a": 1, "c": 3}, `map[string]int{"a":1, "b":2, "c":3}`},
		{nilMap, "map[string]int(nil)"},
		{&fnode{Key: 2, Left: &fnode{Key: 1}, name: "x"},
			`&gfz.fnode{Key:2, Left:&gfz.fnode{Key:1, Left:(*gfz.fnode)(nil), Right:(*gfz.fnode)(nil), name:""}, Right:(*gfz.fnode)(nil), name:"x"}`},
		{loop, "&gfz.ring{Next:<cycle>}"},
		{[]any{1, "x", nil}, `[]interface {}{1, "x", nil}`},
		{func() {}, "(func())(...)"},
		{time.Duration(1500) * time.Millisecond, "time.Duration(1500000000) /* 1.5s */"},
		{[]time.Duration{-1}, "[]time.Duration{time.Duration(-1) /* -1ns */}"},
		{dur{D: 2, m: 3}, "gfz.dur{D:time.Duration(2) /* 2ns */, m:gfz.month(3)}"},
		{[]any{int8(-3), uint(4), float32(0.5), 'x', byte(1), 2.5, "s", true}, `[]interface {}{int8(-3), uint(4), float32(0.5), int32(120), uint8(0x1), 2.5, "s", true}`},
		{[]float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0}, "[]float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0}"},
		{complex(math.Inf(1), 1), "complex(math.Inf(1), 1)"},
		{map[int]bool{10: true, 9: false, -1: true}, "map[int]bool{-1:true, 9:false, 10:true}"},
		{"package p\n\nfunc f() {}\n", "`package p\n\nfunc f() {}\n`"},
		{"two\nlines with `tick`", `"two\nlines with ` + "`tick`" + `"`},
		{"bad\x00\nline", `"bad\x00\nline"`},
		{(chan int)(nil), "(chan int)(nil)"},
	}
	for _, c := range cases {
		if got := formatValue(c.v); got != c.want {
			t.Errorf("formatValue(%T) = %s, want %s", c.v, got, c.want)
		}
	}
	// A shared (not cyclic) pointer is printed at each use.
	shared := &fnode{Key: 7}
	if got := formatValue([]*fnode{shared, shared}); strings.Count(got, "Key:7") != 2 {
		t.Errorf("shared pointer: %s", got)
	}
	// Huge values are capped.
	if got := formatValue(make([]int, 1<<16)); len(got) > maxFormatLen+10 {
		t.Errorf("output of %d bytes not capped", len(got))
	}
}

// TestFormatNaNKeysOrdered: map keys that print alike (NaNs) are ordered
// by their values, so the text does not depend on the map's iteration
// order.
func TestFormatNaNKeysOrdered(t *testing.T) {
	m := map[float64]int{math.NaN(): 2, math.NaN(): 1, math.NaN(): 3, 0: 0}
	want := formatValue(m)
	if !strings.Contains(want, "math.NaN():1, math.NaN():2, math.NaN():3") {
		t.Fatalf("format %s: NaN keys not ordered by value", want)
	}
	for range 50 {
		if got := formatValue(m); got != want {
			t.Fatalf("format changed between calls: %s, then %s", want, got)
		}
	}
}
