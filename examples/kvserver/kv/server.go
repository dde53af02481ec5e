package kv

import (
	"errors"
	"strconv"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/netactor"
)

// Start spawns shards shard actors ("kv.shard"/0..) and a server
// listening on network/address ("kv"/"listener") whose connection actors
// use them.
func Start(sys *actor.System, network, address string, shards int, opts ...netactor.Option) (*netactor.Server, error) {
	if shards < 1 {
		return nil, errors.New("kv: need at least one shard")
	}
	refs := make([]actor.Ref, shards)
	for i := range refs {
		r, err := sys.Spawn("kv.shard", strconv.Itoa(i), func() actor.Actor { return NewShard() })
		if err != nil {
			return nil, err
		}
		refs[i] = r
	}
	return netactor.Serve(sys, "kv", "listener", network, address,
		func() netactor.ConnActor { return newConnActor(refs) }, opts...)
}
