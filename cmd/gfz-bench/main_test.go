package main

import (
	"strings"
	"testing"
)

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-contenders", "gfz-zest,afl"},
		{"-target", "nodir"},
		{"extra"},
		{"-nosuchflag"},
	} {
		var out, errs strings.Builder
		if code := run(args, &out, &errs); code != 2 {
			t.Errorf("run(%q) = %d, want 2 (stderr %q)", args, code, errs.String())
		}
	}
}
