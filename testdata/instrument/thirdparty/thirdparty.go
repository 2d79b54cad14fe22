// Package thirdparty pulls github.com/BurntSushi/toml into the module graph
// so that the build tests can instrument it with -cover.
package thirdparty

import (
	"github.com/BurntSushi/toml"

	// The instrumented toml package imports gfz's runtime, which must be in
	// the module graph.
	_ "github.com/gfz-dev/gfz/runtime"
)

// Decode decodes a TOML document into a map.
func Decode(s string) (map[string]any, error) {
	m := map[string]any{}
	_, err := toml.Decode(s, &m)
	return m, err
}
