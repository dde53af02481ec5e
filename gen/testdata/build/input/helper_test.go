package build

import "github.com/troupe-go/troupe/actor"

// Fake is in a test file.
//
//troupe:actor
type Fake struct{}

// Do is a message.
func (f *Fake) Do(*actor.Context) {}
