package engine

// Shared memory between the supervisor and one worker.
//
// The supervisor creates one file per worker slot in the work directory
// (.gfz-worker-<i>.shm) and both processes map it with mmap(MAP_SHARED).
// The worker publishes the input it is about to execute before calling the
// target, so that whatever the process dies of, the supervisor can read the
// input back from the file. Layout (little-endian words, offsets in bytes):
//
//	0    magic        "gfzshm02"
//	8    state        execution number << 1 | 1 while the target runs
//	16   ext          the execution's PRNG extension seed
//	24   len          length of the input
//	32   execs        executions of this worker process
//	40   valid        valid executions
//	48   invalid      invalid executions
//	56   failing      failing executions (in-process failures)
//	64   corpus       inputs in this worker's queue
//	72   total_cov    (edge, class) keys covered
//	80   valid_cov    keys covered by valid inputs
//	88   edges        edges covered
//	96   unstable     edges found unstable (coverage differing between two runs of one input)
//	104  phase        0 not started, 1 engine running, 2 engine finished (exit follows)
//	112  rechecks     re-executions made to check stability
//	120  slowest      worker: its slowest seed/corpus execution at start, in ns (0 until measured)
//	128  worker       supervisor: the worker's slot number
//	136  run_start    supervisor: the campaign's start (Unix ns)
//	144  others       supervisor: the executions of every other worker process of the campaign
//	                  (running or ended) at its last tick, read in the same pass as this worker's
//	152  reserved     (was this worker's executions at that tick: a second word, read apart from
//	                  the first, which made a failure's execution number depend on timing)
//	160  start_rss    worker: its resident memory (bytes) before its first execution
//	168..231          worker: the run's metrics (metrics.go; the block below)
//	232  seq          worker: executions begun (rechecks and re-runs included): the state word
//	                  repeats an execution number after a recheck, so the hang watchdog looks at both
//	240  parent       worker: the trace hash of the parent it makes children of (Config.ResumeAfter
//	                  of its next incarnation; 0 none)
//	248  loop         worker: bit 0 (loopStarted) once its fuzzing loop began (0: still running
//	                  what it replays at start: seeds, corpus entries, calibration); bit 1
//	                  (loopReplayed) once it ran all of its seeds and corpus entries
//	256  input        the input bytes (capacity = file size - 256)
//
// Each word is written by one side (the worker unless marked "supervisor")
// and read with an atomic load by the other. The words a worker writes on
// every execution (state, seq, ext, len, execs, valid, invalid), the input
// bytes and parent are written with plain stores (shm.put): as seven atomic stores
// (each an XCHG on amd64) they cost about a quarter of a bare-loop worker
// execution with a 1 KiB map. The others are written with atomic stores. That is enough because of what the
// supervisor reads while the worker lives: only state and seq, to see
// them change (the hang watchdog), and the counters, for status lines,
// none of which needs an order between words. The input, len, ext and
// parent are read only after
// the worker has exited, when all of its writes are visible in program
// order (a write before the call to the target cannot move past it), so a
// state with the in-exec bit describes the bytes present.
const (
	shmMagic    = 0x3230_6d68_737a_6667 // "gfzshm02"
	shmHeader   = 256
	offMagic    = 0
	offState    = 8
	offExt      = 16
	offLen      = 24
	offExecs    = 32
	offValid    = 40
	offInvalid  = 48
	offFailing  = 56
	offCorpus   = 64
	offTotalCov = 72
	offValidCov = 80
	offEdges    = 88
	offUnstable = 96
	offPhase    = 104
	offRechecks = 112
	offSlowest  = 120
	offWorkerID = 128
	offRunStart = 136
	offOthers   = 144
	offStartRSS = 160
	offSeq      = 232
	offParent   = 240
	offLoop     = 248
)

// Bits of the loop word (offLoop).
const (
	loopStarted  = 1
	loopReplayed = 2
)

// Worker phases (offPhase).
const (
	phaseNone    = 0
	phaseRunning = 1
	phaseDone    = 2
)

// The worker's metrics (metrics.go), published at each status interval and
// at the end of its loop; the Hill numbers and the distance sum are
// float64 bits. The supervisor folds an ended worker's words into its
// totals and zeroes them (supervisor_stats.go).
const (
	offHillB0       = 168 // Hill number of order 0 of this worker's unique traces
	offHillB1       = 176 // order 1
	offHillB2       = 184 // order 2
	offChildren     = 192 // children made from a parent (executed or skipped)
	offZeroMut      = 200 // of them, zero mutations skipped
	offDistSum      = 208 // sum of the sampled mutation distances > 0
	offDistN        = 216 // number of those samples
	offDistZero     = 224 // sampled executed children at distance 0
	offMetricsFirst = offHillB0
	offMetricsEnd   = offDistZero + 8
)
