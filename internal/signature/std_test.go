package signature

import (
	"strings"
	"testing"
)

// trace builds a goroutine trace (as the Go runtime prints it after
// "panic: ..." and a blank line) from "function file:line" pairs,
// innermost first, ending at gfz's executor.
func trace(frames ...string) string {
	var b strings.Builder
	b.WriteString("goroutine 7 [running]:\n")
	for i := 0; i+1 < len(frames); i += 2 {
		b.WriteString(frames[i] + "(...)\n\t" + frames[i+1] + " +0x1c\n")
	}
	b.WriteString("github.com/gfz-dev/gfz.run(0xc000124000, 0xc000010000)\n\t/gfz/exec.go:95 +0x6b\n")
	return b.String()
}

const bounds = "panic: runtime error: index out of range [N] with length N"

// crashSite is the site of a panic the supervisor saw with trace tr.
func crashSite(tr string) string { return SiteOf(OfDeath(bounds, tr, true)) }

// The frames of the DNS decoder's short read (issue 28): the standard
// library's Uint16, inlined into the decoder that read past the end.
var svcbFrames = []string{
	"runtime.panicBounds", "/usr/local/go/src/runtime/panic.go:236",
	"encoding/binary.bigEndian.Uint16", "/usr/local/go/src/encoding/binary/binary.go:156",
	"github.com/gopacket/gopacket/layers.decodeSVCB", "/home/u/gopacket/layers/dns.go:975",
	"github.com/gopacket/gopacket/layers.(*DNS).decodeResourceRecord", "/home/u/gopacket/layers/dns.go:700",
	"github.com/gopacket/gopacket/layers.(*DNS).DecodeFromBytes", "/home/u/gopacket/layers/dns.go:450",
	"github.com/gopacket/gopacket/layers.FuzzDNS.func1", "/home/u/gopacket/layers/dns_fuzz_test.go:12",
}

// TestStdHelperNotSite: a panic in a standard-library function the
// user's code called (here inlined into it) has the site of the caller,
// for the supervisor (a trace) as for the executor (FrameLines on
// runtime frames); the signature starts at the caller.
func TestStdHelperNotSite(t *testing.T) {
	want := bounds + "\ngithub.com/gopacket/gopacket/layers.decodeSVCB dns.go:975"
	if s := crashSite(trace(svcbFrames...)); s != want {
		t.Errorf("site %q, want %q", s, want)
	}
	sig := OfDeath(bounds, trace(svcbFrames...), true)
	if want := bounds + "\ngithub.com/gopacket/gopacket/layers.decodeSVCB dns.go:975\ngithub.com/gopacket/gopacket/layers.(*DNS).decodeResourceRecord dns.go:700\ngithub.com/gopacket/gopacket/layers.(*DNS).DecodeFromBytes dns.go:450\n"; sig != want {
		t.Errorf("signature %q, want %q", sig, want)
	}
	// Every short read of the module had one site; now each has its own.
	other := strings.Replace(trace(svcbFrames...), "layers.decodeSVCB(...)\n\t/home/u/gopacket/layers/dns.go:975", "layers.decodeOPT(...)\n\t/home/u/gopacket/layers/dns.go:812", 1)
	if crashSite(other) == crashSite(trace(svcbFrames...)) {
		t.Errorf("two short reads, one site %q", crashSite(other))
	}
	// Several std frames, methods, closures and generic functions.
	for _, std := range [][]string{
		{"strings.Repeat", "/usr/local/go/src/strings/strings.go:620"},
		{"encoding/binary.(*decoder).uint16", "/usr/local/go/src/encoding/binary/binary.go:700", "encoding/binary.Read", "/usr/local/go/src/encoding/binary/binary.go:290"},
		{"slices.insertionSortCmpFunc[go.shape.struct { example.com/x.a int }]", "/usr/local/go/src/slices/zsortanyfunc.go:12", "slices.SortFunc[...]", "/usr/local/go/src/slices/sort.go:107"},
		{"regexp.MustCompile", "/usr/local/go/src/regexp/regexp.go:313"},
		{"vendor/golang.org/x/net/dns/dnsmessage.(*Parser).Question", "/usr/local/go/src/vendor/golang.org/x/net/dns/dnsmessage/message.go:900"},
	} {
		fr := append(std, "example.com/p.parse", "/src/p/p.go:33", "example.com/p.FuzzP.func1", "/src/p/p_test.go:9")
		if s := crashSite(trace(fr...)); s != bounds+"\nexample.com/p.parse p.go:33" {
			t.Errorf("%s: site %q", std[0], s)
		}
	}
}

// TestStdHelperDotlessModule: a module whose path has no dot ("m",
// "example") is not the standard library: its frames are user frames,
// with GOROOT in file names and without (-trimpath, where a std file is
// named "encoding/binary/binary.go" and one of module m "m/m.go").
func TestStdHelperDotlessModule(t *testing.T) {
	for _, c := range []struct{ name, binFile, mFile, exFile string }{
		{"goroot", "/usr/local/go/src/encoding/binary/binary.go", "/tmp/m/m.go", "/tmp/example/sub/x.go"},
		{"trimpath", "encoding/binary/binary.go", "m/m.go", "example/sub/x.go"},
	} {
		tr := trace(
			"encoding/binary.bigEndian.Uint16", c.binFile+":156",
			"m.decode", c.mFile+":11",
			"example/sub.Walk", c.exFile+":5",
			"m.FuzzM.func1", c.mFile+":20",
		)
		if s, want := crashSite(tr), bounds+"\nm.decode m.go:11"; s != want {
			t.Errorf("%s: site %q, want %q", c.name, s, want)
		}
	}
}

