package engine

// DictionaryReporter is implemented by executors that can tell whether the
// input of their last DescribeValues run drew from the fuzz binary's
// dictionary (generators.Dictionary): that input replays under plain go
// test only with a copy of the dictionary, so its report says so
// (FailureInfo.Dictionary) and -regress writes the copy beside it, and
// only then.
type DictionaryReporter interface {
	DescribedDictionary() bool
}

// describedDictionary is what ex says about its last DescribeValues run
// (false for an executor that cannot tell: native targets' arguments
// never depend on the dictionary).
func describedDictionary(ex Executor) bool {
	d, ok := ex.(DictionaryReporter)
	return ok && d.DescribedDictionary()
}
