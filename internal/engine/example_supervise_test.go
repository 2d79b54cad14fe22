//go:build unix

package engine_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/gfz-dev/gfz/internal/engine"
)

// ExampleSupervise shows how a fuzz binary's first process supervises
// workers: each worker is the same executable, told by its environment to
// run engine.Run with Config.SharedMem = spec.SharedMem (and the seed,
// budget and sync flag of the spec). Package gfz does exactly this.
func ExampleSupervise() {
	exe, _ := os.Executable()
	// The run's options, the same the workers' Run gets.
	run := engine.Config{Engine: "zest", Target: "FuzzParse", Seed: 1, Time: time.Minute, Timeout: 5 * time.Second,
		Workdir: "gfzwork/FuzzParse", Status: os.Stderr}
	sum, err := engine.Supervise(context.Background(), engine.SupervisorConfig{
		Config: run, RSSLimitMB: 2048, Workers: 2, ErrorExit: 82,
		Command: func(spec engine.WorkerSpec) *exec.Cmd {
			cmd := exec.Command(exe, os.Args[1:]...)
			cmd.Env = append(os.Environ(), fmt.Sprintf("MY_WORKER=%d,%s,%d,%d,%d,%v",
				spec.ID, spec.SharedMem, spec.Seed, spec.Runs, spec.Time, spec.Sync))
			return cmd
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d execs, %d restarts, %d new failures, stability %.1f%%\n",
		sum.Execs, sum.Restarts, sum.NewFailures, sum.Stability)
}
