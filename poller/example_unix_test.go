//go:build linux || darwin || dragonfly || freebsd

package poller_test

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/troupe-go/troupe/poller"
)

// Register a pipe's read end, make it readable, and Wait for it.
func ExamplePoller_Register() {
	p, err := poller.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	var fds [2]int
	if err := unix.Pipe(fds[:]); err != nil {
		fmt.Println(err)
		return
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])

	if err := p.Register(uintptr(fds[0]), poller.Readable, 42); err != nil {
		fmt.Println(err)
		return
	}
	unix.Write(fds[1], []byte("hello"))
	events := make([]poller.Event, 16)
	n, err := p.Wait(events, -1)
	fmt.Println(n, err, events[0].Token, events[0].Events)
	// Output: 1 <nil> 42 Readable
}
