//go:build unix

package chaos

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/sharding"
)

// Config is a run.
type Config struct {
	Dir       string   // logs and the JetStream store
	Exe       string   // the binary to run nodes with (calls MaybeNode first)
	Args      []string // its arguments
	Nodes     int      // 3 to 5
	Entities  int      // how many entities the client sends to
	Senders   int      // sending goroutines of the client
	Rate      int      // messages per second, all senders together
	Shards    int      // of the kind
	Idle      time.Duration
	Buffer    time.Duration // sharding.WithBuffer's time on every node
	Faults    []Step        // the script; nil: Random faults for Duration
	Duration  time.Duration // of the random faults
	NATS      bool          // restart the NATS server once, mid-run, with random faults
	Seed      uint64
	Logf      func(format string, args ...any)
	ReadyWait time.Duration // for the cluster to own every shard (default 60 s)
}

// Step is one fault of a script: At after the senders start, do Kind
// ("kill", "pause", "leave") to Node; a killed or leaving node is started
// again For later, a paused one resumed For later.
type Step struct {
	At   time.Duration
	Kind string
	Node string
	For  time.Duration
}

// lease is sharding's default lease time, which the nodes use.
const lease = 2 * time.Second

// run is one run in progress.
type run struct {
	cfg    Config
	hub    *hub
	procs  *procs
	client *member
	rng    *rand.Rand

	mu     sync.Mutex
	faults []Fault
	dead   []Dead // the client's
	// unowned is the longest stretch during which the client's table
	// named no owner for some shard, and when it began.
	unowned      time.Duration
	unownedSince time.Time
}

// Run runs cfg and checks its logs.
func Run(cfg Config) (*Report, error) {
	if cfg.Nodes < 1 || cfg.Entities < 1 || cfg.Senders < 1 || cfg.Rate < 1 {
		return nil, errors.New("chaos: Config needs Nodes, Entities, Senders and Rate")
	}
	if cfg.ReadyWait == 0 {
		cfg.ReadyWait = time.Minute
	}
	r := &run{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 26))}
	var err error
	if r.hub, err = startHub(cfg.Dir); err != nil {
		return nil, err
	}
	defer r.hub.stop()
	s := settings{url: r.hub.url(), dir: cfg.Dir, shards: cfg.Shards, idle: cfg.Idle, buffer: cfg.Buffer}
	r.procs = newProcs(cfg.Exe, cfg.Args, s)
	defer r.procs.killAll()
	for i := 1; i <= cfg.Nodes; i++ {
		if err := r.procs.start(nodeName(i)); err != nil {
			return nil, err
		}
	}
	quiet := []actor.Option{actor.WithLogger(zap.NewNop())} // the client's dead letters are counted, not logged
	if r.client, err = join("client", s, nil, r.clientDead, quiet); err != nil {
		return nil, err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = r.client.close(ctx)
	}()
	if err := r.ready(); err != nil {
		return nil, err
	}
	cfg.Logf("cluster ready: %d nodes own the %d shards", cfg.Nodes, cfg.Shards)
	sent, err := r.load()
	if err != nil {
		return nil, err
	}
	hold := cfg.Buffer + 2*lease + 2*time.Second
	r.drain(len(sent), hold)
	for _, n := range r.procs.names() {
		if err := r.procs.stop(n, syscall.SIGTERM); err != nil {
			cfg.Logf("%v", err)
		}
	}
	handled, dead, torn, err := readLogs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	dead = append(dead, r.dead...)
	faults := r.faults
	r.mu.Unlock()
	rep := Check(sent, handled, dead, faults, hold, r.client.proc)
	rep.Torn = torn
	r.mu.Lock()
	rep.Unowned, rep.UnownedSince = r.unowned, r.unownedSince
	r.mu.Unlock()
	return rep, nil
}

func nodeName(i int) string { return "n" + strconv.Itoa(i) }

func (r *run) clientDead(d Dead) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dead = append(r.dead, d)
}

func (r *run) fault(f Fault) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.faults = append(r.faults, f)
	r.cfg.Logf("%s %s (%s)", f.Kind, f.Node, time.Duration(f.End-f.Start).Round(time.Millisecond))
}

