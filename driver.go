package gfz

import (
	"github.com/gfz-dev/gfz/internal/driver"
	"github.com/gfz-dev/gfz/internal/engine"
)

// Exit statuses of a fuzz binary.
const (
	ExitOK      = driver.ExitOK      // nothing failed
	ExitFailure = driver.ExitFailure // a failure was found (or a -repro input failed)
	ExitUsage   = driver.ExitUsage   // usage or setup error
)

// The fuzz binary's driver (package internal/driver) runs its command line.
// This init stays in package gfz because it must run in every test binary
// that uses gfz, before the testing package parses its flags (the driver
// rewrites os.Args in a worker), and because gfz-build sets buildInfo, a
// variable of this package, with -ldflags -X.
func init() {
	driver.Init(buildInfo)
}

// target is a fuzz function as the driver runs it.
type target struct{ fn func(*T) }

func (tg target) Executor() engine.Executor { return newExecutor(tg.fn, 0) }

func (tg target) Repro(onRead func(pos int), onValue func(label, text string)) driver.Repro {
	ex := newExecutor(tg.fn, 0)
	ex.t.eager = true
	ex.t.keepLogs = true
	if onRead != nil {
		ex.src.SetOnRead(onRead)
	}
	ex.t.onNote = onValue
	return reproExecutor{ex}
}

// reproExecutor runs -repro inputs with values formatted as drawn.
type reproExecutor struct{ ex *executor }

func (r reproExecutor) Exec(params []byte) engine.Outcome { return r.ex.Exec(params, 0) }
func (r reproExecutor) Values() string                    { return r.ex.t.Values() }
func (r reproExecutor) Logs() []string                    { return r.ex.t.logs }
