package engine_test

import (
	"context"
	"fmt"
	"os"

	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

func ExampleEncodeInput() {
	file := workdir.EncodeInput([]byte("gfz\x00"))
	fmt.Print(string(file))
	data, err := workdir.DecodeInput(file)
	fmt.Printf("%q %v\n", data, err)
	// Output:
	// go test fuzz v1
	// []byte("gfz\x00")
	// "gfz\x00" <nil>
}

// magicTarget stands in for an instrumented fuzz target: it decodes three
// bytes from the parameter sequence, lights one edge per correct byte of
// "gfz" (as the probes of an instrumented build would), and fails when all
// three match.
type magicTarget struct{ src *param.Source }

func (m *magicTarget) Exec(params []byte, extSeed uint64) engine.Outcome {
	m.src.Reset(params, extSeed)
	out := engine.Outcome{Result: engine.Valid}
	for i, want := range []byte("gfz") {
		if byte(m.src.Uint(1, param.Value)) != want {
			break
		}
		gfzrt.Map[100+i]++
		if i == 2 {
			out.Result = engine.Failure
			out.Failure = &engine.FailureInfo{Kind: "panic", Message: "magic", Signature: "panic: magic"}
		}
	}
	out.Consumed = m.src.Consumed()
	return out
}

func ExampleRun() {
	dir, err := os.MkdirTemp("", "gfz-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	cfg := engine.Config{
		Engine:        "zest",
		Target:        "FuzzMagic",
		Seed:          1,
		Runs:          1_000_000,
		Workdir:       dir,
		StopOnFailure: true,
	}
	s, err := engine.Run(context.Background(), cfg, &magicTarget{src: param.New(nil, 0)})
	if err != nil {
		panic(err)
	}
	fmt.Println("new failures:", s.NewFailures, "before the budget:", s.Execs < cfg.Runs)
	input, _ := workdir.ReadInputFile(s.FailureFiles[0])
	fmt.Printf("failing input starts with %q\n", input[:3])
	// Output:
	// new failures: 1 before the budget: true
	// failing input starts with "gfz"
}
