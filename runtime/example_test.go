package runtime_test

import (
	"fmt"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// blocks stands for an instrumented package's block-coverage table (the
// slice its init code passes to Register): one byte per probe.
var blocks [3]uint8

// abs is abs as gfz-build instruments it: a probe at the function's entry
// and one at each branch arm, each with its own ID.
func abs(x int) int {
	gfzrt.Hit(0x10, &blocks[0])
	if x < 0 {
		gfzrt.Hit(0x21, &blocks[1])
		return -x
	}
	gfzrt.Hit(0x32, &blocks[2])
	return x
}

// edges returns the edges hit in the current execution with their counts.
func edges() []string {
	var out []string
	for i, c := range gfzrt.Map {
		if c != 0 {
			out = append(out, fmt.Sprintf("%#x:%d", i, c))
		}
	}
	return out
}

// Bucket sorts raw hit counts into AFL's eight classes, one bit each.
func ExampleBucket() {
	for _, c := range []uint8{0, 1, 2, 3, 4, 7, 8, 16, 32, 127, 128, 255} {
		fmt.Printf("%d:%d ", c, gfzrt.Bucket(c))
	}
	fmt.Println()
	// Output:
	// 0:0 1:1 2:2 3:4 4:8 7:8 8:16 16:32 32:64 127:64 128:128 255:128
}

// Each probe counts the edge from the previous probe in Map and marks its block byte.
func ExampleHit() {
	gfzrt.Reset()
	defer gfzrt.Reset()
	abs(-2)
	abs(5)
	fmt.Println(edges())
	fmt.Println(blocks)
	// Output:
	// [0x0:1 0x10:1 0x29:1 0x3a:1]
	// [1 1 1]
}

// The engine reads each edge's Count and Bucket: a loop probe hit 5 times gives edges counted 1 and 4.
func ExampleCount() {
	gfzrt.Reset()
	defer gfzrt.Reset()
	var block uint8
	for range 5 {
		gfzrt.Hit(0x40, &block)
	}
	for i, c := range gfzrt.Map {
		if c != 0 {
			fmt.Printf("edge %#x: count %d, class %d\n", i, gfzrt.Count(uint32(i)), gfzrt.Bucket(c))
		}
	}
	// Output:
	// edge 0x40: count 1, class 1
	// edge 0x60: count 4, class 8
}

// Reset before each execution: without it counts add up and the first edge changes.
func ExampleReset() {
	gfzrt.Reset()
	defer gfzrt.Reset()
	abs(-2)
	fmt.Println(edges())
	abs(-2)
	fmt.Println(edges())
	gfzrt.Reset()
	abs(-2)
	fmt.Println(edges())
	// Output:
	// [0x10:1 0x29:1]
	// [0x0:1 0x10:1 0x29:2]
	// [0x10:1 0x29:1]
}

// An integer comparison scores one plus its equal bits within the operands' width.
func ExampleCmpIntScore() {
	fmt.Println(gfzrt.CmpIntScore(32, 0xdeadbeef, 0xdeadbeef)) // equal
	fmt.Println(gfzrt.CmpIntScore(32, 0xdeadbeef, 0xdeadbeee)) // one bit off
	fmt.Println(gfzrt.CmpIntScore(8, 0x1ff, 0xff))             // bits above 8 ignored
	fmt.Println(gfzrt.CmpIntScore(8, 0, 0xff))                 // no bit equal
	// Output:
	// 33
	// 32
	// 9
	// 1
}

// A string comparison scores one plus the length of the common prefix.
func ExampleCmpStrScore() {
	fmt.Println(gfzrt.CmpStrScore("GET", "GET"))
	fmt.Println(gfzrt.CmpStrScore("GE", "GET"))
	fmt.Println(gfzrt.CmpStrScore("PUT", "GET"))
	fmt.Println(gfzrt.CmpStrScore("", ""))
	// Output:
	// 4
	// 3
	// 1
	// 1
}

// CmpInt/CmpStr (instrumented code, with CmpOn) keep best scores and the operands of each rise.
func ExampleCmpOperands() {
	gfzrt.CmpReset()
	defer gfzrt.CmpReset()
	gfzrt.CmpInt(3, 16, 0x1200, 0x1234)
	gfzrt.CmpInt(3, 16, 0x1234, 0x1234) // better: recorded
	gfzrt.CmpInt(3, 16, 0, 0x1234)      // worse: not recorded
	gfzrt.CmpStr(9, "GE", "GET")
	fmt.Println(gfzrt.CmpMap[3], gfzrt.CmpMap[9])
	ints, strs := gfzrt.CmpOperands()
	for _, op := range ints {
		fmt.Printf("%#x %#x\n", op.A, op.B)
	}
	for _, op := range strs {
		fmt.Printf("%q %q\n", op.A[:op.LenA], op.B[:op.LenB])
	}
	// Output:
	// 17 3
	// 0x1200 0x1234
	// 0x1234 0x1234
	// "GE" "GET"
}
