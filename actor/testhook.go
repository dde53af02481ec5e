package actor

import (
	"github.com/troupe-go/troupe/internal/actorhook"
	"github.com/troupe-go/troupe/loop"
)

// The test kit's window on the runtime; see internal/actorhook.
func init() {
	actorhook.Scheduler = func(sys any) *loop.Scheduler { return sys.(*System).sched }
}
