package remote_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

// keyring is a key pair per node name and the trust of them all, as
// every node of a signing network is given it.
type keyring struct {
	keys  map[string]nkeys.KeyPair
	trust map[string]string
}

func newKeyring(t testing.TB, names ...string) *keyring {
	t.Helper()
	k := &keyring{keys: map[string]nkeys.KeyPair{}, trust: map[string]string{}}
	for _, name := range names {
		kp, err := nkeys.CreateServer()
		if err != nil {
			t.Fatal(err)
		}
		pub, err := kp.PublicKey()
		if err != nil {
			t.Fatal(err)
		}
		k.keys[name], k.trust[name] = kp, pub
	}
	return k
}

// as returns the signing option of the node named name.
func (k *keyring) as(name string) remote.Option { return remote.WithSigning(k.keys[name], k.trust) }

// signedPair starts signing nodes n1 and n2 on a server without
// permissions, n2 able to spawn accounts, and returns them with the
// server's URL.
func signedPair(t *testing.T, ring *keyring) (n1, n2 *node, url string) {
	t.Helper()
	url = externalServer(t, func(*server.Options) {})
	n1 = startNode(t, "n1", remote.WithURL(url), ring.as("n1"))
	n2 = startNode(t, "n2", remote.WithURL(url), ring.as("n2"))
	meet(t, n1, n2)
	if err := n2.node.RegisterKind("account", func() actor.Actor { return &account{} }); err != nil {
		t.Fatal(err)
	}
	return n1, n2, url
}

// TestSignedForgeriesAreRefused: on a server where any client may
// publish anything, the forgeries of issue 29 and those on the very
// subjects of the node they claim, which a node without signing obeys,
// are refused by signing nodes: n1 keeps n2, its watch and its asks, and
// n2 spawns nothing.
func TestSignedForgeriesAreRefused(t *testing.T) {
	ring := newKeyring(t, "n1", "n2")
	n1, n2, url := signedPair(t, ring)
	acct := spawnAccount(t, n2, "a")
	w := watch(n1, acct)
	actortest.Ask[int64](n1.System, acct, "balance") // the watch is in place
	watcher, target := wire.RefOf(w.Ref()), wire.RefOf(acct)
	nc := forger(t, url)
	status := func(subject string) nats.Header {
		return nats.Header{"Status": []string{"503"}, "Nats-Subject": []string{subject}}
	}
	typ, body, err := registry(t).Marshal(nil, deposit{Amount: 5})
	if err != nil {
		t.Fatal(err)
	}
	spawn := &wire.Envelope{Kind: wire.KindSpawn, Node: "n1", To: wire.Ref{System: "n2", Kind: "account", ID: "forged"}, Corr: 1}
	tests := []struct {
		name    string
		subject string
		header  nats.Header
		e       *wire.Envelope
		on      *node
	}{
		{"heartbeat of n2 on another's subject", "troupe.$hb.evil", nil, &wire.Envelope{Kind: wire.KindHeartbeat, Node: "n2", Corr: 12345}, n1},
		{"goodbye of n2 on another's subject", "troupe.$hb.evil", nil, &wire.Envelope{Kind: wire.KindBye, Node: "n2", Corr: 12345}, n1},
		{"no responders for a frame never sent", "troupe.n1.$nr.5", status("troupe.n2.$n.n1"), nil, n1},
		{"terminated claiming n2 on evil's subject", "troupe.n1.$n.evil", nil, &wire.Envelope{Kind: wire.KindTerminated, Node: "n2", To: watcher, From: target}, n1},
		{"spawn from a stranger", "troupe.n2.$n.evil", nil, &wire.Envelope{Kind: wire.KindSpawn, Node: "evil", To: spawn.To, Corr: 1}, n2},
		// Without signing, these are obeyed: their subjects name the node
		// they claim.
		{"restart of n2 on its subject", "troupe.$hb.n2", nil, &wire.Envelope{Kind: wire.KindHeartbeat, Node: "n2", Corr: 12345}, n1},
		{"goodbye of n2 on its subject", "troupe.$hb.n2", nil, &wire.Envelope{Kind: wire.KindBye, Node: "n2", Corr: 12345}, n1},
		{"terminated of n2's actor from n2", "troupe.n1.$n.n2", nil, &wire.Envelope{Kind: wire.KindTerminated, Node: "n2", To: watcher, From: target}, n1},
		{"spawn from member n1", "troupe.n2.$n.n1", nil, spawn, n2},
		{"watch from member n1", "troupe.n2.$n.n1", nil, &wire.Envelope{Kind: wire.KindWatch, Node: "n1", To: target, From: wire.Ref{System: "n1", Kind: "w", ID: "1"}}, n2},
		{"tell from n1", "troupe.n2.$n.n1", nil, &wire.Envelope{Kind: wire.KindTell, Node: "n1", To: target, Type: typ, Body: body}, n2},
		{"reply to n1 from n2", "troupe.n1.$n.n2", nil, &wire.Envelope{Kind: wire.KindReply, Node: "n2", Corr: 7}, n1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.on.node.Stats().Rejected
			var es []*wire.Envelope
			if tt.e != nil {
				es = append(es, tt.e)
			}
			publish(t, nc, tt.subject, tt.header, es...)
			waitRejected(t, tt.on, before+1)
		})
	}
	if sum := actortest.Ask[int64](n1.System, acct, "balance"); sum != 0 {
		t.Fatalf("balance = %d: a forged tell was delivered", sum)
	}
	if _, ok := n2.sys.Actor(actor.NewRef("n2", "account", "forged")); ok {
		t.Fatal("a forged spawn created an actor")
	}
	n2.sys.Stop(acct)
	if term := w.ExpectTerminated(acct); term.Reason != nil {
		t.Fatalf("watcher got %+v, want the actor's own stop", term)
	}
}

