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

// Classify replaces every count in m by its Bucket, in place. It reads m
// eight bytes at a time and skips all-zero words, so its cost is dominated
// by the sparse non-zero part of the map. Call it as Classify(Map[:]).
func Classify(m []uint8) {
	i := 0
	for ; i+8 <= len(m); i += 8 {
		w := m[i : i+8 : i+8]
		// Little-endian combine: compiled to a single 8-byte load.
		if uint64(w[0])|uint64(w[1])<<8|uint64(w[2])<<16|uint64(w[3])<<24|
			uint64(w[4])<<32|uint64(w[5])<<40|uint64(w[6])<<48|uint64(w[7])<<56 == 0 {
			continue
		}
		for j, c := range w {
			w[j] = bucketTable[c]
		}
	}
	for ; i < len(m); i++ {
		m[i] = bucketTable[m[i]]
	}
}
