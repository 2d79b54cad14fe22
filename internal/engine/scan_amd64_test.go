package engine

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestDetectAVX2 checks the CPUID/XGETBV detection against the kernel's
// view of the processor (/proc/cpuinfo lists avx2 only when the kernel
// saves the YMM state).
func TestDetectAVX2(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/cpuinfo is Linux's")
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	want := false
	for _, line := range strings.Split(string(b), "\n") {
		if name, flags, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			f := strings.Fields(flags)
			want = contains(f, "avx2") && contains(f, "avx")
			break
		}
	}
	if got := detectAVX2(); got != want {
		t.Errorf("detectAVX2() = %v, /proc/cpuinfo says %v", got, want)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
