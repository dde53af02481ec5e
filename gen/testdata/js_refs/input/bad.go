// Package bad is a golden test input: typed refs cross to JavaScript only
// as parameters of their own.
package bad

import "context"

// Peers uses its own generated ref.
//
//troupe:js
type Peers interface {
	Nested(refs []PeersRef) error
	Result(ctx context.Context) (PeersRef, error)
	Map(ctx context.Context, m map[string]PeersRef) error
	Fine(p PeersRef, more ...PeersRef) error
}
