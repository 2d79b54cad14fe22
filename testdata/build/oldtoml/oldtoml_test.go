package oldtoml

import (
	"testing"

	"github.com/gfz-dev/gfz"
)

func FuzzKeys(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		src := t.Source()
		Keys(string(src.Bytes(int(src.Range(0, 64, 0)))))
	})
}