// capture records what a plain client sees on subject from now on.
func capture(t *testing.T, nc *nats.Conn, subject string) *nats.Subscription {
	t.Helper()
	sub, err := nc.SubscribeSync(subject)
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return sub
}

// captured returns the messages sub has received so far, at least min,
// waiting for them.
func captured(t *testing.T, sub *nats.Subscription, min int) []*nats.Msg {
	t.Helper()
	var ms []*nats.Msg
	for {
		timeout := 10 * time.Millisecond
		if len(ms) < min {
			timeout = waitLimit
		}
		m, err := sub.NextMsg(timeout)
		if errors.Is(err, nats.ErrTimeout) && len(ms) >= min {
			return ms
		}
		if err != nil {
			t.Fatalf("%s: %v after %d messages", sub.Subject, err, len(ms))
		}
		ms = append(ms, m)
	}
}

// replay publishes ms again, as captured, and waits until on has
// rejected them all.
func replay(t *testing.T, nc *nats.Conn, on *node, ms []*nats.Msg) {
	t.Helper()
	before := on.node.Stats().Rejected
	for _, m := range ms {
		if err := nc.PublishMsg(&nats.Msg{Subject: m.Subject, Data: m.Data}); err != nil {
			t.Fatal(err)
		}
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	waitRejected(t, on, before+uint64(len(ms)))
}

// TestSignedReplaysAreRefused: genuine signed traffic captured by a
// client of the network and published again is refused: a heartbeat, a
// spawn (also into a later incarnation of its receiver) and a goodbye
// (into a later incarnation of its sender, and of its receiver).
func TestSignedReplaysAreRefused(t *testing.T) {
	ring := newKeyring(t, "n1", "n2", "n3")
	n1, n2, url := signedPair(t, ring)
	nc := forger(t, url)

	t.Run("heartbeat", func(t *testing.T) {
		hb := captured(t, capture(t, nc, "troupe.$hb.n2"), 1)
		replay(t, nc, n1, hb)
		if err := n1.node.WaitPeer(waitCtx(t), "n2"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("spawn", func(t *testing.T) {
		frames := capture(t, nc, "troupe.n2.$n.n1")
		ref, err := n1.node.Spawn(waitCtx(t), "n2", "account", "s1")
		if err != nil {
			t.Fatal(err)
		}
		spawn := captured(t, frames, 1)
		stopped := watch(n2, ref)
		n2.sys.Stop(ref)
		stopped.ExpectTerminated(ref)
		replay(t, nc, n2, spawn)
		if _, ok := n2.sys.Actor(ref); ok {
			t.Fatal("a replayed spawn created the actor again")
		}

		// Into a later incarnation of n2: sealed for the earlier one.
		if err := n2.node.Close(waitCtx(t)); err != nil {
			t.Fatal(err)
		}
		n2b := startNode(t, "n2", remote.WithURL(url), ring.as("n2"))
		if err := n2b.node.RegisterKind("account", func() actor.Actor { return &account{} }); err != nil {
			t.Fatal(err)
		}
		meet(t, n1, n2b)
		replay(t, nc, n2b, spawn)
		if _, ok := n2b.sys.Actor(ref); ok {
			t.Fatal("a spawn replayed into a later incarnation created the actor")
		}
	})

	t.Run("goodbye", func(t *testing.T) {
		hb := capture(t, nc, "troupe.$hb.n3")
		n3 := startNode(t, "n3", remote.WithURL(url), ring.as("n3"))
		meet(t, n1, n3)
		if err := n3.node.Close(waitCtx(t)); err != nil {
			t.Fatal(err)
		}
		old := captured(t, hb, 2) // heartbeats, then the goodbye
		// n3 again, watched by n1: its earlier run's goodbye and
		// heartbeats must not count for it.
		n3b := startNode(t, "n3", remote.WithURL(url), ring.as("n3"))
		meet(t, n1, n3b)
		acct := spawnAccount(t, n3b, "a")
		w := watch(n1, acct)
		actortest.Ask[int64](n1.System, acct, "balance")
		replay(t, nc, n1, old)

		// A later incarnation of n1, which never heard n3's first run.
		if err := n1.node.Close(waitCtx(t)); err != nil {
			t.Fatal(err)
		}
		w.ExpectTerminated(acct) // n1 left: its watch ended
		n1b := startNode(t, "n1", remote.WithURL(url), ring.as("n1"))
		meet(t, n1b, n3b)
		w = watch(n1b, acct)
		actortest.Ask[int64](n1b.System, acct, "balance")
		replay(t, nc, n1b, old[len(old)-1:])
		n3b.sys.Stop(acct)
		if term := w.ExpectTerminated(acct); term.Reason != nil {
			t.Fatalf("watcher got %+v, want the actor's own stop: a replayed goodbye was obeyed", term)
		}
	})
}

// TestUnsignedNodeCannotJoinSigningNetwork: a node without signing on a
// network of signing nodes is refused by them, and finds out at once:
// waiting for a signing node, or sending to it, fails with ErrSignature.
func TestUnsignedNodeCannotJoinSigningNetwork(t *testing.T) {
	ring := newKeyring(t, "n1", "u")
	url := externalServer(t, func(*server.Options) {})
	n1 := startNode(t, "n1", remote.WithURL(url), ring.as("n1"))
	acct := spawnAccount(t, n1, "a")
	before := n1.node.Stats().Rejected
	u := startNode(t, "u", remote.WithURL(url))
	err := u.node.WaitPeer(waitCtx(t), "n1")
	if !errors.Is(err, remote.ErrSignature) || !errors.Is(err, remote.ErrUnreachable) {
		t.Fatalf("WaitPeer from the unsigned node = %v, want ErrSignature and ErrUnreachable", err)
	}
	if _, err := actor.Ask[int64](waitCtx(t), u.sys, acct, "balance"); !errors.Is(err, remote.ErrSignature) {
		t.Fatalf("ask from the unsigned node = %v, want ErrSignature", err)
	}
	u.System.TakeDeadLetters()    // the ask's message, not sent
	waitRejected(t, n1, before+1) // its heartbeats
	if err := n1.sys.Tell(actor.NewRef("stranger", "k", "i"), "hi"); !errors.Is(err, remote.ErrSignature) {
		t.Fatalf("tell to a node with no trusted key = %v, want ErrSignature", err)
	}
	n1.System.TakeDeadLetters() // the tell, not sent
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := n1.node.WaitPeer(ctx, "u"); err == nil {
		t.Fatal("the signing node took the unsigned one for a member")
	}
}

// TestWithSigningRefusesBadKeys: keys that cannot sign, or that do not
// fit the node's name, fail the option or Start with ErrSignature.
func TestWithSigningRefusesBadKeys(t *testing.T) {
	ring := newKeyring(t, "n1", "n2")
	pub, err := nkeys.FromPublicKey(ring.trust["n1"])
	if err != nil {
		t.Fatal(err)
	}
	curve, err := nkeys.CreateCurveKeys()
	if err != nil {
		t.Fatal(err)
	}
	curvePub, _ := curve.PublicKey()
	tests := []struct {
		name  string
		key   nkeys.KeyPair
		trust map[string]string
	}{
		{"no key", nil, ring.trust},
		{"public key only", pub, ring.trust},
		{"no trusted keys", ring.keys["n1"], nil},
		{"malformed trusted key", ring.keys["n1"], map[string]string{"n1": ring.trust["n1"], "n2": "nope"}},
		{"curve key trusted", ring.keys["n1"], map[string]string{"n1": ring.trust["n1"], "n2": curvePub}},
		{"node not trusted", ring.keys["n1"], map[string]string{"n2": ring.trust["n2"]}},
		{"another node's key", ring.keys["n2"], ring.trust},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys, err := actor.NewSystem("n1")
			if err != nil {
				t.Fatal(err)
			}
			defer sys.Shutdown(waitCtx(t))
			n, err := remote.Start(sys, remote.WithSigning(tt.key, tt.trust))
			if !errors.Is(err, remote.ErrSignature) {
				if n != nil {
					_ = n.Close(waitCtx(t))
				}
				t.Fatalf("Start = %v, want ErrSignature", err)
			}
		})
	}
}

// TestSignedFullFrames: frames filled up to the limit still fit the
// server's max_payload once sealed: a burst of tells of half a frame less
// 75 bytes, on a server that takes no more than 64 KiB, all arrive (two
// of them fit a frame of 64 KiB, and were so batched, but not once the
// seal was added: the server refused them and they went to dead
// letters).
func TestSignedFullFrames(t *testing.T) {
	const limit = 64 << 10
	ring := newKeyring(t, "n1", "n2")
	url := externalServer(t, func(o *server.Options) { o.MaxPayload = limit })
	n1 := startNode(t, "n1", remote.WithURL(url), ring.as("n1"), remote.WithMaxFrame(limit))
	n2 := startNode(t, "n2", remote.WithURL(url), ring.as("n2"), remote.WithMaxFrame(limit))
	meet(t, n1, n2)
	p := n2.NewProbe("sink")
	const k = 200
	payload := make([]byte, (limit-150)/2)
	for range k {
		if err := n1.sys.Tell(p.Ref(), payload); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(p.ReceiveN(k)); got != k {
		t.Fatalf("received %d of %d", got, k)
	}
}
