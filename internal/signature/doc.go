// Package signature names failures: the deduplication key of a failure
// (its kind and the top frames of the user's code), its site, the kind of
// death of a process that ran a fuzz target (from the tail of its stderr
// and its exit state), and the stack-frame rules both use: which frames
// are the user's, and which are standard-library helpers that are never a
// failure's site (std.go).
//
// The same rules apply whether a failure was caught in the process that
// ran the target (frames from runtime.Callers) or by the supervisor (frames
// parsed from the trace the Go runtime printed), so that one bug gets one
// signature however it was caught.
package signature
