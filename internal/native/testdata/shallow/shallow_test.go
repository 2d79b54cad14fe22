package shallow

import "testing"

func FuzzRecord(f *testing.F) {
	f.Add([]byte("REC1a3:abcdefgh"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Count()
		ParseRecord(data)
	})
}

func FuzzLookup(f *testing.F) {
	f.Add("cfg.port", 10)
	f.Fuzz(func(t *testing.T, path string, depth int) {
		Count()
		Lookup(path, depth)
	})
}

func FuzzOptions(f *testing.F) {
	f.Add([]byte("v1;opts=abcdef;data=xyz"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Count()
		Options(data)
	})
}

func FuzzMode(f *testing.F) {
	f.Add("_bc.d", 10)
	f.Fuzz(func(t *testing.T, name string, level int) {
		Count()
		Mode(name, level)
	})
}

func FuzzVersion(f *testing.F) {
	f.Add("1.20.3")
	f.Fuzz(func(t *testing.T, s string) {
		Count()
		Version(s)
	})
}

func FuzzQuery(f *testing.F) {
	f.Add([]byte("REC1a3:abcdefgh"), "f.name")
	f.Fuzz(func(t *testing.T, doc []byte, path string) {
		Count()
		Query(doc, path)
	})
}

func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		"title = \"example\"\nname = \"Tom\"\ndob = 1979-05-27T07:32:00-08:00\n",
		"ports = 8000\nenabled = true\ncpu = 79.5\n",
		"int = +99\nflt = 6.626e-34\nld = 1979-05-27\nlt = 07:32:00\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		Count()
		Config(doc)
	})
}
