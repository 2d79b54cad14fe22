package cliflag

import "testing"

func TestRSSFloorMB(t *testing.T) {
	for bits, want := range map[int]int{0: 32, 17: 32, 20: 32, 21: 40, 22: 48, 24: 96, 40: 32} {
		if got := RSSFloorMB(bits); got != want {
			t.Errorf("RSSFloorMB(%d) = %d, want %d", bits, got, want)
		}
	}
}
