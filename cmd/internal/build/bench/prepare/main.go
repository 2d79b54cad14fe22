// Command prepare instruments packages into a go build overlay with
// build.Prepare and prints the go command flags that select it, one per
// line, for scripts (internal/build/bench/overhead.sh) that run the go command
// themselves. The work directory is kept; its path is the first line.
//
// Usage: go run ./internal/build/bench/prepare -C DIR [-cover PKGS] [patterns]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/gfz-dev/gfz/cmd/internal/build"
)

func main() {
	dir := flag.String("C", ".", "module directory")
	cover := flag.String("cover", "", "comma-separated packages to instrument too")
	bits := flag.Int("mapbits", 0, "log2 of the map size (0: chosen from the probe count)")
	cmp := flag.Bool("cmp", false, "also insert comparison probes")
	flag.Parse()
	opts := build.Options{Dir: *dir, Patterns: flag.Args(), MapBits: *bits, Cmp: *cmp}
	if *cover != "" {
		opts.Cover = strings.Split(*cover, ",")
	}
	p, err := build.Prepare(context.Background(), opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "prepare:", err)
		os.Exit(1)
	}
	fmt.Println(p.WorkDir)
	for _, f := range p.GoFlags() {
		fmt.Println(f)
	}
	fmt.Fprintf(os.Stderr, "prepare: %d probes in %d packages, MapBits=%d\n", p.Probes, len(p.Packages), p.MapBits)
}
