package remote_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

// forger is an ordinary NATS client of the nodes' server: no node, just
// well-formed frames.
func forger(t *testing.T, url string, opts ...nats.Option) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// publish sends a frame of es on subject, with headers h if any.
func publish(t *testing.T, nc *nats.Conn, subject string, h nats.Header, es ...*wire.Envelope) {
	t.Helper()
	var frame []byte
	if len(es) > 0 {
		frame = wire.AppendFrame(nil, es...)
	}
	if err := nc.PublishMsg(&nats.Msg{Subject: subject, Header: h, Data: frame}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
}

// waitRejected waits until n has rejected want frames or envelopes.
func waitRejected(t *testing.T, n *node, want uint64) {
	t.Helper()
	ctx := waitCtx(t)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for n.node.Stats().Rejected < want {
		select {
		case <-ctx.Done():
			t.Fatalf("%s rejected %d, want %d", n.Name(), n.node.Stats().Rejected, want)
		case <-tick.C:
		}
	}
}

// TestForgedControlTrafficIsRefused: well-formed control frames published
// by a client that is not the node they claim to come from are not
// obeyed: n1 keeps n2, its watch of n2's actor and its pending ask, and
// n2 spawns nothing.
func TestForgedControlTrafficIsRefused(t *testing.T) {
	url := externalServer(t, func(*server.Options) {})
	n1 := startNode(t, "n1", remote.WithURL(url))
	n2 := startNode(t, "n2", remote.WithURL(url))
	meet(t, n1, n2)
	if err := n2.node.RegisterKind("account", func() actor.Actor { return &account{} }); err != nil {
		t.Fatal(err)
	}
	acct := spawnAccount(t, n2, "a")
	w := watch(n1, acct)
	actortest.Ask[int64](n1.System, acct, "balance") // the watch is in place
	watcher, target := wire.RefOf(w.Ref()), wire.RefOf(acct)
	nc := forger(t, url)
	status := func(subject string) nats.Header {
		return nats.Header{"Status": []string{"503"}, "Nats-Subject": []string{subject}}
	}
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
		{"no responders for another's subject", "troupe.n1.$nr.5", status("troupe.n2.k.i"), nil, n1},
		{"terminated claiming n2 on evil's subject", "troupe.n1.$n.evil", nil, &wire.Envelope{Kind: wire.KindTerminated, Node: "n2", To: watcher, From: target}, n1},
		{"terminated of n2's actor from evil", "troupe.n1.$n.evil", nil, &wire.Envelope{Kind: wire.KindTerminated, Node: "evil", To: watcher, From: target}, n1},
		{"spawn from a stranger", "troupe.n2.$n.evil", nil, &wire.Envelope{Kind: wire.KindSpawn, Node: "evil", To: wire.Ref{System: "n2", Kind: "account", ID: "forged"}, Corr: 1}, n2},
		{"watch from a stranger", "troupe.n2.$n.evil", nil, &wire.Envelope{Kind: wire.KindWatch, Node: "evil", To: target, From: wire.Ref{System: "evil", Kind: "w", ID: "1"}}, n2},
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
	// Nothing was obeyed: n2 is still up for n1, the watch still holds
	// and ends with the actor's own stop, and no actor was spawned.
	if sum := actortest.Ask[int64](n1.System, acct, "balance"); sum != 0 {
		t.Fatalf("balance = %d", sum)
	}
	if _, ok := n2.sys.Actor(actor.NewRef("n2", "account", "forged")); ok {
		t.Fatal("a forged spawn created an actor")
	}
	n2.sys.Stop(acct)
	if term := w.ExpectTerminated(acct); term.Reason != nil {
		t.Fatalf("watcher got %+v, want the actor's own stop", term)
	}
}

// TestPermissionsStopImpersonation: with a NATS user per node holding
// PermissionsFor, a node cannot publish another's heartbeats or frames
// in its name; the server refuses them, and the others never see them.
func TestPermissionsStopImpersonation(t *testing.T) {
	users := []*server.User{}
	for _, name := range []string{"n1", "n2", "n3"} {
		users = append(users, &server.User{Username: name, Password: name + "-secret", Permissions: remote.PermissionsFor(name).Server()})
	}
	url := externalServer(t, func(o *server.Options) { o.Users = users })
	as := func(name string) remote.Option {
		return remote.WithNATSOptions(nats.UserInfo(name, name+"-secret"))
	}
	n1 := startNode(t, "n1", remote.WithURL(url), as("n1"))
	n2 := startNode(t, "n2", remote.WithURL(url), as("n2"))
	meet(t, n1, n2)
	acct := spawnAccount(t, n2, "a")
	if sum := actortest.Ask[int64](n1.System, acct, "balance"); sum != 0 {
		t.Fatalf("ask with permissions = %d", sum)
	}
	// n3 is a member with credentials of its own, trying to be n2.
	violations := make(chan error, 8)
	nc := forger(t, url, nats.UserInfo("n3", "n3-secret"), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		violations <- err
	}))
	for _, f := range []struct {
		subject string
		e       *wire.Envelope
	}{
		{"troupe.$hb.n2", &wire.Envelope{Kind: wire.KindBye, Node: "n2", Corr: 1}},
		{"troupe.n1.$n.n2", &wire.Envelope{Kind: wire.KindTerminated, Node: "n2", To: wire.Ref{System: "n1", Kind: "w", ID: "1"}, From: wire.RefOf(acct)}},
		{"troupe.n1.$nr.1", nil},
	} {
		var es []*wire.Envelope
		if f.e != nil {
			es = append(es, f.e)
		}
		publish(t, nc, f.subject, nil, es...)
		select {
		case err := <-violations:
			if !errors.Is(err, nats.ErrPermissionViolation) && !strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
				t.Fatalf("%s: %v, want a permissions violation", f.subject, err)
			}
		case <-waitCtx(t).Done():
			t.Fatalf("%s: the server let n3 publish it", f.subject)
		}
	}
	// n3 may not read what is addressed to n1 either.
	if _, err := nc.SubscribeSync("troupe.n1.>"); err != nil {
		t.Fatal(err)
	}
	_ = nc.Flush()
	select {
	case err := <-violations:
		if !strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
			t.Fatalf("subscribe: %v, want a permissions violation", err)
		}
	case <-waitCtx(t).Done():
		t.Fatal("the server let n3 subscribe to n1's subjects")
	}
	if sum, err := actor.Ask[int64](context.Background(), n1.sys, acct, "balance"); err != nil || sum != 0 {
		t.Fatalf("ask after the attempts = %d, %v", sum, err)
	}
}

