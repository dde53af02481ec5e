package sharding

// FastSends returns how many messages k's senders sent by the fast route
// (fastroute.go).
func FastSends(k *Kind) uint64 {
	var n uint64
	for i := range k.shards {
		n += k.shards[i].fast.sends.Load()
	}
	return n
}
