package gfz

import (
	"strings"
	"testing"
)

type fnode struct {
	Key         int
	Left, Right *fnode
	name        string
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