// ready waits until the client's table names an owner for every shard.
func (r *run) ready() error {
	deadline := time.Now().Add(r.cfg.ReadyWait)
	for {
		owned := 0
		for s := range r.cfg.Shards {
			if _, ok := r.client.kind.Owner(s); ok {
				owned++
			}
		}
		if owned == r.cfg.Shards && len(r.client.c.Members()) == r.cfg.Nodes+1 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("chaos: %d of %d shards owned, members %v, after %v", owned, r.cfg.Shards, r.client.c.Members(), r.cfg.ReadyWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// load runs the senders while the faults happen, and returns what they
// sent.
func (r *run) load() ([]Sent, error) {
	stop := make(chan struct{})
	out := make([][]Sent, r.cfg.Senders)
	var wg sync.WaitGroup
	every := time.Duration(int64(time.Second) * int64(r.cfg.Senders) / int64(r.cfg.Rate))
	for i := range r.cfg.Senders {
		rng := rand.New(rand.NewPCG(r.cfg.Seed, uint64(i)))
		wg.Go(func() { out[i] = r.send("s"+strconv.Itoa(i), rng, every, stop) })
	}
	wg.Go(func() { r.watchOwners(stop) })
	err := r.faultsRun()
	close(stop)
	wg.Wait()
	return slices.Concat(out...), err
}

// send is one sender: one message every interval to a random entity.
func (r *run) send(name string, rng *rand.Rand, every time.Duration, stop chan struct{}) []Sent {
	var sent []Sent
	t := time.NewTicker(every)
	defer t.Stop()
	for seq := uint64(1); ; seq++ {
		select {
		case <-stop:
			return sent
		case <-t.C:
		}
		id := "e" + strconv.Itoa(rng.IntN(r.cfg.Entities))
		owner, _ := r.client.kind.Owner(sharding.ShardOf(id, r.cfg.Shards))
		s := Sent{Entity: id, Sender: name, Seq: seq, Time: now(), Owner: owner}
		if err := r.client.kind.Get(id).Tell(Msg{Sender: name, Seq: seq}); err != nil {
			s.Err = err.Error()
			r.clientDead(Dead{Entity: id, Sender: name, Seq: seq, Reason: "at Tell: " + err.Error(), Proc: r.client.proc, Time: now()})
		}
		sent = append(sent, s)
	}
}

// faultsRun plays the script, or random faults.
func (r *run) faultsRun() error {
	if r.cfg.Faults == nil {
		return r.random()
	}
	start := time.Now()
	for _, st := range r.cfg.Faults {
		time.Sleep(time.Until(start.Add(st.At)))
		if err := r.do(st); err != nil {
			return err
		}
	}
	time.Sleep(2 * time.Second) // the last fault's aftermath, under load
	return nil
}

// random makes a random fault every 2–6 s until cfg.Duration passes,
// with the NATS server restarted once half way if cfg.NATS.
func (r *run) random() error {
	end := time.Now().Add(r.cfg.Duration)
	natsAt := time.Now().Add(r.cfg.Duration / 2)
	kinds := []string{"kill", "kill", "pause", "leave"}
	for time.Now().Before(end) {
		time.Sleep(2*time.Second + time.Duration(r.rng.Int64N(int64(4*time.Second))))
		if r.cfg.NATS && time.Now().After(natsAt) {
			r.cfg.NATS = false
			if err := r.restartNATS(); err != nil {
				return err
			}
			continue
		}
		st := Step{Kind: kinds[r.rng.IntN(len(kinds))], Node: nodeName(1 + r.rng.IntN(r.cfg.Nodes))}
		st.For = time.Second + time.Duration(r.rng.Int64N(int64(2*time.Second)))
		if st.Kind == "pause" {
			st.For = lease + 500*time.Millisecond + time.Duration(r.rng.Int64N(int64(time.Second)))
		}
		if err := r.do(st); err != nil {
			return err
		}
	}
	return nil
}

// do makes one fault, and undoes it st.For later.
func (r *run) do(st Step) error {
	start := now()
	switch st.Kind {
	case "kill", "leave":
		sig := syscall.SIGKILL
		if st.Kind == "leave" {
			sig = syscall.SIGTERM
		}
		if err := r.procs.stop(st.Node, sig); err != nil {
			// A node that fails to leave may lose what it held, as a
			// killed one does: count it as such, and go on.
			r.cfg.Logf("%v", err)
			r.fault(Fault{Kind: "leave-failed", Node: st.Node, Start: start, End: now()})
		}
		time.Sleep(st.For)
		if err := r.procs.start(st.Node); err != nil {
			return err
		}
	case "pause":
		if err := r.procs.signal(st.Node, syscall.SIGSTOP); err != nil {
			return err
		}
		time.Sleep(st.For)
		if err := r.procs.signal(st.Node, syscall.SIGCONT); err != nil {
			return err
		}
	case "restart-nats":
		return r.restartNATS()
	default:
		return fmt.Errorf("chaos: unknown fault %q", st.Kind)
	}
	r.fault(Fault{Kind: st.Kind, Node: st.Node, Start: start, End: now()})
	return nil
}

func (r *run) restartNATS() error {
	start := now()
	if err := r.hub.restart(); err != nil {
		return err
	}
	r.fault(Fault{Kind: "restart-nats", Node: "nats", Start: start, End: now()})
	return nil
}

// drain waits, after the senders stop, until every message sent is
// handled or a dead letter, or until nothing changed for hold.
func (r *run) drain(sent int, hold time.Duration) {
	last, since := -1, time.Now()
	for time.Since(since) < hold {
		hs, ds, _, err := readLogs(r.cfg.Dir)
		if err != nil {
			return
		}
		r.mu.Lock()
		n := len(hs) + len(ds) + len(r.dead)
		r.mu.Unlock()
		if n >= sent {
			return
		}
		if n != last {
			last, since = n, time.Now()
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// watchOwners samples the client's table every 50 ms while the load runs,
// and keeps the longest stretch with a shard that has no owner.
func (r *run) watchOwners(stop chan struct{}) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	var since time.Time
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		free := 0
		for s := range r.cfg.Shards {
			if _, ok := r.client.kind.Owner(s); !ok {
				free++
			}
		}
		switch {
		case free == 0:
			since = time.Time{}
		case since.IsZero():
			since = time.Now()
		default:
			r.mu.Lock()
			if d := time.Since(since); d > r.unowned {
				r.unowned, r.unownedSince = d, since
			}
			r.mu.Unlock()
		}
	}
}
