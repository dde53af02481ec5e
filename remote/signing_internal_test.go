package remote

import (
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nkeys"

	"github.com/troupe-go/troupe/remote/wire"
)

func TestWindow(t *testing.T) {
	var w window
	steps := []struct {
		c    uint64
		want bool
	}{
		{0, false}, {10, true}, {10, false}, {12, true}, {11, true}, {11, false},
		{9, true}, {200, true}, {137, true}, {136, false}, {199, true}, {12, false}, {201, true},
	}
	for i, s := range steps {
		if got := w.accept(s.c); got != s.want {
			t.Fatalf("step %d: accept(%d) = %v, want %v", i, s.c, got, s.want)
		}
	}
}

// signers returns the signers of incarnations 1 of "a" and 2 of "b",
// trusting each other, and of "evil", trusted by neither.
func signers(t testing.TB) (a, b, evil *signer) {
	t.Helper()
	trust := map[string]string{}
	keys := map[string]nkeys.KeyPair{}
	for _, name := range []string{"a", "b", "evil"} {
		kp, err := nkeys.CreateServer()
		if err != nil {
			t.Fatal(err)
		}
		keys[name] = kp
		trust[name], _ = kp.PublicKey()
	}
	mk := func(name string, inc uint64, trusted map[string]string) *signer {
		var c config
		if err := WithSigning(keys[name], trusted)(&c); err != nil {
			t.Fatal(err)
		}
		s, err := newSigner(c.signing, name, inc, time.Now().UnixNano(), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	good := map[string]string{"a": trust["a"], "b": trust["b"]}
	return mk("a", 1, good), mk("b", 2, good), mk("evil", 3, trust)
}

// TestOpenRefusesTampering: a frame sealed by a for b opens once, for b
// only; altered anywhere, put on another subject, sealed by a key not
// trusted for its sender or for another incarnation, it does not.
func TestOpenRefusesTampering(t *testing.T) {
	a, b, evil := signers(t)
	frame := wire.AppendFrame(nil, &wire.Envelope{Kind: wire.KindTell, Node: "a", To: wire.Ref{System: "b", Kind: "k", ID: "i"}, Body: []byte("x")})
	subject := frameSubject("b", "a")
	// a's session with b's incarnation, as a learns it from b's heartbeat.
	hb := b.sealBroadcast(heartbeatSubject("b"), wire.AppendFrame(nil, &wire.Envelope{Kind: wire.KindHeartbeat, Node: "b", Corr: 2}))
	_, sess, err := a.openBroadcast(heartbeatSubject("b"), "b", hb)
	if err != nil {
		t.Fatal(err)
	}
	seal := func(s *signer, counter uint64) []byte {
		return s.sealMAC(nil, subject, 2, counter, sess.newMAC(), &macBuf{}, frame)
	}
	good := seal(a, 7)
	got, anyOnly, err := b.openFrame(subject, "a", good, &macBuf{})
	if err != nil || anyOnly || string(got) != string(frame) {
		t.Fatalf("openFrame = %q, %v, %v", got, anyOnly, err)
	}
	if _, _, err := b.openFrame(subject, "a", good, &macBuf{}); !errors.Is(err, ErrSignature) {
		t.Fatalf("replayed: %v", err)
	}
	for i := range len(good) {
		bad := seal(a, uint64(100+i))
		bad[i] ^= 0x10
		if _, _, err := b.openFrame(subject, "a", bad, &macBuf{}); err == nil {
			t.Fatalf("byte %d altered: opened", i)
		}
	}
	if _, _, err := b.openFrame(frameSubject("b", "c"), "a", seal(a, 51), &macBuf{}); err == nil {
		t.Fatal("another subject: opened")
	}
	evilHB := evil.sealBroadcast(heartbeatSubject("a"), wire.AppendFrame(nil, &wire.Envelope{Kind: wire.KindBye, Node: "a", Corr: 1}))
	if _, _, err := b.openBroadcast(heartbeatSubject("a"), "a", evilHB); !errors.Is(err, ErrSignature) {
		t.Fatalf("goodbye of a signed by evil: %v", err)
	}
	if _, _, err := b.openFrame(subject, "a", frame, &macBuf{}); !errors.Is(err, ErrSignature) {
		t.Fatalf("unsigned: %v", err)
	}
	ping := a.sealSig(nil, subject, 60, wire.AppendFrame(nil, &wire.Envelope{Kind: wire.KindPing, Node: "a"}))
	if _, anyOnly, err := b.openFrame(subject, "a", ping, &macBuf{}); err != nil || !anyOnly {
		t.Fatalf("ping signed for any receiver: %v, %v", anyOnly, err)
	}
}

// FuzzOpenSealed: whatever arrives, opening it never panics, and nothing
// but a sealed message of a trusted sender opens.
func FuzzOpenSealed(f *testing.F) {
	a, b, _ := signers(f)
	subject := frameSubject("b", "a")
	frame := wire.AppendFrame(nil, &wire.Envelope{Kind: wire.KindPing, Node: "a"})
	f.Add(a.sealSig(nil, subject, 1, frame))
	f.Add(a.sealBroadcast(heartbeatSubject("a"), frame))
	f.Add(frame)
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, _, err := b.openFrame(subject, "a", data, &macBuf{}); err == nil && !sealed(data) {
			t.Fatalf("unsealed data opened: %q", got)
		}
		if _, _, err := b.openBroadcast(heartbeatSubject("a"), "a", data); err == nil && !sealed(data) {
			t.Fatal("unsealed heartbeat opened")
		}
	})
}
