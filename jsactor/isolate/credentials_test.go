//go:build unix

package isolate_test

import (
	"fmt"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/jsactor/isolate"
)

// forger plays a compromised child: its actor forger/main uses the
// child's own NATS connection to publish or subscribe where it is told,
// and answers "" if the server let it, or the server's refusal.
var forger = isolate.Define("forger", func(c *isolate.Child) error {
	nc := c.Node().Conn()
	_, err := c.System().Spawn("forger", "main", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			call, ok := msg.(jsactor.Call)
			if !ok || len(call.Args) != 1 {
				return nil, fmt.Errorf("forger: %#v", msg)
			}
			subject, _ := call.Args[0].(string)
			before := nc.LastError() // sticky: a refusal is a new one
			var err error
			switch call.Method {
			case "pub":
				err = nc.Publish(subject, []byte("forged"))
			case "sub":
				_, err = nc.SubscribeSync(subject)
			}
			if err == nil {
				err = nc.Flush() // the server answers the op before the PONG
			}
			if last := nc.LastError(); err == nil && last != before {
				err = last
			}
			if err == nil {
				return "", nil
			}
			return err.Error(), nil
		})
	})
	return err
})

// A child connects as its group's own NATS user: the server refuses it
// to publish frames in the host's or another group's name, their
// heartbeats, or to read what is addressed to them. What it may do,
// speak in its own name, still works.
func TestChildCannotImpersonate(t *testing.T) {
	ctx, r := testCtx(t), newRig(t)
	if _, err := r.h.Spawn(ctx, tenant, "t-victim"); err != nil {
		t.Fatal(err)
	}
	g, err := r.h.Spawn(ctx, forger, "t-forger")
	if err != nil {
		t.Fatal(err)
	}
	f := g.Ref("forger", "main")
	try := func(op, subject string) string {
		t.Helper()
		got, err := jsactor.Ask[string](ctx, r.sys, f, op, subject)
		if err != nil {
			t.Fatalf("%s %s: %v", op, subject, err)
		}
		return got
	}
	for _, tc := range []struct{ op, subject string }{
		{"pub", "troupe.t-victim.$n.host"}, // a frame to the victim as the host
		{"pub", "troupe.host.$n.t-victim"}, // a frame to the host as the victim
		{"pub", "troupe.t-victim.$n.t-forger.x"},
		{"pub", "troupe.$hb.host"},         // the host's heartbeat or goodbye
		{"pub", "troupe.$hb.t-victim"},     // the victim's
		{"pub", "troupe.t-victim.js.main"}, // anything else
		{"sub", "troupe.host.>"},           // the host's traffic
		{"sub", "troupe.t-victim.>"},       // the victim's
		{"sub", ">"},
	} {
		if got := try(tc.op, tc.subject); got == "" {
			t.Errorf("%s %s: the server let the child do it", tc.op, tc.subject)
		} else {
			t.Logf("%s %s: %s", tc.op, tc.subject, got)
		}
	}
	// Its own subjects are open to it: the asks above went through, and
	// so does a frame in its own name (which the host rejects as garbage).
	if got := try("pub", "troupe.host.$n.t-forger"); got != "" {
		t.Fatalf("pub in its own name: %s", got)
	}
	if sum, err := jsactor.Ask[int](ctx, r.sys, actor.NewRef("t-victim", "js", "main"), "add", 2, 3); err != nil || sum != 5 {
		t.Fatalf("victim after the attempts: %d, %v", sum, err)
	}
}
