// Package kv is the key-value server of examples/kvserver: one connection
// actor per client (netactor), the keyspace sharded over a few shard
// actors by key hash, expiry by the shards' actor timers.
//
// A connection actor parses every complete command of a read, groups the
// key operations by shard, and tells each shard one batch; shards execute
// and tell the batch back, and the connection writes the replies in
// command order. So a pipeline of 16 commands costs one message per shard,
// not one per command, and no actor waits for another.
package kv
