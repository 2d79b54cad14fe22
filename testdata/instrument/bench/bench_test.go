package bench

import "testing"

func BenchmarkTypecheck(b *testing.B) {
	s, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	files := 0
	for b.Loop() {
		files, _ = s.Check()
	}
	b.ReportMetric(float64(files), "files")
}
