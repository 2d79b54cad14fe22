package workdir

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestFailureClaim: several processes saving the same failure at once (here
// goroutines, each with its own input): exactly one claims it, and the
// report describes exactly the saved input.
func TestFailureClaim(t *testing.T) {
	for round := 0; round < 20; round++ {
		wd, err := Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		const n = 8
		var wg sync.WaitGroup
		claimed := make([]bool, n)
		errs := make([]error, n)
		start := make(chan struct{})
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				rep := &Report{Target: "FuzzX", Result: "FAILURE", Signature: "panic: x\nf x.go:1\n",
					Info: FailureInfo{Kind: "panic: x", Value: fmt.Sprintf("v = %d", i)}, Input: bytes.Repeat([]byte{byte(i)}, 100)}
				_, claimed[i], errs[i] = wd.SaveFailure(rep)
			}()
		}
		close(start)
		wg.Wait()
		winners := 0
		winner := -1
		for i := range claimed {
			if errs[i] != nil {
				t.Fatalf("save %d: %v", i, errs[i])
			}
			if claimed[i] {
				winners++
				winner = i
			}
		}
		if winners != 1 {
			t.Fatalf("round %d: %d processes claimed the failure, want 1", round, winners)
		}
		base := filepath.Join(wd.Failures, FailureName("panic: x\nf x.go:1\n"))
		in, err := ReadInputFile(base + ".input")
		if err != nil {
			t.Fatal(err)
		}
		rep, err := os.ReadFile(base + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(in, bytes.Repeat([]byte{byte(winner)}, 100)) || !bytes.Contains(rep, []byte(fmt.Sprintf("v = %d\n", winner))) ||
			!bytes.Contains(rep, []byte(strings.Repeat(fmt.Sprintf("%02x", winner), 32))) {
			t.Fatalf("round %d: the report is not the one of the saved input %x:\n%s", round, in, rep)
		}
		if ents, _ := os.ReadDir(wd.Failures); len(ents) != 2 {
			t.Errorf("round %d: %d files in failures/, want 2 (temporary files left?)", round, len(ents))
		}
	}
}

// TestDirSync: every durable write (corpus entries, failure inputs and
// reports) fsyncs its directory after the rename or link.
func TestDirSync(t *testing.T) {
	var synced []string
	old := syncDir
	syncDir = func(dir string) error {
		synced = append(synced, filepath.Clean(dir))
		return old(dir)
	}
	defer func() { syncDir = old }()
	wd, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	synced = nil
	if _, err := wd.SaveCorpus([]byte{1, 2}); err != nil {
		t.Fatal(err)
	}
	if len(synced) != 1 || synced[0] != wd.Corpus {
		t.Errorf("corpus save synced %q, want [%s]", synced, wd.Corpus)
	}
	synced = nil
	if _, _, err := wd.SaveFailure(&Report{Signature: "x", Input: []byte{1}}); err != nil {
		t.Fatal(err)
	}
	if len(synced) != 2 || synced[0] != wd.Failures || synced[1] != wd.Failures {
		t.Errorf("failure save synced %q, want failures/ twice (input, report)", synced)
	}
	// A failing directory sync fails the write.
	syncDir = func(string) error { return errors.New("disk on fire") }
	if _, err := wd.SaveCorpus([]byte{3}); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("save with a failing directory sync: %v", err)
	}
}
