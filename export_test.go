package gfz

import "github.com/gfz-dev/gfz/internal/engine"

// Hooks for the external tests (package gfz_test), whose functions count
// as user code in failure signatures.

// Executor is the fuzz-binary executor over fn.
type Executor = executor

// NewExecutor returns the executor the engine would use for fn.
func NewExecutor(fn func(*T)) *Executor { return newExecutor(fn, 0) }

var _ engine.Executor = (*executor)(nil)
