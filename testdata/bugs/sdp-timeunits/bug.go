// Package sdptimeunits pins github.com/pion/sdp/v3 v3.0.6, whose
// SessionDescription.Unmarshal panics (index out of range [-1]) on a
// repeat-times line with fewer than two fields, as "r=" or "r=7d"
// followed by the end of the line: the lexer's readField returns an empty
// string, without an error, when the line has no more fields, and
// unmarshalRepeatTimes hands the interval or the active duration it read
// to parseTimeUnits, which looks at the last byte of the value to find a
// unit (d, h, m, s) without checking that there is one. A remote offer
// received over the network crashes the endpoint instead of being
// rejected. Found by the fuzz target written for issue
// https://github.com/pion/sdp/issues/148 and fixed in the same pull request,
// https://github.com/pion/sdp/pull/162 ("fix parsing empty time unit causes
// crash", commit a509649, "Fix: check value length in parseTimeUnits"),
// released in v3.0.7.
//
// A near miss of the grammar: RFC 8866's r= line has an interval, a
// duration and at least one offset; one cut (or a line break put in)
// before the duration reaches the bug, trailing blanks after the interval
// too.
package sdptimeunits

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"example.com/bugkit"
	"github.com/pion/sdp/v3"
)

// Issue is the upstream fix, the pull request that closed issue #148 and
// says what it fixed.
const Issue = "https://github.com/pion/sdp/pull/162"

// Site is the read of the value's last byte in parseTimeUnits
// (unmarshal.go:869), whatever the caller (unmarshalRepeatTimes reaches it
// with the interval or the duration; unmarshalTimeZones checks for an
// empty offset before calling it).
var Site = bugkit.Site{Func: "github.com/pion/sdp/v3.parseTimeUnits", File: "unmarshal.go", Lines: []int{869}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Media is what an endpoint takes from one media section of a remote
// offer.
type Media struct {
	Kind       string
	MID        string
	Direction  string
	Codecs     []sdp.Codec
	Extensions []sdp.ExtMap
	Candidates []string
}

// Offer is a remote offer as an endpoint reads it: its media sections,
// the ICE credentials and DTLS fingerprint (session or media level), and
// the description marshalled again, as the endpoint keeps it.
type Offer struct {
	Media       []Media
	ICEUfrag    string
	ICEPwd      string
	Fingerprint string
	Text        []byte
}

// errFormat is an RTP media format that is not a payload type.
var errFormat = errors.New("media format is not a payload type")

func isRTP(protos []string) bool {
	for _, p := range protos {
		if p == "RTP" {
			return true
		}
	}
	return false
}

// attr returns the media's attribute key, else the session's.
func attr(sd *sdp.SessionDescription, md *sdp.MediaDescription, key string) string {
	if v, ok := md.Attribute(key); ok {
		return v
	}
	v, _ := sd.Attribute(key)
	return v
}

// ReadOffer does what a WebRTC endpoint does with a remote offer (as
// SetRemoteDescription does): unmarshal the description, then for each
// media section read its kind, mid and direction, the codec of each
// payload type (GetCodecForPayloadType: rtpmap, fmtp, rtcp-fb), the
// header extensions (ExtMap.Unmarshal) and the candidates, and the ICE
// credentials and fingerprint; last, marshal it back. An error is an
// offer the endpoint rejects: a syntax error, an RTP format that is not a
// payload type, an extmap line that does not parse.
func ReadOffer(data []byte) (*Offer, error) {
	var sd sdp.SessionDescription
	if err := sd.Unmarshal(data); err != nil {
		return nil, fmt.Errorf("unmarshal: %w", err)
	}
	off := &Offer{}
	for _, md := range sd.MediaDescriptions {
		m := Media{Kind: md.MediaName.Media}
		m.MID, _ = md.Attribute("mid")
		for _, a := range md.Attributes {
			switch {
			case a.Key == "sendrecv" || a.Key == "sendonly" || a.Key == "recvonly" || a.Key == "inactive":
				m.Direction = a.Key
			case a.Key == "extmap":
				var e sdp.ExtMap
				if err := e.Unmarshal(a.String()); err != nil {
					return nil, fmt.Errorf("extmap: %w", err)
				}
				m.Extensions = append(m.Extensions, e)
			case a.IsICECandidate():
				m.Candidates = append(m.Candidates, a.Value)
			}
		}
		if isRTP(md.MediaName.Protos) {
			for _, f := range md.MediaName.Formats {
				pt, err := strconv.ParseUint(f, 10, 8)
				if err != nil {
					return nil, fmt.Errorf("%w: %q", errFormat, f)
				}
				if c, err := sd.GetCodecForPayloadType(uint8(pt)); err == nil {
					m.Codecs = append(m.Codecs, c)
				}
			}
		}
		if off.ICEUfrag == "" {
			off.ICEUfrag, off.ICEPwd = attr(&sd, md, "ice-ufrag"), attr(&sd, md, "ice-pwd")
		}
		if off.Fingerprint == "" {
			off.Fingerprint = strings.TrimSpace(attr(&sd, md, "fingerprint"))
		}
		off.Media = append(off.Media, m)
	}
	text, err := sd.Marshal()
	if err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	off.Text = text
	return off, nil
}
