package sharding_test

import (
	"hash/fnv"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/sharding"
)

// TestShardOfIsFNV1a: the hash is FNV-1a 64 as the standard library
// computes it, so other implementations (JS, other languages) can agree.
func TestShardOfIsFNV1a(t *testing.T) {
	for _, id := range []string{"", "42", "cart-7", "ünïcode", string(make([]byte, 300))} {
		h := fnv.New64a()
		h.Write([]byte(id))
		for _, n := range []int{1, 7, 256, 65536} {
			if got, want := sharding.ShardOf(id, n), int(h.Sum64()%uint64(n)); got != want {
				t.Errorf("ShardOf(%q, %d) = %d, want %d", id, n, got, want)
			}
		}
	}
}

func FuzzShardOf(f *testing.F) {
	f.Add("42", 256)
	f.Fuzz(func(t *testing.T, id string, n int) {
		if n < 1 {
			return
		}
		if s := sharding.ShardOf(id, n); s < 0 || s >= n || s != sharding.ShardOf(id, n) {
			t.Fatalf("ShardOf(%q, %d) = %d", id, n, s)
		}
	})
}

func TestLeastShards(t *testing.T) {
	owners := func(spec ...string) []string { return spec }
	rep := func(o string, n int) []string { return slices.Repeat([]string{o}, n) }
	tests := []struct {
		name          string
		v             sharding.View
		claim, relase []int
	}{
		{
			name:  "alone claims all",
			v:     sharding.View{Self: "a", Nodes: []string{"a"}, Owners: owners("", "", "")},
			claim: []int{0, 1, 2},
		},
		{
			name:  "two split the free shards, first by name on ties",
			v:     sharding.View{Self: "b", Nodes: []string{"a", "b"}, Owners: owners("", "", "", "")},
			claim: []int{1, 3},
		},
		{
			name:  "least loaded takes the free shard",
			v:     sharding.View{Self: "b", Nodes: []string{"a", "b"}, Owners: owners("a", "a", "")},
			claim: []int{2},
		},
		{
			name: "not a member: claims nothing",
			v:    sharding.View{Self: "c", Nodes: []string{"a", "b"}, Owners: owners("", "")},
		},
		{
			name:   "a newcomer makes the loaded hand off down to an even share",
			v:      sharding.View{Self: "a", Nodes: []string{"a", "b", "c"}, Owners: append(rep("a", 6), rep("b", 6)...)},
			relase: []int{5, 4},
		},
		{
			name: "within the threshold: nothing moves",
			v:    sharding.View{Self: "a", Nodes: []string{"a", "b"}, Owners: owners("a", "a", "b")},
		},
		{
			name: "no hand-off while shards are free",
			v:    sharding.View{Self: "a", Nodes: []string{"a", "b", "c"}, Owners: append(rep("a", 6), "")},
		},
		{
			name: "a dead owner's shards do not count",
			v:    sharding.View{Self: "a", Nodes: []string{"a", "b"}, Owners: owners("a", "x", "x", "b")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sharding.LeastShards{Threshold: 1}
			if got := s.Claim(tt.v); !slices.Equal(got, tt.claim) {
				t.Errorf("Claim = %v, want %v", got, tt.claim)
			}
			if got := s.Release(tt.v); !slices.Equal(got, tt.relase) {
				t.Errorf("Release = %v, want %v", got, tt.relase)
			}
		})
	}
}

func TestOptionsRefuseBadValues(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"WithLease renew+margin >= ttl", optErr(sharding.WithLease(time.Second, 600*time.Millisecond, 400*time.Millisecond))},
		{"WithLease ttl too short", optErr(sharding.WithLease(50*time.Millisecond, 10*time.Millisecond, 0))},
		{"WithBucket empty", optErr(sharding.WithBucket(""))},
		{"WithBuffer zero", optErr(sharding.WithBuffer(0, time.Second))},
		{"WithReplicas 0", optErr(sharding.WithReplicas(0))},
		{"WithRebalance 0", optErr(sharding.WithRebalance(0))},
		{"WithRoles empty", optErr(sharding.WithRoles(""))},
		{"WithStrategy nil", optErr(sharding.WithStrategy(nil))},
		{"WithDeadLetters nil", optErr(sharding.WithDeadLetters(nil))},
	}
	for _, tt := range tests {
		if tt.err == nil || strings.Contains(tt.err.Error(), noNode) {
			t.Errorf("%s: accepted (%v)", tt.name, tt.err)
		}
	}
	if err := optErr(sharding.WithBucket("b")); err == nil || !strings.Contains(err.Error(), noNode) {
		t.Errorf("a good option: %v, want the missing node", err)
	}
}

const noNode = "needs a system"

// optErr runs an option against Start's validation: Start checks its
// options before its node.
func optErr(o sharding.Option) error {
	_, err := sharding.Start(nil, nil, o)
	return err
}
