package crashers

// Hang sites of FuzzIntegrityHangs, in a non-test file so that they are
// instrumented (their dumps show gfz's probe frames).

var sink int

// hangA loops forever.
func hangA(b byte) {
	for i := 0; ; i++ {
		if i%3 == int(b)%3 {
			sink++
		}
	}
}

// hangB loops forever, elsewhere.
func hangB(b byte) {
	for i := 0; ; i++ {
		if i%5 == int(b)%5 {
			sink--
		}
	}
}
