// Package tomlcfg is a realistic gfz target on a third-party module fetched
// through the module proxy: github.com/BurntSushi/toml decoding a service
// configuration into typed structs.
//
// It is its own module (with a replace directive back to the gfz
// repository) so that gfz's own go.mod does not depend on the TOML parser;
// build it with gfz-build from this directory.
//
// Validity is split like Zest's: the syntax stage is the TOML grammar
// (decoding into map[string]any), the semantic stage is the mapping onto Config (types
// must match, undecoded keys are rejected) plus Validate. A panic is a
// FAILURE, and so is a valid configuration that does not survive
// toml.Marshal and a strict decode unchanged.
package tomlcfg

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Config is a service configuration.
type Config struct {
	Title   string            `toml:"title"`
	Owner   Owner             `toml:"owner"`
	Server  Server            `toml:"server"`
	Routes  []Route           `toml:"routes"`
	Limits  map[string]int64  `toml:"limits"`
	Labels  map[string]string `toml:"labels"`
	Enabled bool              `toml:"enabled"`
}

// Owner of the service.
type Owner struct {
	Name  string    `toml:"name"`
	Since time.Time `toml:"since"`
}

// Server settings.
type Server struct {
	Host    string   `toml:"host"`
	Port    int      `toml:"port"`
	Ratio   float64  `toml:"ratio"`
	Aliases []string `toml:"aliases"`
}

// Route is one [[routes]] entry.
type Route struct {
	Path   string `toml:"path"`
	Weight int    `toml:"weight"`
}

// Stage is how far a document got.
type Stage int

// Stages of Load.
const (
	SyntaxError Stage = iota // not TOML
	SchemaError              // TOML, but not a valid Config
	Valid
)

// Load decodes doc strictly and validates it.
func Load(doc string) (*Config, Stage, error) {
	var generic map[string]any
	if _, err := toml.Decode(doc, &generic); err != nil {
		return nil, SyntaxError, fmt.Errorf("parse: %w", err)
	}
	var c Config
	md, err := toml.Decode(doc, &c)
	if err != nil {
		return nil, SchemaError, fmt.Errorf("decode: %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, SchemaError, fmt.Errorf("unknown keys %v", und)
	}
	if err := Validate(&c); err != nil {
		return nil, SchemaError, fmt.Errorf("validate: %w", err)
	}
	return &c, Valid, nil
}

// Validate checks the configuration's rules.
func Validate(c *Config) error {
	if c.Title == "" {
		return errors.New("missing title")
	}
	if c.Server.Host == "" || c.Server.Port < 1 || c.Server.Port > 65535 {
		return fmt.Errorf("bad server %+v", c.Server)
	}
	for i, r := range c.Routes {
		if !strings.HasPrefix(r.Path, "/") || r.Weight < 0 {
			return fmt.Errorf("route %d: %+v", i, r)
		}
	}
	return nil
}

// RoundTrip checks that c survives toml.Marshal and a strict decode.
func RoundTrip(c *Config) error {
	out, err := toml.Marshal(c)
	if err != nil {
		return fmt.Errorf("marshal a valid config: %w", err)
	}
	back, stage, err := Load(string(out))
	if stage != Valid {
		return fmt.Errorf("marshaled config no longer loads:\n%s\n%w", out, err)
	}
	// Nil and empty maps and slices marshal the same way.
	norm := func(c *Config) Config {
		x := *c
		if len(x.Routes) == 0 {
			x.Routes = nil
		}
		if len(x.Limits) == 0 {
			x.Limits = nil
		}
		if len(x.Labels) == 0 {
			x.Labels = nil
		}
		if len(x.Server.Aliases) == 0 {
			x.Server.Aliases = nil
		}
		return x
	}
	if a, b := norm(c), norm(back); !reflect.DeepEqual(a, b) {
		return fmt.Errorf("round trip changed the config:\n%#v\n%#v\nTOML:\n%s", a, b, out)
	}
	return nil
}
