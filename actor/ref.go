package actor

import (
	"fmt"
	"hash/maphash"
)

// Ref names an actor: its system, its kind and its id. It is a small
// comparable value, safe to copy and share between goroutines, and it does
// not point at the actor: a Ref stays valid, and means the same actor, in
// another process (remote actors) or after the actor stopped (messages then
// go to dead letters). The zero Ref names no actor.
type Ref struct {
	system, kind, id string
	h                uint64 // nameHash(kind, id), so a send hashes nothing
}

// NewRef returns the ref of the actor kind/id in the named system.
func NewRef(system, kind, id string) Ref {
	return Ref{system: system, kind: kind, id: id, h: nameHash(kind, id)}
}

// nameSeed seeds the hash of actor names, the same for every system of
// the process (refs are process-local values; a ref from elsewhere is
// made anew with NewRef).
var nameSeed = maphash.MakeSeed()

// nameHash hashes an actor's kind and id.
func nameHash(kind, id string) uint64 {
	return maphash.String(nameSeed, id) ^ maphash.String(nameSeed, kind)*0x9e3779b97f4a7c15
}

// System returns the name of the actor's system.
func (r Ref) System() string { return r.system }

// Kind returns the actor's kind.
func (r Ref) Kind() string { return r.kind }

// ID returns the actor's id, unique among actors of its kind.
func (r Ref) ID() string { return r.id }

// IsZero reports whether r names no actor.
func (r Ref) IsZero() bool { return r == Ref{} }

// String returns "troupe://system/kind/id".
func (r Ref) String() string {
	if r.IsZero() {
		return "troupe://<none>"
	}
	return fmt.Sprintf("troupe://%s/%s/%s", r.system, r.kind, r.id)
}
