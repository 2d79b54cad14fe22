// Package deps holds no code: its test enforces the import rules of
// docs/ARCHITECTURE.md ("Packages", the "may import" column), as go/build's
// deps_test.go does for the standard library. A change that makes a
// package import what its row does not allow fails the test; change the
// rule here and the table there together.
package deps
