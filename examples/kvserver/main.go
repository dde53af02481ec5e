// Command kvserver is a Redis-protocol (RESP2) key-value server built on
// troupe: one actor per connection, the keyspace sharded over a few
// actors, expiry by actor timers. It answers PING, ECHO, GET, SET (EX,
// PX), DEL, EXISTS, INCR, EXPIRE, TTL, MGET, MSET, QUIT and the CONFIG GET
// that redis-benchmark sends first. Data lives in memory only.
//
//	go run ./examples/kvserver -addr 127.0.0.1:6380
//	redis-cli -p 6380 set greeting hello
//	redis-benchmark -p 6380 -t set,get -n 100000 -P 16 -q
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/examples/kvserver/kv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:6380", "TCP address to listen on")
	unixPath := flag.String("unix", "", "listen on this unix socket path instead")
	shards := flag.Int("shards", 4, "number of keyspace shard actors")
	flag.Parse()
	if err := run(*addr, *unixPath, *shards); err != nil {
		fmt.Fprintln(os.Stderr, "kvserver:", err)
		os.Exit(1)
	}
}

func run(addr, unixPath string, shards int) error {
	log, err := zap.NewProduction()
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	sys, err := actor.NewSystem("kvserver", actor.WithLogger(log))
	if err != nil {
		return err
	}
	network, address := "tcp", addr
	if unixPath != "" {
		network, address = "unix", unixPath
	}
	srv, err := kv.Start(sys, network, address, shards)
	if err != nil {
		_ = sys.Shutdown(context.Background())
		return err
	}
	log.Info("listening", zap.Stringer("addr", srv.Addr()), zap.Int("shards", shards))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return sys.Shutdown(sctx)
}
