//go:build unix

package engine

// appendInput publishes the bytes of a guided execution as they are drawn:
// data is the whole sequence so far, of which the first have bytes are
// already in the file. A worker that crashes or hangs mid-execution
// leaves the prefix it drew, which replays the same way (shm.current).
// The length is written with a plain store (put), as begin writes it: the
// supervisor reads it only after the worker has exited.
func (s *shm) appendInput(data []byte, have int) {
	if len(data) > s.capacity() {
		data = data[:s.capacity()]
	}
	if have < len(data) {
		copy(s.mem[shmHeader+have:], data[have:])
	}
	s.put(offLen, uint64(len(data)))
}
