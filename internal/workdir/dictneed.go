package workdir

import (
	"os"
	"strings"
)

// NeedsDictionary reports whether the saved failure input at path, whose
// file holds data (one []byte value: dictionaries are a gfz target's), needs
// the fuzz binary's dictionary to replay: its report (the .txt beside it)
// says its values drew from it (DictionaryKey), as -regress and gfz-run -ci decide. A report that
// cannot be read, or that describes another input than data (a worker
// rewrites a failure shrunk while the supervisor exports it), counts as
// needing it: a dictionary file too many costs a file, one too few the
// replay.
func NeedsDictionary(path string, data []byte) bool {
	txt, err := os.ReadFile(strings.TrimSuffix(path, ".input") + ".txt")
	if err != nil {
		return true
	}
	rf, err := ParseReport(txt)
	if err != nil {
		return true
	}
	params, err := DecodeInput(data)
	if err != nil {
		return true
	}
	want, err := ParseReport((&Report{Input: params}).Format())
	if err != nil || rf.Sections["params (hex)"] != want.Sections["params (hex)"] {
		return true
	}
	return rf.Get(DictionaryKey) != ""
}
