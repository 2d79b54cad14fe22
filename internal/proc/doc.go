// Package proc holds what gfz needs to watch a child process that runs a
// fuzz target, shared by the supervisor of worker processes
// (internal/engine) and the -repro child's parent (internal/driver): the
// watchdog that stops it when an input hangs or it takes too much memory
// (Watchdog, with QuitGrace between asking a hung child for its stacks and
// killing it), the tail of its stderr (Tail), the signal that kills it when
// its parent dies (SetDeathSignal), its process group, which ends what it
// started (OwnGroup, KillGroup), and its resident memory (RSS).
package proc
