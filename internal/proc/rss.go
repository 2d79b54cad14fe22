package proc

import (
	"os"
	"strconv"
	"strings"
)

// RSS returns the resident set size of process pid in bytes (0 if unknown:
// it is read from /proc, which only Linux has).
func RSS(pid int) int64 { return statmRSS("/proc/" + strconv.Itoa(pid) + "/statm") }

// SelfRSS is RSS of this process.
func SelfRSS() int64 { return statmRSS("/proc/self/statm") }

func statmRSS(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
