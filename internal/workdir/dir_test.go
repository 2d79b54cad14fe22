package workdir

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// TestUnreadableReportReleasesClaim: a failure whose report was damaged
// (truncated) is not known to KnownFailures, and its input held the claim:
// found again, it was neither saved nor announced (SaveFailure: not
// claimed). RemoveOrphanInputs moves both files aside, whole, so the
// failure is saved anew; an input without any report is removed as before.
func TestUnreadableReportReleasesClaim(t *testing.T) {
	wd, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sig := "panic: x\nf x.go:1\n"
	rep := &Report{Target: "FuzzX", Result: "FAILURE", Signature: sig, Info: FailureInfo{Kind: "panic: x"}, Input: []byte("in")}
	if _, claimed, err := wd.SaveFailure(rep); err != nil || !claimed {
		t.Fatalf("first save: claimed %v, %v", claimed, err)
	}
	base := filepath.Join(wd.Failures, FailureName(sig))
	if err := os.Truncate(base+".txt", 20); err != nil {
		t.Fatal(err)
	}
	orphan := filepath.Join(wd.Failures, "0123456789ab.input")
	if err := os.WriteFile(orphan, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var warned []string
	wd.RemoveOrphanInputs(func(format string, args ...any) { warned = append(warned, fmt.Sprintf(format, args...)) })
	if len(warned) != 1 || !strings.Contains(warned[0], "cannot be read") {
		t.Fatalf("warnings %q", warned)
	}
	for _, f := range []string{base + ".txt.bad", base + ".input.bad"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("moved aside: %v", err)
		}
	}
	if _, err := os.Stat(orphan); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the input without a report is still there: %v", err)
	}
	if _, claimed, err := wd.SaveFailure(rep); err != nil || !claimed {
		t.Errorf("the failure found again: claimed %v, %v; want saved anew", claimed, err)
	}
}

// TestDirSync: every durable write fsyncs its directory after the rename
// or link: failure inputs and reports at once (syncDir), corpus entries in
// the background (bgFsync: each file, then the directory; durable when
// SyncCorpus returns; a failed sync is the error of SyncCorpus and of the
// next save).
func TestDirSync(t *testing.T) {
	var mu sync.Mutex
	var synced, bg []string
	fail := false
	oldDir, oldBg := syncDir, bgFsync
	syncDir = func(dir string) error {
		mu.Lock()
		defer mu.Unlock()
		synced = append(synced, filepath.Clean(dir))
		return oldDir(dir)
	}
	bgFsync = func(path string) error {
		mu.Lock()
		defer mu.Unlock()
		bg = append(bg, filepath.Clean(path))
		if fail {
			return errors.New("disk on fire")
		}
		return oldBg(path)
	}
	defer func() { syncDir, bgFsync = oldDir, oldBg }()
	wd, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	get := func(l *[]string) []string {
		mu.Lock()
		defer mu.Unlock()
		s := *l
		*l = nil
		return s
	}
	get(&synced)
	var paths []string
	for _, b := range []byte{1, 2, 3} {
		p, err := wd.SaveCorpus([]byte{b})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(p); err != nil || len(got) == 0 {
			t.Fatalf("corpus entry %s not complete when SaveCorpus returned: %v", p, err)
		}
		paths = append(paths, p)
	}
	syncer := wd.corpusSync
	if err := wd.SyncCorpus(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-syncer.done:
	default:
		t.Error("the background syncer still runs after SyncCorpus (a goroutine left behind by each run)")
	}
	s := get(&bg)
	for _, p := range paths {
		if !slices.Contains(s, p) {
			t.Errorf("corpus entry %s not fsynced: %q", p, s)
		}
	}
	if len(s) == 0 || s[len(s)-1] != wd.Corpus {
		t.Errorf("background syncs %q, want the corpus directory last", s)
	}
	if s := get(&synced); len(s) != 0 {
		t.Errorf("corpus saves synced %q inline", s)
	}
	if _, _, err := wd.SaveFailure(&Report{Signature: "x", Input: []byte{1}}); err != nil {
		t.Fatal(err)
	}
	if s := get(&synced); len(s) != 2 || s[0] != wd.Failures || s[1] != wd.Failures {
		t.Errorf("failure save synced %q, want failures/ twice (input, report)", s)
	}
	// A failing sync is SyncCorpus's error, and the next save's.
	mu.Lock()
	fail = true
	mu.Unlock()
	// (The save itself may already report its own failed sync: the
	// goroutine can be that quick.)
	if _, err := wd.SaveCorpus([]byte{4}); err != nil && !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("a save whose sync fails: %v", err)
	}
	if err := wd.SyncCorpus(); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("SyncCorpus after a failing sync: %v", err)
	}
	if _, err := wd.SaveCorpus([]byte{5}); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("the save after a failing sync: %v", err)
	}
	if err := wd.SyncCorpus(); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("a second SyncCorpus after a failing sync: %v", err)
	}
}

// TestDirSyncInline: with SyncInline (-feedback mem) a corpus entry is
// fsynced, with its directory, before SaveCorpus returns, and no
// goroutine runs beside the target.
func TestDirSyncInline(t *testing.T) {
	var synced []string
	oldDir, oldBg := syncDir, bgFsync
	syncDir = func(dir string) error {
		synced = append(synced, filepath.Clean(dir))
		return oldDir(dir)
	}
	bgFsync = func(path string) error {
		t.Errorf("background sync of %s with SyncInline", path)
		return oldBg(path)
	}
	defer func() { syncDir, bgFsync = oldDir, oldBg }()
	wd, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	wd.SyncInline = true
	synced = nil
	if _, err := wd.SaveCorpus([]byte{1}); err != nil {
		t.Fatal(err)
	}
	if len(synced) != 1 || synced[0] != wd.Corpus {
		t.Errorf("inline corpus save synced %q, want corpus/ once", synced)
	}
	if wd.corpusSync != nil {
		t.Error("a background syncer started with SyncInline")
	}
	if err := wd.SyncCorpus(); err != nil {
		t.Fatal(err)
	}
}
