// Package gotoml2count is go-toml v2.0.0-beta.3's datetime bug (issue 585) with
// a counter of the fuzz function's calls: the count is written to
// $SHALLOW_COUNT when the bug's panic happens. Other panics are recovered
// (both fuzzers then keep going). The counter lives in a file mapped into
// memory ($SHALLOW_COUNT.calls), so that it counts across the restarts of
// a worker that died (out of memory, a stack overflow).
package gotoml2count

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/pelletier/go-toml/v2"
)

var calls = func() *int64 {
	if p := os.Getenv("SHALLOW_COUNT"); p != "" {
		if f, err := os.OpenFile(p+".calls", os.O_RDWR|os.O_CREATE, 0o644); err == nil {
			f.Truncate(8)
			if b, err := syscall.Mmap(int(f.Fd()), 0, 8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED); err == nil {
				return (*int64)(unsafe.Pointer(&b[0]))
			}
		}
	}
	return new(int64)
}()

func Decode(doc []byte) (err error) {
	n := atomic.AddInt64(calls, 1)
	defer func() {
		if r := recover(); r != nil {
			if strings.Contains(fmt.Sprint(r), "slice bounds out of range") && strings.Contains(string(debug.Stack()), "scanDateTime") {
				if p := os.Getenv("SHALLOW_COUNT"); p != "" {
					if f, e := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); e == nil {
						fmt.Fprintf(f, "datetime %d\n", n)
						f.Close()
					}
				}
				panic(r)
			}
			err = fmt.Errorf("other panic: %v", r)
		}
	}()
	var v any
	return toml.Unmarshal(doc, &v)
}
