package bugkit

import (
	"runtime"
	"runtime/debug"
	"time"
)

// CatchPanic runs fn and returns the traceback of its panic (debug.Stack
// in the deferred recover, so the panicking frames are in it) and true,
// or "" and false when fn returns.
func CatchPanic(fn func()) (stack string, panicked bool) {
	func() {
		defer func() {
			if r := recover(); r != nil {
				stack = "panic: " + describe(r) + "\n\n" + string(debug.Stack())
				panicked = true
			}
		}()
		fn()
	}()
	return stack, panicked
}

func describe(r any) string {
	if e, ok := r.(error); ok {
		return e.Error()
	}
	if s, ok := r.(string); ok {
		return s
	}
	return "(non-string panic value)"
}

// CatchHang runs fn in a goroutine and waits for it at most wait. When fn
// has not returned by then, it returns a dump of every goroutine (as a
// SIGQUIT or a test timeout prints them) and true; fn's goroutine is left
// running (an infinite loop cannot be stopped), so call it last in a test
// process, or accept the spinning goroutine.
func CatchHang(fn func(), wait time.Duration) (dump string, hung bool) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
		return "", false
	case <-time.After(wait):
	}
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	return string(buf[:n]), true
}