// TestLeafPermissionsStopImpersonation: in an embedded cluster whose hub
// gives each leaf node a user with PermissionsFor, a leaf joined with
// shop's credentials cannot say goodbye for courier, though it may read
// courier's heartbeats (and so its incarnation).
func TestLeafPermissionsStopImpersonation(t *testing.T) {
	users := remote.WithServerOptions(func(o *server.Options) {
		for _, name := range []string{"warehouse", "shop", "courier"} {
			o.Users = append(o.Users, &server.User{Username: name, Password: name + "-pw", Permissions: remote.PermissionsFor(name).Server()})
		}
	})
	hub := startNode(t, "warehouse", remote.WithLeafListen("127.0.0.1:0"), users, remote.WithNATSOptions(nats.UserInfo("warehouse", "warehouse-pw")))
	as := func(name string) string {
		return strings.Replace(hub.node.LeafURL(), "nats-leaf://", "nats-leaf://"+name+":"+name+"-pw@", 1)
	}
	courier := startNode(t, "courier", remote.WithLeafRemotes(as("courier")))
	meet(t, hub, courier)
	bike := spawnAccount(t, courier, "bike")
	w := watch(hub, bike)
	actortest.Ask[int64](hub.System, bike, "balance") // the watch is in place

	// A rogue nats-server joins the hub as a leaf with shop's
	// credentials; its client forges.
	u, err := url.Parse(as("shop"))
	if err != nil {
		t.Fatal(err)
	}
	rogue := externalServer(t, func(o *server.Options) {
		o.LeafNode.Remotes = []*server.RemoteLeafOpts{{URLs: []*url.URL{u}}}
	})
	nc := forger(t, rogue)
	hb, err := nc.SubscribeSync("troupe.$hb.courier")
	if err != nil {
		t.Fatal(err)
	}
	var inc uint64
	for inc == 0 { // courier's incarnation, from its heartbeats
		m, err := hb.NextMsg(waitLimit)
		if err != nil {
			t.Fatal(err)
		}
		_ = wire.ReadFrame(m.Data, 0, func(e *wire.Envelope) error { inc = e.Corr; return nil })
	}
	publish(t, nc, "troupe.$hb.courier", nil, &wire.Envelope{Kind: wire.KindBye, Node: "courier", Corr: inc})
	// Then a frame the hub receives and rejects, on the same subscription:
	// once it is counted, the goodbye was handled, had it arrived.
	before := hub.node.Stats().Rejected
	publish(t, nc, "troupe.$hb.shop", nil, &wire.Envelope{Kind: wire.KindHeartbeat, Node: "marker"})
	waitRejected(t, hub, before+1)
	courier.sys.Stop(bike)
	if term := w.ExpectTerminated(bike); term.Reason != nil {
		t.Fatalf("watcher got %+v, want the actor's own stop: the forged goodbye was obeyed", term)
	}
}
