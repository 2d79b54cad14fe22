package runtime

// Comparison probes (gfz-build -cmp; docs/INSTRUMENT.md, "Comparison
// probes"). gfz-build rewrites x == y (and !=, <, <=, >, >=) on integers
// and strings, and the constant cases of expression switches on integers
// and strings, into calls of per-package helpers that, when CmpOn is set,
// call CmpInt or CmpStr with the site's ID and the two operands, then
// compare as the original code did. A site's score is its number of
// matching bits (integers: width - popcount((a^b) & mask(width))) or
// matching prefix bytes (strings), plus one so that 0 means "not reached".
// CmpMap keeps the maximum score per site for the current execution; the
// engine reads and clears it (the cmp feedback domain). Every time a
// site's score rises within an execution the operands are appended to a
// small table (CmpInts, CmpStrs) that the engine turns into mutation
// tokens, like libFuzzer's table of recent compares.
//
// Like Map, these variables are shared with the code gfz-build adds to
// standard-library packages through //go:linkname (instrument.cmpStdSource):
// change their names, types and layouts together.

// CmpBits is log2 of the number of comparison sites CmpMap distinguishes;
// site IDs are masked to it.
const CmpBits = 12

// CmpSize is the number of entries of CmpMap.
const CmpSize = 1 << CmpBits

// CmpRing is the number of operand pairs of each kind one execution
// records; later ones are dropped until the engine clears the table.
const CmpRing = 64

// CmpStrMax is the number of bytes of a string operand kept in CmpStrs.
const CmpStrMax = 32

// CmpOn turns the comparison probes on. It is false until the engine runs
// with -feedback cmp (or a binary is linked with
// -X github.com/gfz-dev/gfz/runtime.cmpInit=on, which the overhead
// benchmark uses); when it is false a probe costs one load and a branch.
var CmpOn bool

// cmpInit turns CmpOn on at start when set with the linker's -X.
var cmpInit string

func init() {
	if cmpInit != "" {
		CmpOn = true
	}
}

// CmpMap holds, per comparison site (ID & (CmpSize-1)), the best score of
// the current execution (0: not reached).
var CmpMap [CmpSize]uint8

// CmpIntOp is one integer comparison's operands. Width is the operand
// width in bits (8, 16, 32 or 64); signed operands are sign-extended.
type CmpIntOp struct {
	A, B  uint64
	Width uint8
}

// CmpStrOp is one string comparison's operands, truncated to CmpStrMax
// bytes (LenA and LenB are the kept lengths).
type CmpStrOp struct {
	A, B       [CmpStrMax]byte
	LenA, LenB uint8
}

// CmpInts and CmpStrs are the operand tables of the current execution;
// cmpIntN and cmpStrN count the entries recorded (up to CmpRing).
var (
	CmpInts [CmpRing]CmpIntOp
	CmpStrs [CmpRing]CmpStrOp
	cmpIntN uint32
	cmpStrN uint32
)

// popcount64 counts set bits without importing math/bits (the runtime
// imports nothing).
func popcount64(x uint64) int {
	x -= (x >> 1) & 0x5555555555555555
	x = x&0x3333333333333333 + (x>>2)&0x3333333333333333
	x = (x + x>>4) & 0x0f0f0f0f0f0f0f0f
	return int(x * 0x0101010101010101 >> 56)
}

// CmpIntScore is the score of an integer comparison of width bits: one
// plus the number of equal bits of a and b among the low width bits.
func CmpIntScore(width uint8, a, b uint64) uint8 {
	x := a ^ b
	if width < 64 {
		x &= 1<<width - 1
	}
	return width - uint8(popcount64(x)) + 1
}

// CmpStrScore is the score of a string comparison: one plus the length
// of the common prefix of a and b, at most 254.
func CmpStrScore(a, b string) uint8 {
	n := min(len(a), len(b), 253)
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return uint8(i + 1)
}

// CmpInt records an integer comparison at site id (called by the
// instrumented code when CmpOn is set).
//
//go:norace
func CmpInt(id uint32, width uint8, a, b uint64) {
	p := &CmpMap[id&(CmpSize-1)]
	if *p > width { // the site has its best score (equal operands) already
		return
	}
	s := CmpIntScore(width, a, b)
	if s <= *p {
		return
	}
	*p = s
	if n := cmpIntN; n < CmpRing {
		CmpInts[n] = CmpIntOp{A: a, B: b, Width: width}
		cmpIntN = n + 1
	}
}

// CmpStr records a string comparison at site id (called by the
// instrumented code when CmpOn is set).
//
//go:norace
func CmpStr(id uint32, a, b string) {
	p := &CmpMap[id&(CmpSize-1)]
	if int(*p) > min(len(a), len(b), 253) { // no common prefix can score higher
		return
	}
	s := CmpStrScore(a, b)
	if s <= *p {
		return
	}
	*p = s
	if n := cmpStrN; n < CmpRing {
		e := &CmpStrs[n]
		e.LenA = uint8(copy(e.A[:], a))
		e.LenB = uint8(copy(e.B[:], b))
		cmpStrN = n + 1
	}
}

// CmpOperands returns the operand tables of the current execution (the
// slices alias CmpInts and CmpStrs).
func CmpOperands() ([]CmpIntOp, []CmpStrOp) {
	return CmpInts[:min(cmpIntN, CmpRing)], CmpStrs[:min(cmpStrN, CmpRing)]
}

// CmpReset clears CmpMap and the operand tables; the engine calls it
// before every execution when CmpOn is set.
//
//go:norace
func CmpReset() {
	clear(CmpMap[:])
	cmpIntN, cmpStrN = 0, 0
}

// cmpBuilt is set to "1" by gfz-build -cmp with the linker's -X.
var cmpBuilt string

// CmpBuilt reports whether the binary was built by gfz-build -cmp. Unlike
// CmpSites it is known before any package's init runs.
func CmpBuilt() bool { return cmpBuilt != "" }

// cmpSites counts the comparison sites of the registered packages.
var cmpSites int

// RegisterCmp is called from the init code of a package instrumented with
// comparison probes, with its number of comparison sites.
func RegisterCmp(sites int) { cmpSites += sites }

// CmpSites returns the number of comparison sites linked into the binary:
// 0 when it was built without gfz-build -cmp (or its instrumented code
// compares no integers or strings).
func CmpSites() int { return cmpSites }
