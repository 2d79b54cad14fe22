package engine

import "sync/atomic"

// liveShm is the shared memory of the worker running in this process (nil:
// none), for WorkerExiting.
var liveShm atomic.Pointer[shm]

// WorkerExiting tells the supervisor that this worker process is about to
// exit on purpose (the driver's usage error in the middle of an execution,
// such as a native target's unsupported t.Parallel): its end is then not a
// crash of the target's (no failure saved, no restart), but the end of a
// worker whose exit status says what it means. A no-op outside a worker.
func WorkerExiting() {
	if s := liveShm.Load(); s != nil {
		s.store(offPhase, phaseDone)
	}
}
