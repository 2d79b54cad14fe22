package build

import "github.com/gfz-dev/gfz/cmd/internal/instrument"

// CmpLdflag is the linker flag Build adds to the fuzz binaries of a build
// with comparison probes (Options.Cmp). The fuzz binary's driver runs
// before the instrumented packages register their comparison sites, so it
// learns from this flag that the build has them (runtime.CmpBuilt).
const CmpLdflag = "-X " + instrument.RuntimePath + ".cmpBuilt=1"
