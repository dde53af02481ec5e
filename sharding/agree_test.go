package sharding_test

import (
	"errors"
	"strings"
	"testing"

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
