package gotoml2count

import "testing"

func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"title = \"TOML Example\"\n\n[owner]\nname = \"Tom\"\ndob = 1979-05-27T07:32:00-08:00\n",
		"[database]\nports = [ 8000, 8001, 8002 ]\nenabled = true\ntemp_targets = { cpu = 79.5, case = 72.0 }\n",
		"[[products]]\nname = \"Hammer\"\nsku = 738594937\n\n[[products]]\n",
		"str1 = \"\"\"\nRoses are red\nViolets are blue\"\"\"\nwinpath = 'C:\\Users\\nodejs'\n",
		"int = +99\nhex = 0xDEADBEEF\nflt = 6.626e-34\nld = 1979-05-27\nlt = 07:32:00\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		_ = Decode(doc)
	})
}
