package sharding_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/sharding"
)

// TestSettingsAgree: the first node to register a kind records its
// settings; a node that registers it with another shard count, role or
// kind of kind is refused with ErrMismatch (also a proxy, which routes by
// the shard count), and one with the same settings is let in.
func TestSettingsAgree(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 2})
	n1, n2 := nodes[0], nodes[1]
	if _, err := sharding.Register(n1.c, "odd", w.factory, sharding.WithShards(8), sharding.WithRole("a")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		f       actor.Factory
		opts    []sharding.KindOption
		refused string // in the error; "" for accepted
	}{
		{"other shard count", w.factory, []sharding.KindOption{sharding.WithShards(16), sharding.WithRole("a")}, "this node has 16 shards"},
		{"a proxy with another shard count", nil, []sharding.KindOption{sharding.WithShards(16), sharding.WithRole("a")}, "the cluster has 8 shards"},
		{"no role", w.factory, []sharding.KindOption{sharding.WithShards(8)}, "role a (recorded by n1)"},
		{"remembering entities", w.factory, []sharding.KindOption{sharding.WithShards(8), sharding.WithRole("a"), sharding.WithRememberEntities()}, "remembering entities"},
		{"the same", w.factory, []sharding.KindOption{sharding.WithShards(8), sharding.WithRole("a")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sharding.Register(n2.c, "odd", tt.f, tt.opts...)
			switch {
			case tt.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.refused != "" && (!errors.Is(err, sharding.ErrMismatch) || !strings.Contains(err.Error(), tt.refused)):
				t.Fatalf("got %v, want ErrMismatch saying %q", err, tt.refused)
			}
		})
	}
	// a singleton of the same name is another kind of kind
	if _, err := sharding.RegisterSingleton(n1.c, "counter", w.factory); !errors.Is(err, sharding.ErrMismatch) {
		t.Fatalf("a singleton named as a sharded kind: %v, want ErrMismatch", err)
	}
}

// TestSettingsRenewals: the nodes keep a kind's settings key alive with
// about one write per lease for the whole cluster, where each node used
// to rewrite it every renew interval, and the key stays when the node
// that wrote it last leaves: another node renews it before it runs out.
func TestSettingsRenewals(t *testing.T) {
	const ttl, renew, margin = 1500 * time.Millisecond, 150 * time.Millisecond, 500 * time.Millisecond
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 4, opts: []sharding.Option{sharding.WithLease(ttl, renew, margin)}})
	allOwned(t, nodes...)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	js, err := jetstream.NewWithDomain(nodes[0].Remote.Conn(), sharding.DefaultDomain)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx, "troupe_sharding")
	if err != nil {
		t.Fatal(err)
	}
	stream, err := js.Stream(ctx, "KV_"+"troupe_sharding")
	if err != nil {
		t.Fatal(err)
	}
	watch, err := kv.Watch(ctx, "kind.counter", jetstream.UpdatesOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = watch.Stop() }()
	lastSeq := func() uint64 {
		info, err := stream.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return info.State.LastSeq
	}
	attempts := func() (n uint64) {
		for _, n2 := range nodes {
			n += sharding.SettingsWrites(n2.c)
		}
		return n
	}

	start, seq0, tries0 := time.Now(), lastSeq(), attempts()
	var puts, deletes int
	for window := time.After(2 * ttl); window != nil; {
		select {
		case e := <-watch.Updates():
			if e != nil && e.Operation() == jetstream.KeyValuePut {
				puts++
			} else if e != nil {
				deletes++
			}
		case <-window:
			window = nil
		}
	}
	elapsed := time.Since(start)
	tries := attempts() - tries0
	t.Logf("in %v: %d writes to the bucket (%.1f/s), %d of the settings key (%.1f/s) out of %d attempts (%.1f/s)",
		elapsed.Round(time.Millisecond), lastSeq()-seq0, float64(lastSeq()-seq0)/elapsed.Seconds(),
		puts, float64(puts)/elapsed.Seconds(), tries, float64(tries)/elapsed.Seconds())
	// each node rewrites the key only once it is due, at most every
	// TTL - margin - renew after the last write it knows of
	if bound := uint64(len(nodes)) * uint64(elapsed/(ttl-margin-renew)+1); tries > bound {
		t.Fatalf("%d attempts to write the settings key in %v, more than %d", tries, elapsed, bound)
	}
	if deletes > 0 || puts == 0 {
		t.Fatalf("the settings key: %d writes, %d deletions or expiries", puts, deletes)
	}

	// the node that wrote it last leaves; the others keep it
	var left uint64 // the key's revision when its writer left
	for left == 0 {
		e, err := kv.Get(ctx, "kind.counter")
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range nodes {
			if left == 0 && sharding.WroteSettings(n.c, "counter", e.Revision()) {
				if err := n.c.Leave(ctx); err != nil {
					t.Fatal(err)
				}
				_ = n.c.Close()
				left = e.Revision()
			}
		}
	}
	for {
		select {
		case e := <-watch.Updates():
			switch {
			case e == nil || e.Revision() <= left:
			case e.Operation() != jetstream.KeyValuePut:
				t.Fatalf("the settings key went when the node that wrote it left: %v", e.Operation())
			default:
				return // renewed by another node
			}
		case <-ctx.Done():
			t.Fatal("the settings key was not renewed after the node that wrote it left")
		}
	}
}
