// Command gfz-build builds instrumented gfz fuzz binaries.
//
// Usage:
//
//	gfz-build [flags] [packages]
//
// It instruments every package of the main module that the patterns match
// (default "."; "./..." works) and the _test.go files of those with native
// fuzz targets (-testfiles: of every one with fuzz targets; -testfiles=false:
// none), every package they and their
// tests transitively import except the standard library and gfz itself
// (narrowed by -instrument and -skip), plus the packages named by -cover,
// through a go command build overlay (the source tree is not modified), and builds one
// fuzz binary for every matched package that declares gfz fuzz targets. A
// package that fails to build does not stop the others; the binaries written
// are listed and the failed packages named.
// Exit status: 0 on success, 1 if a build failed, 2 for usage errors and
// when there is no go.mod.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/gfz-dev/gfz/cmd/internal/build"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gfz-build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opts build.Options
	opts.AddFlags(fs)
	fs.StringVar(&opts.Output, "o", "", "output `file` (one package) or directory (several); default ./<pkgname>.gfz")
	fs.BoolVar(&opts.Work, "work", false, "keep the rewritten files and print their directory")
	fs.BoolVar(&opts.Verbose, "v", false, "print per-package and per-module probe counts, map size, collision estimate, a dictionary summary and the go commands")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gfz-build [flags] [packages]\n\n"+
			"Builds one instrumented gfz fuzz binary per package with gfz fuzz targets.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if err := opts.CheckFlags(); err != nil {
		fmt.Fprintf(stderr, "gfz-build: %v\n", err)
		return 2
	}
	opts.Patterns = fs.Args()
	opts.Stdout, opts.Stderr = stdout, stderr
	res, err := build.Build(ctx, opts)
	if res != nil {
		for _, b := range res.Binaries {
			noun := "targets"
			if len(b.Targets) == 1 {
				noun = "target"
			}
			fmt.Fprintf(stdout, "%s: %s (%d %s: %s; %s)\n", b.Package, b.Output, len(b.Targets), noun, strings.Join(b.Targets, ", "), b.ProbeCount())
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "gfz-build: %v\n", strings.TrimPrefix(err.Error(), "gfz-build: "))
		if errors.Is(err, build.ErrNoModule) {
			return 2
		}
		return 1
	}
	return 0
}
