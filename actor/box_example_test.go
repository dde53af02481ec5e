package actor_test

import (
	"context"
	"fmt"

	"github.com/troupe-go/troupe/actor"
)

// greetMsg is a message of two words, which an any could hold only by
// allocating a copy.
type greetMsg struct{ name, greeting string }

// welcomer stands for a generated adapter: its Receive takes the boxes its
// typed ref sends, and values (from timers, tests or other nodes).
type welcomer struct{}

func (*welcomer) Receive(_ *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case *actor.Box[greetMsg, *welcomer]:
		return m.Msg.greeting + ", " + m.Msg.name, nil
	case greetMsg:
		return m.greeting + ", " + m.name, nil
	}
	return nil, fmt.Errorf("%w: %T", actor.ErrUnhandled, msg)
}

// greetBoxes is what troupegen declares per message struct of an actor.
var greetBoxes actor.Boxes[greetMsg, *welcomer]

// A typed ref sends its message in a box from a pool: the actor it is
// meant for reads the box, the runtime reuses it once handled, and
// anyone else (probes, dead letters) sees the message as a value.
func ExampleBoxes() {
	sys, _ := actor.NewSystem("example")
	defer sys.Shutdown(context.Background())
	ref, _ := sys.Spawn("welcomer", "w", func() actor.Actor { return &welcomer{} })
	reply, err := actor.Ask[string](context.Background(), sys, ref, greetBoxes.Box(greetMsg{name: "Ada", greeting: "Hello"}))
	fmt.Println(reply, err)
	// Output: Hello, Ada <nil>
}
