// Package gjsonsquash pins github.com/tidwall/gjson v1.6.3, where Get
// panics with "slice bounds out of range" in squash when a path's
// modifier argument is an unterminated JSON string (…@valid:"000):
// https://github.com/tidwall/gjson/issues/192 (CVE-2020-35380).
package gjsonsquash

import (
	"example.com/bugkit"
	"github.com/tidwall/gjson"
)

// Issue is the upstream report.
const Issue = "https://github.com/tidwall/gjson/issues/192"

// Site is where the bug panics: squash reading a modifier's argument past
// the end of the path, called by execModifier.
var Site = bugkit.Site{
	Func:    "github.com/tidwall/gjson.squash",
	File:    "gjson.go",
	Lines:   []int{501},
	Callers: []string{"github.com/tidwall/gjson.execModifier"},
}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Query runs a gjson path on a JSON document, as a program extracting a
// field from a request does.
func Query(json, path string) string { return gjson.Get(json, path).Raw }
