package poller_test

import (
	"fmt"
	"time"

	"github.com/troupe-go/troupe/poller"
)

// One goroutine owns the Poller and blocks in Wait; any other goroutine
// may Wake it.
func ExamplePoller_Wake() {
	p, err := poller.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()

	go func() { _ = p.Wake() }()
	events := make([]poller.Event, 16)
	n, err := p.Wait(events, -1) // returns once the Wake arrives
	fmt.Println(n, err)
	// Output: 0 <nil>
}

// Wait with a zero timeout polls and returns at once.
func ExamplePoller_Wait() {
	p, err := poller.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()

	n, err := p.Wait(make([]poller.Event, 16), 0)
	fmt.Println(n, err)
	_, err = p.Wait(make([]poller.Event, 16), 10*time.Millisecond)
	fmt.Println(err)
	// Output:
	// 0 <nil>
	// <nil>
}
