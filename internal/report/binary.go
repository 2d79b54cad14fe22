package report

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/gfz-dev/gfz/cover"
	"github.com/gfz-dev/gfz/internal/workdir"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// The fuzz binary's side of -report. The process that writes the report
// (the supervisor) never runs the instrumented packages' init functions,
// so it cannot read their probe tables: worker 0 writes, next to the
// coverage profile, the function of every block (FuncsFile), and the
// supervisor finds the source files in its own executable's line table.

// ProfileFile is the file in a work directory to which a fuzz binary run
// with -report (and without -coverprofile) writes the campaign's coverage
// profile; FuncsSuffix is appended to a profile's path for the file that
// names the function of each of its blocks.
const (
	ProfileFile = "coverprofile"
	FuncsSuffix = ".funcs"
)

// WriteFuncs writes, atomically to path, one line per probe of the
// instrumented packages registered in this process:
// "import-path/file.go:startLine.startCol,endLine.endCol<TAB>function".
func WriteFuncs(path string) error {
	var b bytes.Buffer
	for _, p := range gfzrt.Packages() {
		blocks, err := cover.Decode(p.Path, p.Table)
		if err != nil {
			return err
		}
		for _, bl := range cover.ProfileBlocks(blocks) { // the ranges -coverprofile writes
			fmt.Fprintf(&b, "%s:%d.%d,%d.%d\t%s\n", bl.File, bl.StartLine, bl.StartCol, bl.EndLine, bl.EndCol, bl.Func)
		}
	}
	if err := workdir.WriteFileAtomic(path, b.Bytes()); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// readFuncs reads a WriteFuncs file; malformed lines are skipped.
func readFuncs(path string) []cover.Block {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []cover.Block
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		pos, fn, ok := strings.Cut(sc.Text(), "\t")
		i := strings.LastIndexByte(pos, ':')
		if !ok || i < 0 {
			continue
		}
		b := cover.Block{File: pos[:i], Func: fn}
		if _, err := fmt.Sscanf(pos[i+1:], "%d.%d,%d.%d", &b.StartLine, &b.StartCol, &b.EndLine, &b.EndCol); err != nil {
			continue
		}
		out = append(out, b)
	}
	return out
}

// ForBinary writes the report of workdir to out from a fuzz binary. The
// function names come from profile+FuncsSuffix (written by WriteFuncs in
// the worker that wrote the profile) and the source paths from the
// executable's line table (gfz-build's //line directives name the
// original files), with the module containing the current directory as a
// fallback.
func ForBinary(out, workdir, profile string) (string, error) {
	o := Options{Workdir: workdir, Out: out, Profile: profile}
	if profile != "" {
		o.Blocks = readFuncs(profile + FuncsSuffix)
		var pkgs []string
		seen := map[string]bool{}
		if profs, err := readProfile(profile); err == nil {
			for _, p := range profs {
				if d := path.Dir(p.FileName); !seen[d] {
					seen[d] = true
					pkgs = append(pkgs, d)
				}
			}
		}
		if exe, err := os.Executable(); err == nil && len(pkgs) > 0 {
			o.Sources, _ = ExecutableSources(exe, pkgs) // on error: found by module, or shown without source
		}
	}
	return Write(o)
}
