package remote

import (
	"bytes"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"hash"
	"time"
)

// window remembers which counters of one stream of sealed messages were
// accepted: any above the highest, and those of the last 64 below it not
// seen yet (NATS keeps one publisher's order, but a node's heartbeats
// come from several goroutines). Anything else is a replay.
type window struct {
	top  uint64 // highest accepted; 0: none yet
	seen uint64 // bit i: top-i was accepted
}

// accept reports whether counter c is new, and records it.
func (w *window) accept(c uint64) bool {
	if c == 0 {
		return false
	}
	if c > w.top {
		if shift := c - w.top; shift >= 64 || w.top == 0 {
			w.seen = 1
		} else {
			w.seen = w.seen<<shift | 1
		}
		w.top = c
		return true
	}
	d := w.top - c
	if d >= 64 || w.seen&(1<<d) != 0 {
		return false
	}
	w.seen |= 1 << d
	return true
}

// signedNode is what a signing node knows of another node's
// incarnations: the last keptIncarnations it admitted.
type signedNode struct {
	incs []*incarnation
}

// keptIncarnations is how many incarnations of one node a signing node
// remembers. One started before all of them is refused: it is older than
// the oldest remembered, so it either was forgotten or is a replay.
const keptIncarnations = 8

// incarnation is one run of another node, as a signing node knows it:
// its announcement, the session key of the frames between the two, and a
// window per stream of what it sent.
type incarnation struct {
	inc      uint64
	start    int64
	announce [annSize]byte
	key      []byte
	in       hash.Hash // the session's MAC of inbound frames; inbound goroutine only
	// lastSeen and gone are under the signer's mu.
	lastSeen time.Time
	gone     bool // it said goodbye
	// frames is used on the inbound goroutine, heartbeats on the
	// heartbeat goroutine.
	frames, heartbeats window
}

// newMAC returns a MAC of the incarnation's session.
func (i *incarnation) newMAC() hash.Hash { return hmac.New(sha256.New, i.key) }

// admit returns the incarnation of node name that sent h, admitting it if
// it is new: its announcement must carry name's signature, and it must
// not have started before a live incarnation of name (one heard within
// the heartbeat limit that did not say goodbye) nor before every
// incarnation remembered: a node restarts forward in time, so an
// incarnation older than the one running is a replay of its past.
// Heartbeats of a new incarnation must also be recent (openBroadcast).
func (s *signer) admit(name string, h *sealHeader, heartbeat bool) (*incarnation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	sn := s.nodes[name]
	if sn == nil {
		if _, ok := s.trusted[name]; !ok {
			return nil, fmt.Errorf("%w: node %q has no trusted key", ErrSignature, name)
		}
		sn = &signedNode{}
		s.nodes[name] = sn
	}
	for _, i := range sn.incs {
		if i.inc != h.fromInc {
			continue
		}
		if i.start != h.start || !bytes.Equal(i.announce[:32], h.session[:]) || !bytes.Equal(i.announce[32:], h.annSig[:]) {
			return nil, fmt.Errorf("%w: incarnation %x of node %q announced otherwise", ErrSignature, h.fromInc, name)
		}
		if heartbeat {
			i.lastSeen = now
		}
		return i, nil
	}
	if !ed25519.Verify(s.trusted[name], announcement(name, h.fromInc, h.start, h.session[:]), h.annSig[:]) {
		return nil, fmt.Errorf("%w: bad announcement of node %q", ErrSignature, name)
	}
	for _, i := range sn.incs {
		if i.start > h.start && !i.gone && now.Sub(i.lastSeen) <= s.limit {
			return nil, fmt.Errorf("%w: incarnation %x of node %q started before the live one (%x): a replay", ErrSignature, h.fromInc, name, i.inc)
		}
	}
	oldest := -1
	for k, i := range sn.incs {
		if oldest < 0 || i.start < sn.incs[oldest].start {
			oldest = k
		}
	}
	if len(sn.incs) == keptIncarnations && h.start <= sn.incs[oldest].start {
		return nil, fmt.Errorf("%w: incarnation %x of node %q older than every one remembered", ErrSignature, h.fromInc, name)
	}
	key, err := s.sessionKey(name, h.fromInc, h.session[:])
	if err != nil {
		return nil, fmt.Errorf("%w: session key of node %q: %w", ErrSignature, name, err)
	}
	i := &incarnation{inc: h.fromInc, start: h.start, key: key}
	copy(i.announce[:32], h.session[:])
	copy(i.announce[32:], h.annSig[:])
	i.in = i.newMAC()
	if heartbeat {
		i.lastSeen = now
	}
	if len(sn.incs) == keptIncarnations {
		sn.incs[oldest] = i
	} else {
		sn.incs = append(sn.incs, i)
	}
	return i, nil
}

// left records that incarnation i said goodbye: it no longer holds back
// an older incarnation of its node (see admit).
func (s *signer) left(i *incarnation) {
	s.mu.Lock()
	i.gone = true
	s.mu.Unlock()
}
