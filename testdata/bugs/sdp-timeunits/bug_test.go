package sdptimeunits

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/pion/sdp/v3"
)

// FuzzNative is the project's go-fuzz target (fuzz.go at v3.0.6: unmarshal,
// then marshal what was unmarshalled, failing when that errs) turned
// native, plus reading the description as a remote offer (ReadOffer),
// seeded with descriptions like those of the project's tests
// (unmarshal_test.go, the RFC's example, a browser's offer); none has an
// r= line.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"v=0\r\no=jdoe 2890844526 2890842807 IN IP4 10.47.16.5\r\ns=SDP Seminar\r\nt=2873397496 2873404696\r\n",
		"v=0\r\no=jdoe 2890844526 2890842807 IN IP4 10.47.16.5\r\ns=SDP Seminar\r\n" +
			"i=A Seminar on the session description protocol\r\nu=http://www.example.com/seminars/sdp.pdf\r\n" +
			"e=j.doe@example.com (Jane Doe)\r\np=+1 617 555-6011\r\nc=IN IP4 224.2.17.12/127\r\n" +
			"b=X-YZ:128\r\nb=AS:12345\r\nt=2873397496 2873404696\r\nt=3034423619 3042462419\r\n" +
			"z=2882844526 -1h 2898848070 0\r\nk=clear:secret\r\na=recvonly\r\n" +
			"m=audio 49170 RTP/AVP 0\r\ni=Vivamus a posuere nisl\r\nc=IN IP4 203.0.113.1\r\nb=X-YZ:128\r\n" +
			"k=prompt\r\na=sendrecv\r\nm=video 51372 RTP/AVP 99\r\na=rtpmap:99 h263-1998/90000\r\n",
		"v=0\no=jdoe 2890844526 2890842807 IN IP4 10.47.16.5\ns=SDP Seminar\ni=A Seminar on the session description protocol\nt=3034423619 3042462419\n",
		"v=0\r\no=- 4596489990601351948 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0 1\r\na=msid-semantic: WMS\r\n" +
			"m=audio 9 UDP/TLS/RTP/SAVPF 111 0\r\nc=IN IP4 0.0.0.0\r\na=rtcp:9 IN IP4 0.0.0.0\r\n" +
			"a=ice-ufrag:W2TG\r\na=ice-pwd:xdQEccP40E+P0L5qTyzDgfmW\r\na=ice-options:trickle\r\n" +
			"a=fingerprint:sha-256 17:0D:93:0C:96:C9:B4:6E:B2:BF:F0:E2:20:1A:9D:45:2C:24:3E:9A:A6:07:3D:6A:A1:8E:05:C2:F2:C9:BA:C8\r\n" +
			"a=setup:actpass\r\na=mid:0\r\na=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level\r\na=sendrecv\r\na=rtcp-mux\r\n" +
			"a=rtpmap:111 opus/48000/2\r\na=rtcp-fb:111 transport-cc\r\na=fmtp:111 minptime=10;useinbandfec=1\r\na=rtpmap:0 PCMU/8000\r\n" +
			"a=ssrc:3470346519 cname:8TIUC8DTsUR4tUmk\r\n" +
			"m=video 9 UDP/TLS/RTP/SAVPF 96 97\r\nc=IN IP4 0.0.0.0\r\na=mid:1\r\na=sendrecv\r\na=rtcp-mux\r\n" +
			"a=rtpmap:96 VP8/90000\r\na=rtcp-fb:96 nack\r\na=rtcp-fb:96 nack pli\r\na=rtpmap:97 rtx/90000\r\na=fmtp:97 apt=96\r\n" +
			"a=candidate:1 1 udp 2130706431 192.0.2.1 54400 typ host generation 0\r\na=end-of-candidates\r\n",
		"v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n" +
			"m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var sd sdp.SessionDescription
		if err := sd.Unmarshal(data); err != nil {
			return
		}
		if _, err := sd.Marshal(); err != nil {
			t.Fatalf("failed to marshal: %v", err)
		}
		_, _ = ReadOffer(data)
	})
}

// FuzzGfz is the gfz target: session descriptions from the grammar
// generator, a tenth of them with near-miss edits, read as remote offers;
// an offer ReadOffer rejects is an invalid input. No seeds: under plain
// go test it runs nothing.
func FuzzGfz(f *testing.F) {
	desc := gens.SDP(gens.SDPConfig{MistakesPer: 100})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := ReadOffer([]byte(desc.Draw(t))); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the input of the test the fix's pull request added
// (TestUnmarshalRepeatTimes: TimingSDP followed by an empty r= line).
const reproducer = "v=0\r\no=jdoe 2890844526 2890842807 IN IP4 10.47.16.5\r\ns=SDP Seminar\r\nt=2873397496 2873404696\r\nr=\r\n"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = ReadOffer([]byte(reproducer)) }, "index out of range [-1]", IsBug)
	// The other call: an interval without a duration, in an offer with a
	// media section after it, lines ending in LF.
	bugkit.ReproducerPanics(t, func() {
		_, _ = ReadOffer([]byte("v=0\no=- 1 1 IN IP4 127.0.0.1\ns=-\nt=0 0\nr=7d\nm=audio 9 RTP/AVP 0\n"))
	}, "index out of range [-1]", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this
// bug (no other panic of v3.0.6 is reported).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
