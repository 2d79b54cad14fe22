package crashers

import (
	"log"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/internal/driver"
	"github.com/gfz-dev/gfz/param"
)

// trigger draws the byte that decides whether the target misbehaves
// (1 in 32) and runs the maze on the next bytes.
func trigger(t *gfz.T) bool {
	k := gen.IntRange(0, 31).Named("k").Draw(t)
	Maze([]byte{gen.Byte().Draw(t), gen.Byte().Draw(t), gen.Byte().Draw(t), gen.Byte().Draw(t)})
	return k == 7
}

// FuzzFine never misbehaves. With $CRASHERS_CLEANUP_MARK set, its F's
// cleanup writes the file named by it and its process ID, as the end of
// each process that ran it.
func FuzzFine(f *testing.F) {
	if mark := os.Getenv("CRASHERS_CLEANUP_MARK"); mark != "" {
		f.Cleanup(func() { os.WriteFile(mark+"."+strconv.Itoa(os.Getpid()), nil, 0o644) })
	}
	gfz.Fuzz(f, func(t *gfz.T) { trigger(t) })
}

// FuzzGoPanic panics in a goroutine it starts.
func FuzzGoPanic(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			// The execution waits for ever: were it to return while the
			// panic unwinds, the engine could save the input to the corpus
			// before the process dies, and every restart would replay it.
			go func() {
				panic("boom in a goroutine")
			}()
			select {}
		}
	})
}

// FuzzSlowDeath panics in a goroutine when trigger fires; the first time
// (no file at CRASHERS_SLOW_MARK yet) only after sleeping 3 seconds, so
// that a worker with a shorter -timeout is stopped as hung while the
// re-run describing its input (the file exists by then) dies at once: a
// death slower than the timeout, as on a loaded machine. With
// CRASHERS_SLOW_RECOVERABLE set it panics in the fuzz function instead (a
// failure the executor recovers, not a death).
func FuzzSlowDeath(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			if mark := os.Getenv("CRASHERS_SLOW_MARK"); mark != "" {
				if _, err := os.Stat(mark); err != nil {
					os.WriteFile(mark, nil, 0o644)
					time.Sleep(3 * time.Second)
				}
			}
			if os.Getenv("CRASHERS_SLOW_RECOVERABLE") != "" {
				panic("slow boom")
			}
			go func() {
				panic("slow boom in a goroutine")
			}()
			select {}
		}
	})
}

// FuzzMapWrite writes a map from two goroutines at once. With one P
// (GOMAXPROCS 1, as on a one-CPU machine or under taskset) the two would
// take turns between map writes (the runtime's map code has no preemption
// point) and never collide: two Ps let the OS switch threads anywhere.
func FuzzMapWrite(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
			m := map[int]int{}
			var wg sync.WaitGroup
			for g := 0; g < 2; g++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < 10_000_000; i++ {
						m[i%64] = i
					}
				}()
			}
			wg.Wait()
		}
	})
}

// FuzzStack recurses without end: the fuzz binary's -stack_limit_mb
// (default 64 MiB) makes it a stack overflow within milliseconds.
func FuzzStack(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			Recurse(0)
		}
	})
}

// FuzzExit calls os.Exit(3).
func FuzzExit(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			os.Exit(3)
		}
	})
}

// FuzzExitLate calls os.Exit(3) on a value drawn after another draw of
// one byte: with empty parameters (the random engine) both come from the
// PRNG extension, which the supervisor rebuilds from the seed to save the
// input of a worker that died.
func FuzzExitLate(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		gen.Byte().Draw(t)
		if gen.IntRange(0, 31).Draw(t) == 7 {
			os.Exit(3)
		}
	})
}

// FuzzGoexit calls runtime.Goexit.
func FuzzGoexit(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			runtime.Goexit()
		}
	})
}

// FuzzHang loops forever.
func FuzzHang(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			Spin()
		}
	})
}

// FuzzSlowOnce hangs the first time it is triggered and returns at once
// every later time, in any process: the first trigger creates the file
// named by $GFZ_SLOW_ONCE. A timeout that re-running the input does not
// repeat, as a loaded machine produces.
func FuzzSlowOnce(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if !trigger(t) {
			return
		}
		marker := os.Getenv("GFZ_SLOW_ONCE")
		if marker == "" {
			return
		}
		fh, err := os.OpenFile(marker, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return // not the first time
		}
		fh.Close()
		Spin()
	})
}

// FuzzBurn uses $GFZ_BURN_MS milliseconds of CPU time on triggered inputs
// and returns: a slow input that finishes, however long a loaded machine
// makes it take.
func FuzzBurn(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if !trigger(t) {
			return
		}
		ms, _ := strconv.Atoi(os.Getenv("GFZ_BURN_MS"))
		BurnCPU(time.Duration(ms) * time.Millisecond)
	})
}

// FuzzNativeHang is a native f.Fuzz target that hangs on inputs starting
// with 'h' (its seed is one).
func FuzzNativeHang(f *testing.F) {
	f.Add([]byte("h"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'h' {
			Spin()
		}
	})
}

// FuzzAlloc allocates without bound.
func FuzzAlloc(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			Hog()
		}
	})
}

// FuzzGOGC panics, when triggered, with the garbage collector's
// percentage of the process that runs it.
func FuzzGOGC(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
			metrics.Read(s)
			panic("gogc " + strconv.FormatUint(s[0].Value.Uint64(), 10) + " percent")
		}
	})
}

// flip alternates between calls: coverage that differs between two runs
// of the same input.
var flip int

// FuzzFlaky takes a different branch on every other execution.
func FuzzFlaky(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		trigger(t)
		flip++
		if flip%2 == 0 {
			Maze([]byte("g"))
		} else {
			Maze([]byte("x"))
		}
	})
}

