// Package callsite finds, cheaply, where a function was called from. The
// generators package uses it to tell apart two calls of the same generator
// made at different places of a fuzz function (the call-site part of an
// execution index, see package param).
//
// Caller, called directly by a function F that the compiler does not
// inline (mark F //go:noinline), returns the return address of F's frame:
// a program counter in F's caller just after the call of F. Two calls of F
// at different places of the source give different values; calls of F from
// the same place (a loop) give the same value. The value is stable for the
// life of the process. On amd64 it reads the frame pointer (a few
// nanoseconds); elsewhere it asks runtime.Callers (about a hundred).
package callsite
