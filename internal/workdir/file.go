package workdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
)

// corpusHeader is the first line of a native Go fuzz corpus file.
const corpusHeader = "go test fuzz v1"

// EncodeInput encodes a parameter sequence in Go's native fuzz corpus
// format for a target with a single []byte argument: the line
// "go test fuzz v1" followed by one line []byte("...") holding the bytes as
// a Go-quoted string. The result is byte-for-byte what `go test -fuzz`
// writes to testdata/fuzz/FuzzXxx/ for the same bytes, so any gfz corpus
// entry or failure can be copied there and replayed by plain `go test`.
func EncodeInput(data []byte) []byte {
	q := strconv.Quote(string(data))
	out := make([]byte, 0, len(corpusHeader)+len(q)+10)
	out = append(out, corpusHeader...)
	out = append(out, "\n[]byte("...)
	out = append(out, q...)
	out = append(out, ")\n"...)
	return out
}

// DecodeInput decodes a native Go fuzz corpus file holding exactly one
// []byte value, as written by EncodeInput or by Go's own fuzzer. Like the
// go command it accepts a "\r\n" line ending after the header, surrounding
// white space and blank lines, and interpreted ("...") or raw (`...`)
// string literals. Anything else (a missing or unknown header, no value,
// several values, a value of another type, bad quoting) is an error that
// names the problem.
func DecodeInput(file []byte) ([]byte, error) {
	if len(file) == 0 {
		return nil, errors.New("empty corpus file")
	}
	header, rest, found := bytes.Cut(file, []byte("\n"))
	header = bytes.TrimSuffix(header, []byte("\r"))
	if string(header) != corpusHeader {
		return nil, fmt.Errorf("bad header %.40q: want %q", header, corpusHeader)
	}
	if !found {
		return nil, errors.New("no value after the header")
	}
	var value []byte
	n := 0
	for _, line := range bytes.Split(rest, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		n++
		if n > 1 {
			return nil, errors.New("more than one value: gfz targets take a single []byte")
		}
		v, err := decodeBytesLine(line)
		if err != nil {
			return nil, fmt.Errorf("malformed line %.60q: %w", line, err)
		}
		value = v
	}
	if n == 0 {
		return nil, errors.New("no value after the header")
	}
	return value, nil
}

// decodeBytesLine decodes one `[]byte(<string literal>)` line (already
// trimmed), tolerating white space between the tokens as Go's parser does.
func decodeBytesLine(line []byte) ([]byte, error) {
	rest, ok := bytes.CutPrefix(line, []byte("[]byte"))
	if !ok {
		return nil, errors.New("expected []byte(...)")
	}
	rest = bytes.TrimSpace(rest)
	rest, ok = bytes.CutPrefix(rest, []byte("("))
	if !ok {
		return nil, errors.New("expected ( after []byte")
	}
	rest, ok = bytes.CutSuffix(rest, []byte(")"))
	if !ok {
		return nil, errors.New("expected ) at the end of the line")
	}
	lit := bytes.TrimSpace(rest)
	if len(lit) == 0 || (lit[0] != '"' && lit[0] != '`') {
		return nil, errors.New("string literal required for type []byte")
	}
	s, err := strconv.Unquote(string(lit))
	if err != nil {
		return nil, fmt.Errorf("bad string literal: %w", err)
	}
	return []byte(s), nil
}

// ReadInputFile reads and decodes one native corpus file (see DecodeInput).
// Errors name the file.
func ReadInputFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read input: %w", err)
	}
	v, err := DecodeInput(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// WriteFileAtomic writes data to path atomically and durably: it writes a
// temporary file in the same directory (named ".<base>.tmp*", which the
// engine's loaders ignore), fsyncs it, renames it over path and fsyncs the
// directory (so that the rename survives a power loss, not only a kill).
// Readers see either the old content or the new one, never a partial file.
func WriteFileAtomic(path string, data []byte) error {
	return writeAtomic(path, data, true)
}

// WriteFileIfChanged writes data to dir/name as WriteFileAtomic does,
// creating dir, unless the file already holds exactly data; it reports
// whether it wrote. Its temporary file is made in dir's parent, not in
// dir: dir is a go test seed corpus directory (testdata/fuzz/FuzzX, -regress
// exports), whose every file go test reads, hidden ones included, so a
// temporary file a killed process left there would break plain go test.
func WriteFileIfChanged(dir, name string, data []byte) (bool, error) {
	path := filepath.Join(dir, name)
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	tmp, err := writeTemp(tempDirFor(dir), name, path, data, true)
	if err != nil {
		return false, err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return false, fmt.Errorf("rename %s: %w", path, err)
	}
	return true, syncDir(dir)
}

// tempDirFor is where WriteFileIfChanged makes its temporary file for a
// file of dir: dir's parent (on the same file system, so the rename stays
// atomic).
func tempDirFor(dir string) string { return filepath.Dir(filepath.Clean(dir)) }

// syncDir fsyncs a directory, making the renames and links done in it
// durable. Tests replace it to count the calls.
var syncDir = func(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	err = d.Sync()
	d.Close()
	if err != nil && runtime.GOOS != "windows" { // directories cannot be synced there
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}

// createExclusive creates path with data, atomically and durably, unless
// it exists: the data is written to a temporary file, fsynced, and linked
// to path with link(2), which fails if path exists. It returns an error
// satisfying errors.Is(err, fs.ErrExist) when path exists: whoever links
// first owns the file (the claim of a failure, see Dir.SaveFailure).
func createExclusive(path string, data []byte) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := writeTemp(dir, base, path, data, true)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		return fmt.Errorf("create %s: %w", path, err)
	}
	return syncDir(dir)
}

// writeAtomic is WriteFileAtomic with the fsync optional (stats and
// plot_data are rewritten often and need not survive a power cut).
func writeAtomic(path string, data []byte, sync bool) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := writeTemp(dir, base, path, data, sync)
	if err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rename %s: %w", path, err)
	}
	if sync {
		return syncDir(dir)
	}
	return nil
}

// writeTemp writes data to a new temporary file ".<base>.tmp*" in dir
// (fsynced if sync) and returns its path.
func writeTemp(dir, base, path string, data []byte, sync bool) (tmp string, err error) {
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	name := f.Name() // the named result is "" once an error is returned
	defer func() {
		if err != nil {
			os.Remove(name)
		}
	}()
	tmp = name
	if _, err = f.Write(data); err != nil {
		f.Close()
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if sync {
		if err = f.Sync(); err != nil {
			f.Close()
			return "", fmt.Errorf("sync %s: %w", path, err)
		}
	}
	if err = f.Close(); err != nil {
		return "", fmt.Errorf("close %s: %w", path, err)
	}
	if err = os.Chmod(tmp, 0o644); err != nil {
		return "", fmt.Errorf("chmod %s: %w", path, err)
	}
	return tmp, nil
}

// ReplaceFile writes data to path atomically (readers see the old content
// or the new one) but not durably: no fsync, for files rewritten often
// that need not survive a power cut (stats, plot_data, a worker's feedback
// file).
func ReplaceFile(path string, data []byte) error { return writeAtomic(path, data, false) }
