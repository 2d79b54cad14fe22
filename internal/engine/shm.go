//go:build unix

package engine

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// shm is a mapped shared-memory file.
type shm struct {
	mem []byte
}

// createShm creates (or truncates) the shared-memory file at path with room
// for inputs of up to maxInput bytes and maps it.
func createShm(path string, maxInput int) (*shm, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("engine: create shared memory file: %w", err)
	}
	defer f.Close()
	size := shmHeader + maxInput
	// Written, not truncated to size: a sparse file's pages are allocated
	// when first touched through the mapping, and on a full filesystem
	// that touch is a SIGBUS that kills the supervisor; a write fails
	// with ENOSPC, which is reported.
	if _, err := f.Write(make([]byte, size)); err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			return nil, fmt.Errorf("engine: shared memory file %s: %w: the work directory's filesystem is full; free space there or give -workdir on another filesystem", path, err)
		}
		return nil, fmt.Errorf("engine: size shared memory file %s: %w", path, err)
	}
	s, err := mapShm(f, size)
	if err != nil {
		return nil, err
	}
	s.store(offMagic, shmMagic)
	return s, nil
}

// openShm maps an existing shared-memory file (the worker side).
func openShm(path string) (*shm, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("engine: open shared memory file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("engine: shared memory file: %w", err)
	}
	if st.Size() < shmHeader {
		return nil, fmt.Errorf("engine: shared memory file %s is too small (%d bytes)", path, st.Size())
	}
	s, err := mapShm(f, int(st.Size()))
	if err != nil {
		return nil, err
	}
	if s.load(offMagic) != shmMagic {
		s.close()
		return nil, fmt.Errorf("engine: %s is not a gfz shared memory file", path)
	}
	return s, nil
}

func mapShm(f *os.File, size int) (*shm, error) {
	mem, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("engine: mmap %s: %w", f.Name(), err)
	}
	return &shm{mem: mem}, nil
}

func (s *shm) close() {
	if s != nil && s.mem != nil {
		_ = syscall.Munmap(s.mem)
		s.mem = nil
	}
}

func (s *shm) word(off int) *uint64 { return (*uint64)(unsafe.Pointer(&s.mem[off])) }

func (s *shm) store(off int, v uint64) { atomic.StoreUint64(s.word(off), v) }

func (s *shm) load(off int) uint64 { return atomic.LoadUint64(s.word(off)) }

// capacity is the largest input the file holds.
func (s *shm) capacity() int { return len(s.mem) - shmHeader }

// put is store without the atomic instruction, for the words a worker
// writes on every execution (see shmlayout.go): a plain aligned 64-bit
// store, which the other process sees whole and soon but unordered with
// the worker's other writes. On 32-bit systems, where a plain 64-bit store
// is two stores, it is an atomic store.
func (s *shm) put(off int, v uint64) {
	if unsafe.Sizeof(uintptr(0)) < 8 {
		s.store(off, v)
		return
	}
	*s.word(off) = v
}

// begin publishes execution n of params (with extension seed ext) as
// running, the seq-th execution begun (n repeats after a recheck, which
// is not counted as an execution; seq does not). Its writes are plain (put): the supervisor reads the input,
// its length and seed only after the worker has exited, when every write
// the worker made is visible, and reads the state word live only to see
// it change.
func (s *shm) begin(n, seq uint64, params []byte, ext uint64) {
	l := copy(s.mem[shmHeader:], params)
	s.put(offLen, uint64(l))
	s.put(offExt, ext)
	s.put(offSeq, seq)
	s.put(offState, n<<1|1)
}

// end marks execution n as finished and publishes the worker's execution
// count execs.
func (s *shm) end(n, execs uint64) {
	s.put(offState, n<<1)
	s.put(offExecs, execs)
}

// current returns the last published input (a copy), its extension seed,
// its execution number and whether it was running.
func (s *shm) current() (input []byte, ext uint64, n uint64, running bool) {
	st := s.load(offState)
	l := min(int(s.load(offLen)), s.capacity())
	return append([]byte(nil), s.mem[shmHeader:shmHeader+l]...), s.load(offExt), st >> 1, st&1 != 0
}

// reset zeroes everything but the magic (before a worker incarnation
// starts).
func (s *shm) reset() {
	for off := 8; off < shmHeader; off += 8 {
		s.store(off, 0)
	}
}
