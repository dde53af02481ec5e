package sharding

import "github.com/troupe-go/troupe/remote/wire"

// Registry returns the wire registry of the cluster's node, where the
// messages of its kinds must be registered to cross nodes (the functions
// troupegen writes for a //troupe:actor sharded register them there).
func (c *Cluster) Registry() *wire.Registry { return c.node.Registry() }
