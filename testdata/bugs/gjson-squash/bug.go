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

// Site is where the bug panics: squash reading an unterminated string
// past the end of the path. Every caller counts: squash is reached from
// execModifier (the report's stack) and also from splitPossiblePipe (a
// multipath with an unterminated string, found by gfz), and v1.6.4, the
// fix of this report, fixes both.
var Site = bugkit.Site{Func: "github.com/tidwall/gjson.squash", File: "gjson.go", Lines: []int{501}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Query runs a gjson path on a JSON document, as a program extracting a
// field from a request does.
func Query(json, path string) string { return gjson.Get(json, path).Raw }
