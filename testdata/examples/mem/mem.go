// Package mem is a gfz example for -feedback mem: a record decoder whose
// allocation is driven by a header field.
//
// Decode reads records: a count byte, then for each record a length byte
// and that many payload bytes. It preallocates each record's buffer from
// the length byte shifted by a scale nibble of the header, without checking
// it against the input's size: a short input can make it allocate
// megabytes. Coverage sees the same code for a small and a huge
// allocation; mem keeps every input that allocates more, and drives the
// scale and lengths up. The fuzz target fails when one input allocates more
// than MaxAlloc bytes for its records.
package mem

// MaxAlloc is the allocation budget the fuzz target checks.
const MaxAlloc = 1 << 20

// Decode decodes data (header, then records) into records and returns
// them with the bytes it allocated for them.
func Decode(data []byte) (records [][]byte, allocated int) {
	if len(data) < 2 {
		return nil, 0
	}
	scale := uint(data[0] & 0x0f) // the header's scale nibble
	count := int(data[1])
	data = data[2:]
	for range count {
		if len(data) == 0 {
			break
		}
		n := int(data[0]) << scale
		data = data[1:]
		buf := make([]byte, 0, n) // trusts the header: the planted flaw
		allocated += n
		take := min(n, len(data))
		buf = append(buf, data[:take]...)
		data = data[take:]
		records = append(records, buf)
	}
	return records, allocated
}
