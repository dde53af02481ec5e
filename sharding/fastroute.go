package sharding

import (
	"slices"

	"github.com/troupe-go/troupe/actor"
)

// regionOn returns the ref of the kind's region on node, made once per
// node: a forward is a tell to it.
func (k *Kind) regionOn(node string) actor.Ref {
	if r, ok := k.regions.Load(node); ok {
		return r.(actor.Ref)
	}
	r := actor.NewRef(node, regionKind, k.name)
	k.regions.Store(node, r)
	return r
}

// pathFrom returns path with this node added, the path of a message this
// node forwards. A message that starts here shares one path of this node
// alone: paths are never written to (a node that adds itself copies).
func (k *Kind) pathFrom(path []string) []string {
	if len(path) == 0 {
		return k.selfPath
	}
	return append(slices.Clip(path), k.c.self)
}
