package bad

import "github.com/troupe-go/troupe/actor"

//troupe:actor
type Bad struct{}

func (b *Bad) URL(c *actor.Context) {}
func (b *Bad) Url(c *actor.Context) {}
