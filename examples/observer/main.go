// Command observer starts a small, busy actor system and serves the
// observer page for it: run it, open the URL it prints.
//
//	go run ./examples/observer [-addr 127.0.0.1:8080] [-actions]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/observe"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to serve the observer on")
	actions := flag.Bool("actions", false, "let the page stop and restart actors")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	app, err := start(*addr, *actions)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("observer: %s\n", app.URL)
	<-ctx.Done()
	app.Close()
}

// app is the running example: a busy system and the observer's server.
type app struct {
	URL string
	sys *actor.System
	obs *observe.Observer
	srv *http.Server
}

// start makes the system busy and serves its observer on addr, with the
// Prometheus metrics beside it at /metrics.
func start(addr string, actions bool) (*app, error) {
	// The printer's failures show on the page; the log would repeat them.
	sys, err := actor.NewSystem("shop", actor.WithLogger(zap.NewNop()))
	if err != nil {
		return nil, err
	}
	sys.SetDetailedMetrics(true) // mailbox wait times and start times
	if err := spawnShop(sys); err != nil {
		return nil, err
	}
	var opts []observe.ObserverOption
	if actions {
		opts = append(opts, observe.WithActions())
	}
	obs, err := observe.NewObserver(sys, opts...)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/", obs)
	mux.Handle("/metrics", observe.MetricsHandler(sys))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	a := &app{URL: "http://" + ln.Addr().String() + "/", sys: sys, obs: obs, srv: &http.Server{Handler: mux}}
	go func() {
		if err := a.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Print(err)
		}
	}()
	return a, nil
}

// Close stops serving, then the system.
func (a *app) Close() {
	_ = a.obs.Close() // ends the live streams, so that Shutdown need not wait for them
	_ = a.srv.Shutdown(context.Background())
	_ = a.sys.Shutdown(context.Background())
}
