package build

import "context"

// Win is out of a linux build.
//
//troupe:js
type Win interface {
	Open(ctx context.Context) error
}
