// Package oldtoml is a gfz-build fixture on a module version that predates
// go.mod: github.com/BurntSushi/toml v0.3.1 has no go.mod file, so its copy
// in the module cache has none either.
package oldtoml

import "github.com/BurntSushi/toml"

// Keys decodes src and returns the number of top-level keys, or -1.
func Keys(src string) int {
	var m map[string]any
	if _, err := toml.Decode(src, &m); err != nil {
		return -1
	}
	return len(m)
}
