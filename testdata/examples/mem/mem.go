// Package mem is a gfz example for -feedback mem: a record decoder whose
// allocation is chosen by its input.
//
// Decode makes one record per input byte and preallocates the record's
// buffer from the size class in the byte's low three bits: 16 << class
// bytes, trusting the input. An input allocates more than MaxAlloc only
// when nearly all of its (at most 12) records ask for the largest class.
// Coverage sees the same path whatever the classes; mem sees the bytes
// allocated and keeps every input that asks for more, one record at a
// time. The fuzz target checks the budget.
package mem

// MaxAlloc is the allocation budget the fuzz target checks.
const MaxAlloc = 20_000

// Decode decodes data into records and returns them with the bytes it
// allocated for their buffers.
func Decode(data []byte) (records [][]byte, allocated int) {
	for _, b := range data {
		size := 16 << (b & 7) // the planted trust in the input
		buf := make([]byte, 0, size)
		buf = append(buf, b)
		allocated += size
		records = append(records, buf)
	}
	return records, allocated
}
