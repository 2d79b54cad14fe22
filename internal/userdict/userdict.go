// Package userdict holds the dictionary a fuzz binary was given on its
// command line (libFuzzer's -dict=FILE), for package generators to add to
// the literals gfz-build collected (generators.Dictionary). It is a
// package of its own so that generators need not import the driver.
package userdict

import "sync"

var (
	mu     sync.Mutex
	tokens []string
)

// Set replaces the command-line dictionary. The fuzz binary calls it while
// it parses its command line, before any generator draws.
func Set(t []string) {
	mu.Lock()
	tokens = append([]string(nil), t...)
	mu.Unlock()
}

// Tokens returns the command-line dictionary (nil when none was given).
func Tokens() []string {
	mu.Lock()
	defer mu.Unlock()
	return tokens
}
