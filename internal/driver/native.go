package driver

import (
	"fmt"
	"testing"

	"github.com/gfz-dev/gfz/internal/native"
	"github.com/gfz-dev/gfz/internal/userdict"
	"github.com/gfz-dev/gfz/internal/workdir"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// NativeInfoKey is the build-info key ("native.FuzzX") under which
// gfz-build records the argument types of a native target (one calling
// f.Fuzz with a typed function, rewritten to gfz.FuzzNative), e.g.
// native.FuzzX=%5B%5Dbyte%2Cint. The processes that never run the target
// (the supervisor, the -repro parent) write and read its input files with
// these types.
func NativeInfoKey(target string) string { return "native." + target }

// StdCoverInfoKey is the build-info key under which gfz-build lists,
// comma-separated, the standard-library packages the binary instruments
// (-cover): code under test, whose frames failure signatures count as the
// user's (signature.SetStdUnderTest; Init sets them).
const StdCoverInfoKey = "stdcover"

// SeedCollector is implemented by targets that collect their seed corpus
// themselves (a native target calls f.Fuzz with a function of its own
// type and encodes each seed's values); other targets' seeds are single
// []byte values.
type SeedCollector interface {
	CollectSeeds(f *testing.F) ([][]byte, error)
}

// CodecTarget is implemented by targets whose input files are written with
// their own codec.
type CodecTarget interface {
	Codec() workdir.Codec
}

// codec returns the input file codec of the configured target: its native
// argument types from the build info, nil (workdir.BytesCodec) for a gfz
// target.
func (c *config) codec() workdir.Codec {
	if c.info == nil || !c.info.Has(NativeInfoKey(c.run.Target)) {
		return nil
	}
	ts, err := native.ParseTypes(c.info.Get(NativeInfoKey(c.run.Target)))
	if err != nil {
		return nil // checked by CheckNative in the worker
	}
	return native.Codec{Types: ts}
}

// CheckNative checks, in a child, that the native target's argument types
// found at run time are those gfz-build recorded: the supervisor writes
// the inputs of crashes with the recorded ones.
func CheckNative(types native.Types) error {
	if mode == nil || mode.info == nil {
		return nil
	}
	key := NativeInfoKey(mode.run.Target)
	if !mode.info.Has(key) {
		return fmt.Errorf("fuzz target %s calls f.Fuzz, but gfz-build did not record its argument types: rebuild it with the matching gfz-build", mode.run.Target)
	}
	if got := mode.info.Get(key); got != types.String() {
		return fmt.Errorf("fuzz target %s: gfz-build read the argument types %s from the source of its f.Fuzz call, but the fuzz function it runs with has %s: gfz-build resolved the function passed to f.Fuzz to another declaration of that name (pass it a function literal, func(t *testing.T, ...) { fn(t, ...) }, and please report it), or the binary is older than its source (rebuild it)", mode.run.Target, got, types)
	}
	return nil
}

// readInputFor reads an input file of target t with its codec.
func readInputFor(t Target, path string) ([]byte, error) {
	if ct, ok := t.(CodecTarget); ok {
		return workdir.ReadFileWith(ct.Codec(), path)
	}
	return workdir.ReadFileWith(nil, path)
}

// encodeInput is the file content of an input of the configured target.
func (c *config) encodeInput(data []byte) []byte {
	if cd := c.codec(); cd != nil {
		return cd.EncodeFile(data)
	}
	return workdir.EncodeInput(data)
}

// nativeDict is set by gfz-build with -ldflags "-X
// github.com/gfz-dev/gfz/internal/driver.nativeDict=..." in binaries with
// native targets: the literals of the instrumented packages, encoded as
// for userdict's builtinDict (tokens escaped with url.QueryEscape, joined
// by commas). Native targets get them as the engine's dictionary; gfz
// targets draw them through generators.
var nativeDict string

// dictionary returns the engine dictionary of the configured target: for
// a native target, nativeDict's tokens, then the command line's (libFuzzer's
// -dict=FILE, userdict.Tokens) that are not among them; nil for a gfz
// target, whose generators draw the dictionary themselves.
func (c *config) dictionary() [][]byte {
	if c.codec() == nil {
		return nil
	}
	var out [][]byte
	seen := map[string]bool{}
	for _, s := range append(userdict.Decode(nativeDict), userdict.Tokens()...) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, []byte(s))
		}
	}
	return out
}

// NativeDefaultEngine is the engine a native target runs with when -engine
// is not given: args, typed mutation of its arguments (see docs/CLI.md and
// docs/BENCHMARKS.md, "Native targets: executions to a shallow bug", for
// the measurements behind the choice).
const NativeDefaultEngine = "args"

// FeedbackEngine is the engine a gfz target runs with when -engine is not
// given and -feedback names a domain, or -seedgen (-seedgen-runs) asks
// for generated seeds: the domains keep inputs, and seed generation makes
// them, for an engine to mutate, and the default engine, random, never
// mutates (the run would follow none of what was asked for).
const FeedbackEngine = "zest"

// defaultEngine returns the engine for the configured target when -engine
// was not given; feedbackGiven tells whether -feedback was.
func (c *config) defaultEngine(feedbackGiven bool) string {
	switch {
	case c.codec() != nil:
		return NativeDefaultEngine
	case feedbackGiven && len(c.run.Feedback) > 0, c.seedgen.d > 0 || c.seedgen.runs > 0:
		return FeedbackEngine
	}
	return c.run.Engine
}

// nativeEngineProblem explains why the configured engines cannot fuzz the
// configured target ("" when they can): RLCheck learns a generator's
// small-domain choices, and a native target's arguments make none (their
// values are whole machine words and byte strings whose lengths come from
// the input), so rl would run the target on empty strings and random
// numbers only.
func (c *config) nativeEngineProblem() string {
	if c.codec() == nil {
		return ""
	}
	const why = "RLCheck learns a generator's small choices and a native target (f.Fuzz) makes none, so every []byte and string would be empty"
	switch {
	case c.run.Engine == "rl":
		return fmt.Sprintf("-engine rl cannot fuzz the native target %s: %s; use -engine args (its default) or random", c.run.Target, why)
	case (c.seedgen.d > 0 || c.seedgen.runs > 0) && c.seedgen.engine == "rl":
		return fmt.Sprintf("-seedgen-engine rl cannot make seeds for the native target %s: %s; use -seedgen-engine random (a native target's default)", c.run.Target, why)
	}
	return ""
}

// NativeDefaultFeedback is the feedback a native target runs with under
// its default engine (args) when -feedback is not given and its binary
// has comparison probes, which gfz-build inserts by default in packages
// with native targets: the cmp domain (docs/BENCHMARKS.md, "Comparison
// feedback on native targets", for the measurements behind the choice).
// -feedback (e.g. -feedback none) replaces it.
const NativeDefaultFeedback = "cmp"

// cmpBuilt reports whether the binary was built with comparison probes
// (a variable so that tests can pretend either way).
var cmpBuilt = gfzrt.CmpBuilt

// defaultFeedback returns the feedback domains for the configured target
// when -feedback was not given (after the engine is decided).
func (c *config) defaultFeedback() []string {
	if c.codec() != nil && c.run.Engine == NativeDefaultEngine && cmpBuilt() {
		return []string{NativeDefaultFeedback}
	}
	return nil
}
