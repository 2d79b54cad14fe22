//go:build !unix

package engine

import "errors"

var errNoShm = errors.New("engine: worker processes need a Unix system (mmap)")

type shm struct{}

func createShm(path string, maxInput int) (*shm, error)       { return nil, errNoShm }
func openShm(path string) (*shm, error)                       { return nil, errNoShm }
func (s *shm) close()                                         {}
func (s *shm) store(off int, v uint64)                        {}
func (s *shm) load(off int) uint64                            { return 0 }
func (s *shm) begin(n, seq uint64, params []byte, ext uint64) {}
func (s *shm) end(n, execs uint64)                            {}
func (s *shm) put(off int, v uint64)                          {}
func (s *shm) reset()                                         {}
func (s *shm) current() ([]byte, uint64, uint64, bool)        { return nil, 0, 0, false }

func (s *shm) appendInput(data []byte, have int) {}
