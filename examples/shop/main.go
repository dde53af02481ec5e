// Command shop is a web shop whose carts are sharded entities on a
// cluster of nodes, each its own process, that survives a node killed
// with kill -9 while it serves requests:
//
//	go run ./examples/shop -nodes 3
//
// prints the shop's URL, each node's process id, and what to try. The
// launcher (this process) runs the NATS server, with JetStream storing in
// files, which holds the cluster's shard leases and the carts' states;
// it starts the nodes as processes of this same binary, and serves a
// front door that spreads requests over the live nodes (a load balancer
// would, in production).
//
// A cart is an entity of the kind "cart" (package sharding): the node
// that owns its shard runs it, whichever node took the request. Its state
// is stored (package persist, a durable state) before an add is answered,
// so when a node is killed, the survivors claim its shards once its
// leases run out (about 2 s), and the carts it ran come back on them with
// every acknowledged item. A request that meets the failover waits for it
// (its node retries the ask); every request can be retried, since an add
// carries a request id and a cart applies each once. The launcher starts
// a killed node again after -restart, and it takes back its share of the
// shards.
//
//	curl -X POST 'http://127.0.0.1:8080/carts/42/items?sku=tea&qty=2'
//	curl http://127.0.0.1:8080/carts/42
//	kill -9 <a node's pid>
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// A node process is this binary with these in its environment.
const (
	envNode = "SHOP_NODE"
	envNATS = "SHOP_NATS"
)

func main() {
	if name := os.Getenv(envNode); name != "" {
		if err := runNode(name, os.Getenv(envNATS)); err != nil {
			log.Fatalf("node %s: %v", name, err)
		}
		return
	}
	nodes := flag.Int("nodes", 3, "how many node processes")
	listen := flag.String("http", "127.0.0.1:8080", "the front door's address")
	restart := flag.Duration("restart", 5*time.Second, "start a node that died again after this (0: never)")
	flag.Parse()
	if err := run(*nodes, *listen, *restart, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// nodeEnv is the environment of node name's process.
func nodeEnv(name, natsURL string) []string {
	return append(os.Environ(), envNode+"="+name, envNATS+"="+natsURL)
}

func run(nodes int, listen string, restart time.Duration, out io.Writer) error {
	if nodes < 1 {
		return fmt.Errorf("shop: -nodes %d: need at least 1", nodes)
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "troupe-shop")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	s, err := startShop(shopConfig{nodes: nodes, listen: listen, dir: dir, exe: exe, env: nodeEnv, restart: restart, out: out})
	if err != nil {
		return err
	}
	defer s.close()
	fmt.Fprintf(out, "shop: %s (%d nodes; JetStream in %s)\n", s.url, nodes, dir)
	for _, c := range s.live() {
		fmt.Fprintf(out, "  node %s: pid %d, %s\n", c.name, c.cmd.Process.Pid, c.url)
	}
	fmt.Fprintf(out, "try:\n  curl -X POST '%s/carts/42/items?sku=tea&qty=2'\n  curl %s/carts/42\n", s.url, s.url)
	fmt.Fprintf(out, "then, under load, kill -9 one node's pid: its carts come back on the others within seconds, none of their acknowledged items lost")
	if restart > 0 {
		fmt.Fprintf(out, ", and the node is started again after %v", restart)
	}
	fmt.Fprintf(out, ". Ctrl-C stops the shop.\n")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	return nil
}
