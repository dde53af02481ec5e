package remote_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// A program learns that its node left the network on its own (another
// live node of its name started earlier, met after a split) from Done
// and Err; after Close, Err is nil.
func ExampleNode_Done() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sys, _ := actor.NewSystem("orders")
	defer sys.Shutdown(ctx)
	node, err := remote.Start(sys)
	if err != nil {
		fmt.Println(err)
		return
	}
	left := make(chan error, 1)
	go func() {
		<-node.Done()
		if err := node.Err(); errors.Is(err, remote.ErrDuplicateNode) {
			left <- fmt.Errorf("another node serves this name: %w", err)
			return
		}
		left <- node.Err()
	}()

	_ = node.Close(ctx)
	fmt.Println("left:", <-left)
	// Output:
	// left: <nil>
}