// TestStdOnlyFramesKept: when every user frame of the stack is the
// standard library's (a target in a std package's own tests, its fuzz
// function in the std package), the std frames are the code under test:
// they are kept, the innermost one is the site.
func TestStdOnlyFramesKept(t *testing.T) {
	tr := trace(
		"encoding/json.(*decodeState).literalStore", "/usr/local/go/src/encoding/json/decode.go:900",
		"encoding/json.(*decodeState).value", "/usr/local/go/src/encoding/json/decode.go:380",
		"encoding/json.Unmarshal", "/usr/local/go/src/encoding/json/decode.go:110",
		"encoding/json.FuzzUnmarshal.func1", "/usr/local/go/src/encoding/json/fuzz_test.go:40",
	)
	sig := OfDeath(bounds, tr, true)
	if want := bounds + "\nencoding/json.(*decodeState).literalStore decode.go:900\nencoding/json.(*decodeState).value decode.go:380\nencoding/json.Unmarshal decode.go:110\n"; sig != want {
		t.Errorf("signature %q, want %q", sig, want)
	}
}

// TestStdCallbackSite: a user function called by std code (sort.Slice's
// less) is innermost: it is the site, and the std frames below it stay in
// the signature, without their lines; a std helper it calls is skipped.
func TestStdCallbackSite(t *testing.T) {
	less := []string{
		"example.com/t.order.func1", "/src/t/t.go:12",
		"sort.insertionSort_func", "/usr/local/go/src/sort/zsortfunc.go:12",
		"sort.pdqsort_func", "/usr/local/go/src/sort/zsortfunc.go:73",
		"sort.Slice", "/usr/local/go/src/sort/slice.go:29",
		"example.com/t.order", "/src/t/t.go:11",
	}
	sig := OfDeath(bounds, trace(less...), true)
	if want := bounds + "\nexample.com/t.order.func1 t.go:12\nsort.insertionSort_func\nsort.pdqsort_func\n"; sig != want {
		t.Errorf("signature %q, want %q", sig, want)
	}
	withHelper := append([]string{"encoding/binary.bigEndian.Uint16", "/usr/local/go/src/encoding/binary/binary.go:156"}, less...)
	if s := OfDeath(bounds, trace(withHelper...), true); s != sig {
		t.Errorf("less calling Uint16: signature %q, want %q", s, sig)
	}
}

// TestStdHelperHang: a hang interrupted in a std function the user's loop
// calls has the loop's signature, wherever in the std code it was.
func TestStdHelperHang(t *testing.T) {
	dump := func(std string) string {
		return "SIGQUIT: quit\n\n" + strings.Replace(trace(
			std, "/usr/local/go/src/strings/strings.go:100",
			"m.spin", "/src/m/m.go:7",
			"m.FuzzM.func1", "/src/m/m_test.go:9",
		), "(...)", "(0x1)", -1)
	}
	a, b := Hang(dump("strings.Index")), Hang(dump("strings.TrimSpace"))
	if want := "timeout\nm.spin\nm.FuzzM.func1 m_test.go:9\n"; a != want || b != want {
		t.Errorf("hang signatures %q, %q, want %q", a, b, want)
	}
}

// TestStdIteratorOneSignature: a panic in the body of a range over a std
// iterator has one signature whichever of the iterator's yields called
// the body (strings.SplitSeq yields at two lines: inside its loop and
// after it), for the supervisor's trace as for the executor's frames; a
// user frame's line still tells two sites apart.
func TestStdIteratorOneSignature(t *testing.T) {
	body := func(yieldLine, userLine string) []string {
		return []string{
			"example.com/p.fields-range1", "/src/p/p.go:" + userLine,
			"strings.SplitSeq.splitSeq.func1", "/usr/local/go/src/strings/iter.go:" + yieldLine,
			"example.com/p.fields", "/src/p/p.go:20",
			"example.com/p.FuzzP.func1", "/src/p/p_test.go:9",
		}
	}
	a, b := OfDeath(bounds, trace(body("54", "22")...), true), OfDeath(bounds, trace(body("59", "22")...), true)
	if a != b {
		t.Errorf("one panic, two signatures by the iterator's yield:\n%s\n%s", a, b)
	}
	if want := bounds + "\nexample.com/p.fields-range1 p.go:22\nstrings.SplitSeq.splitSeq.func1\nexample.com/p.fields p.go:20\n"; a != want {
		t.Errorf("signature %q, want %q", a, want)
	}
	if c := OfDeath(bounds, trace(body("54", "23")...), true); c == a {
		t.Errorf("two lines of the user's body, one signature %q", c)
	}
	var fr []Frame
	for _, yl := range []string{"54", "59"} {
		f := body(yl, "22")
		fr = fr[:0]
		for i := 0; i < len(f); i += 2 {
			file, line, _ := strings.Cut(f[i+1], ":")
			n := 0
			for _, c := range line {
				n = n*10 + int(c-'0')
			}
			fr = append(fr, Frame{Func: f[i], File: file, Line: n})
		}
		if got := "panic\n" + FrameLines(fr, nil, false); got != "panic\n"+strings.SplitN(a, "\n", 2)[1] {
			t.Errorf("yield at %s: executor's frames %q, supervisor's %q", yl, got, a)
		}
	}
}