// FuzzOften (the soak target) panics in a goroutine when the maze's first
// two bytes match: reached after a few thousand executions, then often.
func FuzzOften(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		k := gen.IntRange(0, 31).Draw(t)
		b := []byte{gen.Byte().Draw(t), gen.Byte().Draw(t), gen.Byte().Draw(t), gen.Byte().Draw(t)}
		if Maze(b) >= 2 && k < 8 {
			go panic("often")
			select {}
		}
	})
}

// FuzzSeedExit exits on its own seed when CRASHERS_SEED_EXIT is set
// (so that plain go test passes): every worker dies while replaying it.
func FuzzSeedExit(f *testing.F) {
	f.Add([]byte{99})
	gfz.Fuzz(f, func(t *gfz.T) {
		if gen.Byte().Draw(t) == 99 && os.Getenv("CRASHERS_SEED_EXIT") != "" {
			os.Exit(4)
		}
	})
}

// FuzzDeep recurses about 32 MiB deep when triggered, and returns: a stack
// overflow only under a -stack_limit_mb below that.
func FuzzDeep(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			Deep(30000)
		}
	})
}

// FuzzSetupExit exits with status 5 in its setup, before gfz.Fuzz, when
// CRASHERS_SETUP_EXIT is set (so that plain go test passes).
func FuzzSetupExit(f *testing.F) {
	if os.Getenv("CRASHERS_SETUP_EXIT") != "" {
		os.Exit(5)
	}
	gfz.Fuzz(f, func(t *gfz.T) { gen.Byte().Draw(t) })
}

// FuzzSegv receives SIGSEGV, as from a fault in C code: the Go runtime
// cannot turn it into a panic.
func FuzzSegv(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			syscall.Kill(os.Getpid(), syscall.SIGSEGV)
			select {}
		}
	})
}

// FuzzLogFatal calls log.Fatal (which exits with status 1).
func FuzzLogFatal(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			log.Fatal("crashers: log.Fatal on k == 7")
		}
	})
}

// FuzzExitAfterRead reads 3 more bytes straight from the parameter source
// (no generator, so no value is recorded) and then calls os.Exit(3): the
// bytes an execution read are more than its recorded values account for.
func FuzzExitAfterRead(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			t.Source().Uint(3, param.Value)
			os.Exit(3)
		}
	})
}

// FuzzInterruptExit handles the interrupt as a command-line program
// does: it exits with status 130 as soon as one arrives, wherever the
// worker is (mostly in the middle of an execution). It never fails.
func FuzzInterruptExit(f *testing.F) {
	var once sync.Once
	gfz.Fuzz(f, func(t *gfz.T) {
		once.Do(func() {
			c := make(chan os.Signal, 1)
			signal.Notify(c, os.Interrupt)
			go func() {
				<-c
				os.Exit(130)
			}()
		})
		trigger(t)
	})
}

// FuzzNativeParallel calls t.Parallel on the fuzz function's own T, which
// has no effect, as under go test -fuzz, on inputs that start with 'p'
// (its second seed, and the children made of it).
func FuzzNativeParallel(f *testing.F) {
	f.Add([]byte("seed"))
	f.Add([]byte("parallel"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'p' {
			t.Parallel()
		}
	})
}

// FuzzUsageMidRun ends its worker with the driver's usage error in the
// middle of an execution, on inputs that start with 'p', as the driver
// does for a testing.T method it cannot run (on a Go release whose testing
// package lacks the fields gfz sets): the run ends with that status, not a
// crash.
func FuzzUsageMidRun(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'p' {
			os.Stderr.WriteString("gfz: fuzz target FuzzUsageMidRun: the fuzz function called a method gfz does not support\n")
			driver.ExitChild(driver.ExitUsage)
		}
	})
}

// FuzzFatalGoroutine calls t.Fatalf in a goroutine it starts, where
// FailNow cannot stop the execution: the process dies of the panic, whose
// text must keep the message.
func FuzzFatalGoroutine(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			go func() { t.Fatalf("checked in a goroutine: bad value %d", 7) }()
			select {}
		}
	})
}

// FuzzOrphan starts a long command (sleep with the duration in
// CRASHERS_ORPHAN_SLEEP) and then dies in a goroutine it started, leaving
// the command running unless the supervisor ends it.
func FuzzOrphan(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if trigger(t) {
			if err := exec.Command("sleep", os.Getenv("CRASHERS_ORPHAN_SLEEP")).Start(); err != nil {
				t.Fatal(err)
			}
			go func() { panic("orphan left behind") }()
			select {}
		}
	})
}

// TestHelperProcess is os/exec's helper process: run by FuzzHelperProcess
// through its own binary, it prints its arguments and exits.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("CRASHERS_WANT_HELPER") != "1" {
		return
	}
	args := os.Args
	for len(args) > 0 && args[0] != "--" {
		args = args[1:]
	}
	os.Stdout.WriteString("helper:" + strings.Join(args[1:], ",") + "\n")
	os.Exit(0)
}

// FuzzHelperProcess runs TestHelperProcess through its own binary, as
// tests of code that runs commands do, and fails if it did not answer.
func FuzzHelperProcess(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if !trigger(t) {
			return
		}
		cmd := exec.Command(os.Args[0], "-test.run=TestHelperProcess", "--", "a", "b")
		cmd.Env = append(os.Environ(), "CRASHERS_WANT_HELPER=1")
		out, err := cmd.Output()
		if err != nil || string(out) != "helper:a,b\n" {
			t.Fatalf("helper process: %v, output %q", err, out)
		}
	})
}
