package runtime

// Hit counts are bucketed into AFL's classes before coverage is compared:
//
//	count   0  1  2  3  4-7  8-15  16-31  32-127  128-255
//	bucket  0  1  2  4  8    16    32     64      128
//
// Each class is one bit, so a set of observed classes for an edge is a byte
// and "new class seen" is a single AND-NOT. AFL's classes are used rather
// than Zest's floor(log2(count)) because they are exact for the small counts
// (1, 2, 3) that separate "ran once" from "ran in a loop", coarse for large
// counts where loop trip counts vary without meaning, and because the one-hot
// encoding makes the engine's novelty check branch-free.

// bucketTable maps a raw 8-bit hit count to its class bit.
var bucketTable = func() (t [256]uint8) {
	for c := 1; c < 256; c++ {
		switch {
		case c <= 2:
			t[c] = uint8(c)
		case c == 3:
			t[c] = 4
		case c <= 7:
			t[c] = 8
		case c <= 15:
			t[c] = 16
		case c <= 31:
			t[c] = 32
		case c <= 127:
			t[c] = 64
		default:
			t[c] = 128
		}
	}
	return t
}()

// Bucket returns the hit-count class of a raw count c: 0 for 0, otherwise
// one of the bits 1, 2, 4, 8, 16, 32, 64, 128 for counts 1, 2, 3, 4-7,
// 8-15, 16-31, 32-127 and 128-255.
func Bucket(c uint8) uint8 { return bucketTable[c] }
