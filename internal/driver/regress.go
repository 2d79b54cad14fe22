package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// -regress: each new failure is also written into the package's
// testdata/fuzz/<FuzzTarget>/, where plain go test replays it.

// regressFlag is the value of -regress, a boolean flag that also takes a
// directory: -regress uses the package's source directory gfz-build
// recorded in the binary, -regress=DIR names the package directory (a
// binary run on another machine, or a copy of the source tree).
type regressFlag struct {
	on  bool
	dir string
}

func (r *regressFlag) String() string {
	switch {
	case !r.on:
		return ""
	case r.dir == "":
		return "true"
	}
	return r.dir
}

func (r *regressFlag) Set(s string) error {
	switch s {
	case "true":
		r.on, r.dir = true, ""
	case "false":
		r.on, r.dir = false, ""
	case "":
		return errors.New("empty directory (use -regress alone for the package's directory)")
	default:
		r.on, r.dir = true, s
	}
	return nil
}

func (r *regressFlag) IsBoolFlag() bool { return true }

// regressDir resolves -regress to an absolute package directory, or ""
// when it is off. recorded is the directory gfz-build stored in the build
// information ("" in a binary built by an older gfz-build).
func (r *regressFlag) regressDir(recorded string) (string, error) {
	if !r.on {
		return "", nil
	}
	dir := r.dir
	if dir == "" {
		dir = recorded
	}
	if dir == "" {
		return "", errors.New("-regress: this binary does not record its package's source directory (built by an older gfz-build): name it with -regress=DIR")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("-regress: %w", err)
	}
	return abs, nil
}

// checkRegressDir checks, before fuzzing starts, that regression inputs of
// target can be written under the package directory dir: that dir is a
// directory and that the deepest existing directory on the way to
// dir/testdata/fuzz/<target> is writable (tried with a temporary directory,
// removed at once). Nothing is created in the source tree until there is a failure.
func checkRegressDir(dir, target string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("-regress: the package directory %s does not exist (a fuzz binary run away from its source tree?): name the package's directory with -regress=DIR", dir)
	case err != nil:
		return fmt.Errorf("-regress: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("-regress: %s is not a directory: name the package's directory with -regress=DIR", dir)
	}
	probe := regressTargetDir(dir, target)
	for {
		if fi, err := os.Stat(probe); err == nil && fi.IsDir() {
			break
		}
		if probe == dir {
			break
		}
		probe = filepath.Dir(probe)
	}
	// A directory, not a file: go test reads every file of a corpus
	// directory as an input and skips directories, so a probe left by a
	// kill at this instant cannot break it.
	d, err := os.MkdirTemp(probe, ".gfz-regress-check-*")
	if err != nil {
		return fmt.Errorf("-regress: cannot write regression inputs under %s: %w", probe, err)
	}
	regressProbed(d)
	os.Remove(d)
	return nil
}

// regressProbed is called with the writability probe before it is
// removed (tests).
var regressProbed = func(string) {}

// regressTargetDir is the seed corpus directory of target in the package
// directory dir, where go test reads it.
func regressTargetDir(dir, target string) string {
	return filepath.Join(dir, "testdata", "fuzz", target)
}

// regressName names a regression input file the way go test -fuzz names
// the failures it writes: the first 16 hex digits of the SHA-256 of the
// file's content. The same failing input is thus never written twice.
func regressName(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])[:16]
}

// RegressDictDir is where -regress writes the dictionary of each
// regression input of target in the package directory dir (a file of the
// input's name), for package gfz to install while go test replays that
// input. It cannot be in the corpus directory, whose every file go test
// reads as an input.
func RegressDictDir(dir, target string) string {
	return filepath.Join(dir, "testdata", "gfzdict", target)
}

// exportRegression copies the saved failure input (a file in the native
// corpus format, as the engine saved it: its bytes are copied, not
// re-encoded) to dir/testdata/fuzz/<target>/<name> atomically, and returns
// the note to print: where it is and the go test command that replays it
// without gfz. When the input's values drew from the fuzz binary's
// dictionary dict (userdict.All; nil for a native target, whose arguments
// never depend on it), it first writes the dictionary to
// dir/testdata/gfzdict/<target>/<name>: such an input decodes into the
// same values under go test only with the same dictionary, which go test
// does not otherwise have. An input that drew no token replays without
// it, and gets no dictionary file.
func exportRegression(dir, target, input string, dict []string) (string, error) {
	data, err := os.ReadFile(input)
	if err != nil {
		return "", fmt.Errorf("-regress: reading the saved failure: %w", err)
	}
	name := regressName(data)
	// The dictionary first: an input written without it would not fail
	// under go test.
	if text := dictionaryFile(dict); text != nil && workdir.NeedsDictionary(input, data) {
		if _, err := workdir.WriteFileIfChanged(RegressDictDir(dir, target), name, text); err != nil {
			return "", fmt.Errorf("-regress: writing the regression input's dictionary: %w", err)
		}
	}
	tdir := regressTargetDir(dir, target)
	path := filepath.Join(tdir, name)
	wrote, err := workdir.WriteFileIfChanged(tdir, name, data)
	if err != nil {
		return "", fmt.Errorf("-regress: writing the regression input: %w", err)
	}
	verb := "written to"
	if !wrote {
		verb = "already in"
	}
	note := fmt.Sprintf("gfz: regression input %s %s\n\treplay with go test, no gfz needed: cd %s && go test -run=%s/%s\n",
		verb, path, workdir.ShellQuote(dir), target, name)
	if txt, err := os.ReadFile(strings.TrimSuffix(input, ".input") + ".txt"); err == nil && bytes.Contains(txt, []byte(workdir.NotReproducingText)) {
		note += "\tWARNING: this failure did not repeat when its input was run again (state kept across executions, timing, randomness): go test may pass on the file\n"
	}
	return note, nil
}

// dictionaryFile formats the fuzz binary's dictionary for a work directory
// (WORKDIR/dictionary) and for -regress (testdata/gfzdict/<target>/<name>),
// or returns nil for an empty one.
func dictionaryFile(dict []string) []byte {
	if len(dict) == 0 {
		return nil
	}
	return FormatDictionary(dict,
		"The dictionary of the gfz fuzz binary that found the failing inputs beside it. Under plain go test,",
		"testdata/gfzdict/<FuzzTarget>/<name> is the dictionary of testdata/fuzz/<FuzzTarget>/<name>: gfz",
		"installs it while it replays that input, whose generators may draw tokens from it.")
}
