package engine

import (
	"bytes"
	"encoding/hex"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// hexCodec writes inputs as "hex <digits>" files.
type hexCodec struct{}

func (hexCodec) EncodeFile(p []byte) []byte { return []byte("hex " + hex.EncodeToString(p) + "\n") }
func (hexCodec) DecodeFile(b []byte) ([]byte, error) {
	s, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "hex ")
	if !ok {
		return nil, errors.New("not a hex file")
	}
	return hex.DecodeString(s)
}

// codecMaze is the maze executor with its own codec.
type codecMaze struct{ *mazeExec }

func (codecMaze) Codec() workdir.Codec { return hexCodec{} }

// TestExecutorCodec: an executor's workdir.Codec writes the corpus and failure
// files, and a resumed run reads them back with it.
func TestExecutorCodec(t *testing.T) {
	dir := t.TempDir()
	ex := codecMaze{newMaze(mazeKey, mazeMod, mazeValid)}
	first := run(t, Config{Engine: "zest", Seed: 3, Runs: 30_000, Workdir: dir}, ex)
	if first.NewFailures != 1 {
		t.Fatalf("first run: %+v, want the maze failure", first)
	}
	files := dirContents(t, filepath.Join(dir, workdir.CorpusDir))
	for name, content := range files {
		if !strings.HasPrefix(content, "hex ") {
			t.Fatalf("corpus file %s is %q, not written by the executor's codec", name, content)
		}
	}
	in, err := workdir.ReadFileWith(hexCodec{}, first.FailureFiles[0])
	if err != nil {
		t.Fatalf("failure file not in the codec's format: %v", err)
	}
	if _, err := workdir.ReadInputFile(first.FailureFiles[0]); err == nil {
		t.Errorf("failure file %s is in the default format", first.FailureFiles[0])
	}
	var status bytes.Buffer
	again := run(t, Config{Engine: "zest", Seed: 4, Runs: int64(len(files)), Workdir: dir, Status: &status}, ex)
	if again.TotalCov != first.TotalCov || strings.Contains(status.String(), "corrupt") {
		t.Errorf("resume with the codec: coverage %d, want %d; status %q", again.TotalCov, first.TotalCov, status.String())
	}
	if len(in) == 0 {
		t.Errorf("empty failure input")
	}
}
