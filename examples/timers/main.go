// Command timers shows the typed, keyed timers troupegen generates for an
// actor (RemindersTimers), with Akka's TimerScheduler semantics:
//
//   - a single-shot timer (RemindAfter), and a second start under the same
//     key replacing the first;
//   - the cancel guarantee: a timer cancelled after it fell due, while the
//     actor was busy, is never handled;
//   - fixed-rate ticks (TickFixedRate) catching up after a busy spell,
//     where fixed-delay ticks (TickFixedDelay) slip;
//   - a receive timeout, handled by a method taking actor.ReceiveTimeout.
//
// It runs on the real clock in under a second; its tests run the same
// scenes on the test kit's virtual time (actortest), where every count is
// exact.
//
//	go run ./examples/timers
package main

//go:generate go tool troupegen

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// unit is the time step of the scenes.
const unit = 50 * time.Millisecond

func main() {
	sys, err := actor.NewSystem("timers")
	if err != nil {
		log.Fatal(err)
	}
	d, err := newDemo(os.Stdout, sys, realTime)
	if err == nil {
		err = d.run()
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := sys.Shutdown(shut); err != nil {
		log.Fatal(err)
	}
	if err != nil {
		log.Fatal(err)
	}
}
