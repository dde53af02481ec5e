package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if name := os.Getenv(envNode); name != "" { // a node process of a test's shop
		if err := runNode(name, os.Getenv(envNATS)); err != nil {
			fmt.Fprintf(os.Stderr, "node %s: %v\n", name, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// waitLimit bounds every wait of the test, in real time: the nodes are
// processes, so there is no virtual clock to drive.
const waitLimit = 60 * time.Second

// lockedBuffer collects the nodes' output, shown if the test fails.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startTestShop(t *testing.T, nodes int) *shop {
	t.Helper()
	out := &lockedBuffer{}
	s, err := startShop(shopConfig{nodes: nodes, listen: "127.0.0.1:0", dir: t.TempDir(), exe: os.Args[0], env: nodeEnv, out: out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Cleanup(func() {
		s.close()
		if t.Failed() {
			t.Logf("the nodes said:\n%s", out)
		}
	})
	return s
}

// outcome is one add request of the load: when it started and ended
// relative to the kill, and whether it was acknowledged.
type outcome struct {
	cart, req string
	phase     int // the phase it started in, 1 if it was in flight at the kill: see the phase constants
	ok        bool
	err       string
}

// The phases of the load: before the kill; from the kill (or in flight
// at it) until the survivors serve every shard; after.
const (
	before = iota + 1
	failingOver
	after
)

// A shop under load survives kill -9 of one of its three nodes: no
// request fails but those in flight at the kill or made during the
// failover (counted), every request after the failover succeeds, and
// every acknowledged add is in its cart at the end.
func TestSurvivesKill(t *testing.T) {
	s := startTestShop(t, 3)
	const workers, cartsPer = 6, 4
	var phase atomic.Int32
	phase.Store(before)
	var mu sync.Mutex
	var outcomes []outcome
	var afterDone [workers]atomic.Int32
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				o := outcome{cart: fmt.Sprintf("w%d-c%d", w, n%cartsPer), req: fmt.Sprintf("w%d-%d", w, n)}
				started := phase.Load()
				err := add(s.url, o.cart, o.req)
				o.ok, o.phase = err == nil, int(started)
				if err != nil {
					o.err = err.Error()
				}
				if ended := phase.Load(); started == before && ended != before {
					o.phase = failingOver // in flight at the kill
				}
				if o.phase == after {
					afterDone[w].Add(1)
				}
				mu.Lock()
				outcomes = append(outcomes, o)
				mu.Unlock()
			}
		})
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(outcomes) }
	waitFor(t, "100 requests before the kill", func() bool { return count() >= 100 })

	killed := time.Now()
	if err := s.kill("n2"); err != nil {
		t.Fatal(err)
	}
	phase.Store(failingOver)
	waitFor(t, "the survivors serve every shard", func() bool { return failedOver(s, "n2") })
	t.Logf("failover: the survivors serve all 256 shards %v after the kill", time.Since(killed).Round(time.Millisecond))
	phase.Store(after)
	waitFor(t, "30 requests per worker after the failover", func() bool {
		for w := range afterDone {
			if afterDone[w].Load() < 30 {
				return false
			}
		}
		return true
	})
	close(stop)
	wg.Wait()

	carts := map[string]Cart{}
	for w := range workers {
		for c := range cartsPer {
			id := fmt.Sprintf("w%d-c%d", w, c)
			cart, err := getCart(s.url, id)
			if err != nil {
				t.Fatalf("cart %s after the run: %v", id, err)
			}
			carts[id] = cart
		}
	}
	var acked, failed [after + 1]int
	lost, appliedAnyway := 0, 0
	for _, o := range outcomes {
		in := carts[o.cart].Items[o.req] == 1
		switch {
		case o.ok:
			acked[o.phase]++
			if !in {
				lost++
				t.Errorf("add %s to %s acknowledged (phase %d) but not in the cart", o.req, o.cart, o.phase)
			}
		default:
			failed[o.phase]++
			if in {
				appliedAnyway++
			}
			if o.phase != failingOver {
				t.Errorf("add %s to %s failed in phase %d: %s", o.req, o.cart, o.phase, o.err)
			}
		}
	}
	t.Logf("requests before the kill: %d acknowledged, %d failed; in flight at the kill or during the failover: %d acknowledged, %d failed (%d of them stored nonetheless); after: %d acknowledged, %d failed; acknowledged but lost: %d",
		acked[before], failed[before], acked[failingOver], failed[failingOver], appliedAnyway, acked[after], failed[after], lost)
}

// failedOver reports whether every live node but gone serves some shards,
// all shards together, and no longer lists gone as a member.
func failedOver(s *shop, gone string) bool {
	owned := 0
	for _, c := range s.live() {
		var h health
		if err := getJSON(c.url+"/health", &h); err != nil {
			return false
		}
		for _, m := range h.Members {
			if m == gone {
				return false
			}
		}
		owned += h.Owned
	}
	return owned == 256
}

var client = &http.Client{Timeout: waitLimit}

func add(url, cart, req string) error {
	resp, err := client.Post(fmt.Sprintf("%s/carts/%s/items?sku=%s&req=%s", url, cart, req, req), "", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var c Cart
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %s (%v)", resp.Status, err)
	}
	if c.Items[req] != 1 {
		return fmt.Errorf("the reply's cart lacks %s: %v", req, c.Items)
	}
	return nil
}

func getCart(url, id string) (Cart, error) {
	var c Cart
	return c, getJSON(url+"/carts/"+id, &c)
}

func getJSON(url string, v any) error {
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// waitFor polls cond until it holds, or fails the test after waitLimit.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still not so after %v: %s", waitLimit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
