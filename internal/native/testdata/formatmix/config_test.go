package formatmix

import "testing"

func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"title = \"example\"\n\n[owner]\nname = \"Tom\"\n",
		"[database]\nports = [ 8001, 8002 ]\nenabled = true\n",
		"[[fruit]]\nname = \"apple\"\n",
		"point = { x = 1, y = 2 }\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		Load(string(doc))
	})
}
