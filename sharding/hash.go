package sharding

// ShardOf returns the shard of the entity id among shards shards: FNV-1a
// of id, modulo shards. It is part of the cluster's contract: every node,
// every version, maps an id to the same shard.
func ShardOf(id string, shards int) int {
	return int(idHash(id) % uint64(shards))
}

// idHash is FNV-1a (64 bits) of id: its remainder by the shard count is
// the id's shard, and the cells table of the shard uses its other bits.
func idHash(id string) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= prime
	}
	return h
}
