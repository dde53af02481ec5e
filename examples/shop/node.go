package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/persist/jetstream"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"
)

// node is one shop node: an actor system joined to the sharded cluster,
// running the carts of the shards it owns and serving HTTP.
type node struct {
	name  string
	sys   *actor.System
	rn    *remote.Node
	c     *sharding.Cluster
	carts *sharding.Kind
	store *jetstream.Store
	http  *http.Server
}

// startNode joins the cluster whose NATS server (with JetStream, which
// holds the leases and the carts) is at url, and serves HTTP on ln.
func startNode(name, url string, ln net.Listener) (*node, error) {
	reg, err := registry()
	if err != nil {
		return nil, err
	}
	n := &node{name: name}
	if n.sys, err = actor.NewSystem(name); err != nil {
		return nil, err
	}
	if n.rn, err = remote.Start(n.sys, remote.WithURL(url), remote.WithRegistry(reg)); err != nil {
		return nil, err
	}
	if n.store, err = jetstream.Connect(n.rn.Conn(), jetstream.WithName("SHOP")); err != nil {
		return nil, err
	}
	factory, err := cartFactory(n.store)
	if err != nil {
		return nil, err
	}
	if n.c, err = sharding.Start(n.sys, n.rn); err != nil {
		return nil, err
	}
	if n.carts, err = sharding.Register(n.c, "cart", factory); err != nil {
		return nil, err
	}
	n.http = &http.Server{Handler: n.routes(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = n.http.Serve(ln) }()
	return n, nil
}

// leave hands the node's carts to the others, then stops.
func (n *node) leave(ctx context.Context) error {
	return errors.Join(n.http.Shutdown(ctx), n.c.Leave(ctx), n.c.Close(), n.rn.Close(ctx), n.sys.Shutdown(ctx))
}

func (n *node) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /carts/{id}/items", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		qty, err := strconv.Atoi(q.Get("qty"))
		if q.Get("qty") == "" {
			qty, err = 1, nil
		}
		if err != nil || qty < 1 || q.Get("sku") == "" {
			http.Error(w, "need ?sku=...&qty=<positive number>", http.StatusBadRequest)
			return
		}
		req := q.Get("req") // the client's id of this request, for retries
		if req == "" {
			req = fmt.Sprintf("%s-%d", n.name, time.Now().UnixNano())
		}
		n.reply(w, r, AddItem{Req: req, SKU: q.Get("sku"), Qty: qty})
	})
	mux.HandleFunc("GET /carts/{id}", func(w http.ResponseWriter, r *http.Request) {
		n.reply(w, r, GetCart{})
	})
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, health{Node: n.name, Owned: len(n.carts.Owned()), Members: n.c.Members()})
	})
	return mux
}

// health is what GET /health says about a node.
type health struct {
	Node    string   `json:"node"`
	Owned   int      `json:"owned"`   // shards this node serves
	Members []string `json:"members"` // live nodes, as it sees them
}

// reply asks the cart and writes its state. The ask is retried while the
// cart's shard fails over (a killed owner is noticed within a lease, about
// 2 s): commands are idempotent, so a retry is safe even when the first
// try was stored and only its reply lost.
func (n *node) reply(w http.ResponseWriter, r *http.Request, cmd any) {
	cart := n.carts.Get(r.PathValue("id"))
	ctx, cancel := context.WithTimeout(r.Context(), askBudget)
	defer cancel()
	for {
		try, cancelTry := context.WithTimeout(ctx, askTry)
		c, err := sharding.Ask[Cart](try, cart, cmd)
		cancelTry()
		if err == nil {
			w.Header().Set("X-Shop-Node", n.name)
			writeJSON(w, c)
			return
		}
		select {
		case <-ctx.Done():
			http.Error(w, fmt.Sprintf("%s: %v", cart, err), http.StatusServiceUnavailable)
			return
		case <-time.After(retryPause):
		}
	}
}

// The time a request may take while its cart fails over, each try of its
// ask, and the pause between tries.
const (
	askBudget  = 15 * time.Second
	askTry     = 3 * time.Second
	retryPause = 100 * time.Millisecond
)

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// runNode is a node process: it prints its HTTP URL as its first line,
// then serves until SIGTERM or SIGINT, then leaves the cluster
// gracefully.
func runNode(name, url string) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	n, err := startNode(name, url, ln)
	if err != nil {
		return err
	}
	fmt.Printf("http://%s\n", ln.Addr())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	<-sig
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return n.leave(ctx)
}
