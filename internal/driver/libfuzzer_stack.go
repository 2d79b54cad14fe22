package driver

// The Go stack in the libFuzzer crash block, in the form ClusterFuzz's
// crash parser reads (its Go frame pattern is a function line ending in an
// argument list of hex words: "pkg.F(0x1, {0x2, 0x3})"; it takes the crash
// state, by which it tells one bug from another, from the first frames it
// recognises). Measured with ClusterFuzz's stack_analyzer on gfz's output
// (docs/CLUSTERFUZZ.md): without this, a t.Fatal failure's state was NULL
// (gfz's own stacks have no argument lists) and a hang's state was gfz's
// stack dumper, the same for every hang.

import (
	"reflect"
	"regexp"
	"strings"

	"github.com/gfz-dev/gfz/internal/signature"
)

// frameArgsRE is the argument list that ends a frame's function line
// (arguments hold no parentheses; a method's receiver comes before).
var frameArgsRE = regexp.MustCompile(`\([^()]*\)$`)

// gfzRootPrefix starts the frames of gfz's root package, which runs the
// fuzz function: "github.com/gfz-dev/gfz.run(...)".
var gfzRootPrefix = strings.TrimSuffix(reflect.TypeOf(config{}).PkgPath(), "/internal/driver") + "."

// clusterFuzzStack rewrites a Go stack for ClusterFuzz's parser: every
// frame's argument list becomes "(...)", as the Go runtime prints it for
// an inlined call (the parser does not take "0x1?" arguments, nor a frame
// without a list), and in a dump of several goroutines the one running the
// fuzz target comes first.
func clusterFuzzStack(st string) string {
	blocks := strings.Split(st, "\n\n")
	// The target's goroutine: the one running the fuzz function (a native
	// target's, not the engine's waiting for it), else the first holding a
	// frame of gfz's root package.
	fuzzHead := signature.FuzzGoroutine(st)
	first, target, rooted := -1, -1, -1
	for i, b := range blocks {
		if !strings.HasPrefix(b, "goroutine ") {
			continue
		}
		if first < 0 {
			first = i
		}
		if target < 0 && fuzzHead != "" && strings.HasPrefix(b, fuzzHead+"\n") {
			target = i
		}
		if rooted < 0 && strings.Contains("\n"+b, "\n"+gfzRootPrefix) {
			rooted = i
		}
	}
	if target < 0 {
		target = rooted
	}
	if target > first && first >= 0 {
		b := blocks[target]
		copy(blocks[first+1:target+1], blocks[first:target])
		blocks[first] = b
	}
	lines := strings.Split(strings.Join(blocks, "\n\n"), "\n")
	for i := 0; i+1 < len(lines); i++ {
		l := lines[i]
		if l == "" || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, " ") || strings.HasPrefix(l, "created by ") ||
			!strings.HasPrefix(lines[i+1], "\t") {
			continue
		}
		if loc := frameArgsRE.FindStringIndex(l); loc != nil {
			l = l[:loc[0]]
		}
		lines[i] = l + "(...)"
	}
	return strings.Join(lines, "\n")
}
