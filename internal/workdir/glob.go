package workdir

import (
	"os"
	"path/filepath"
)

// Glob returns the paths of the entries of pattern's directory whose names
// match its last element (filepath.Match), sorted by name. Unlike
// filepath.Glob it takes the directory literally: a user's path, or a
// scratch one, may hold glob metacharacters ("proj[1]", "runs[1]"), which
// filepath.Glob would read as a pattern and match nothing. A directory
// that cannot be read is an error; a malformed pattern is
// filepath.ErrBadPattern.
func Glob(pattern string) ([]string, error) {
	dir, name := filepath.Split(pattern)
	if _, err := filepath.Match(name, ""); err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(filepath.Clean(dir))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if ok, _ := filepath.Match(name, e.Name()); ok {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}
