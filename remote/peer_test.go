package remote

import (
	"errors"
	"testing"

	"github.com/troupe-go/troupe/remote/wire"
)

// testPeer returns a peer whose flush is held (flushing already set), so
// its queue can be inspected.
func testPeer(limit, maxFrame int) *peer {
	n := &Node{name: "me", cfg: defaultConfig()}
	n.cfg.outboundLimit, n.cfg.maxFrame = limit, maxFrame
	p := newPeer(n, "other")
	p.flushing = true
	return p
}

func tellTo(id string, body int) *wire.Envelope {
	return &wire.Envelope{Kind: wire.KindTell, Node: "me", To: wire.Ref{System: "other", Kind: "k", ID: id}, Type: "bytes", Body: make([]byte, body)}
}

func TestOutboundLimit(t *testing.T) {
	p := testPeer(1000, 1<<20)
	sent := 0
	var err error
	for ; sent < 100; sent++ {
		if err = p.enqueue(tellTo("a", 90)); err != nil {
			break
		}
	}
	if !errors.Is(err, ErrOverloaded) || sent < 9 || sent > 11 {
		t.Fatalf("after %d sends of ~100 bytes with a 1000-byte limit: %v, want ErrOverloaded", sent, err)
	}
	if got := p.n.stats.overloaded.Load(); got != 1 {
		t.Fatalf("overloaded counter = %d", got)
	}
}

func TestBatchingSplitsFrames(t *testing.T) {
	const maxFrame = 1024
	p := testPeer(1<<20, maxFrame)
	if err := p.enqueue(tellTo("a", 10)); err != nil {
		t.Fatal(err)
	}
	for range 99 {
		if err := p.enqueue(tellTo("a", 50)); err != nil {
			t.Fatal(err)
		}
	}
	if p.subject != "troupe.other.$n.me" {
		t.Fatalf("frames go to %q, want the subject naming both nodes", p.subject)
	}
	frames := append(p.ready, outFrame{data: p.frame})
	count := 0
	for _, f := range frames {
		if len(f.data) > maxFrame {
			t.Fatalf("frame of %d bytes, limit %d", len(f.data), maxFrame)
		}
		if err := wire.ReadFrame(f.data, maxFrame, func(*wire.Envelope) error { count++; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if count != 100 || len(frames) < 5 {
		t.Fatalf("%d envelopes in %d frames, want 100 in several", count, len(frames))
	}
	if err := p.enqueue(tellTo("a", 2*maxFrame)); !errors.Is(err, wire.ErrTooLarge) {
		t.Fatalf("oversized message: %v, want ErrTooLarge", err)
	}
}

func TestErrorCodesRoundTrip(t *testing.T) {
	for _, c := range codes[1:] {
		err, _ := decodeError(nil, "n", encodeError(nil, c))
		if !errors.Is(err, c) {
			t.Errorf("%v did not survive the wire: %v", c, err)
		}
	}
	if err, _ := decodeError(nil, "n", encodeError(nil, nil)); err != nil {
		t.Error("nil error became non-nil")
	}
	if err, _ := decodeError(nil, "n", &wire.Error{Code: 999, Message: "future"}); err == nil || len(err.(*Error).Unwrap()) != 0 {
		t.Errorf("unknown code: %v", err)
	}
}

// TestOversizedMessageLeavesNoFrame: a message refused for being larger
// than a frame leaves nothing queued, not even a frame of a header alone
// for the running flush to publish (the receiver would reject it), and
// the frame already being filled keeps its messages.
func TestOversizedMessageLeavesNoFrame(t *testing.T) {
	p := testPeer(1<<20, 1024)
	if err := p.enqueue(tellTo("a", 2000)); !errors.Is(err, wire.ErrTooLarge) {
		t.Fatalf("oversized first message = %v, want ErrTooLarge", err)
	}
	if len(p.frame) != 0 || len(p.ready) != 0 || p.queued != 0 {
		t.Fatalf("after a refused first message: frame %d bytes, %d ready, %d queued", len(p.frame), len(p.ready), p.queued)
	}
	if err := p.enqueue(tellTo("a", 10)); err != nil {
		t.Fatal(err)
	}
	kept := len(p.frame)
	if err := p.enqueue(tellTo("a", 2000)); !errors.Is(err, wire.ErrTooLarge) {
		t.Fatalf("oversized second message = %v, want ErrTooLarge", err)
	}
	if len(p.frame) != kept || p.count != 1 || len(p.ready) != 0 {
		t.Fatalf("the frame being filled changed: %d bytes (was %d), %d envelopes, %d ready", len(p.frame), kept, p.count, len(p.ready))
	}
}
