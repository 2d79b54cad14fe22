package goxml

import (
	"reflect"
	"testing"

	"github.com/gfz-dev/gfz/internal/userdict"
)

// TestDictNamesFollowReplay: the names picked from the dictionary are
// those of the dictionary in force, so that a regression input replayed
// under go test with its own dictionary sees that dictionary's names, and
// the base dictionary's again afterwards (none in a test binary).
func TestDictNamesFollowReplay(t *testing.T) {
	if got := dictNames(); len(got) != 0 {
		t.Fatalf("dictNames in a test binary = %q, want none", got)
	}
	restore := userdict.SetReplay([]string{"item", "1bad", "price", "xmlns", "has space"})
	if got, want := dictNames(), []string{"item", "price"}; !reflect.DeepEqual(got, want) {
		t.Errorf("with a replayed dictionary: dictNames = %q, want %q", got, want)
	}
	restore2 := userdict.SetReplay([]string{"other"})
	if got, want := dictNames(), []string{"other"}; !reflect.DeepEqual(got, want) {
		t.Errorf("with a second replayed dictionary: dictNames = %q, want %q", got, want)
	}
	restore2()
	restore()
	if got := dictNames(); len(got) != 0 {
		t.Errorf("after the replay: dictNames = %q, want none", got)
	}
}
