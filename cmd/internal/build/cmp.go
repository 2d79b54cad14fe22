package build

import "github.com/gfz-dev/gfz/cmd/internal/instrument"

// CmpLdflag is the linker flag Build adds to the fuzz binaries of a build
// with comparison probes (Options.Cmp). The fuzz binary's driver runs
// before the instrumented packages register their comparison sites, so it
// learns from this flag that the build has them (runtime.CmpBuilt).
const CmpLdflag = "-X " + instrument.RuntimePath + ".cmpBuilt=1"

// CmpDefaultLine is what Build prints when it inserted comparison probes
// by default, because a package has native targets.
const CmpDefaultLine = "comparison probes added for the native targets, which run with -feedback cmp by default (-cmp=false leaves them out)"
