package isolate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// supervisorKind is the kind of the parent's actors that supervise
// groups; their ids are the groups' names.
const supervisorKind = "isolate"

// Host runs groups of actors in child processes for an actor system: it
// owns the system's node, whose embedded server the children join.
// Methods are safe from any goroutine.
type Host struct {
	sys   *actor.System
	node  *remote.Node
	cfg   hostConfig
	bin   string
	url   string
	token string         // the host's own connection's
	auth  *authenticator // the server's client authentication

	cgroup    *cgroupParent // where children's cgroups go; nil: rlimits only
	cgroupErr error         // why cgroup is nil

	mu     sync.Mutex
	seq    int // numbers the supervisors
	closed bool
	groups map[string]*Group
}

// Start makes sys a node ([remote.Start]) that children can join: its
// embedded nats-server also listens on a random loopback port and
// requires a random token of every client. Call [Main] first, at the
// start of main. Close the host before shutting sys down, or let sys's
// Shutdown stop the groups' supervisors, and their processes with them.
func Start(sys *actor.System, opts ...HostOption) (*Host, error) {
	if err := checkMain(); err != nil {
		return nil, err
	}
	cfg := defaultHostConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	bin, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("isolate: finding this program's executable: %w", err)
	}
	token := randomToken()
	h := &Host{sys: sys, cfg: cfg, bin: bin, token: token, auth: newAuthenticator(token), groups: map[string]*Group{}}
	if err := h.openCgroup(); err != nil {
		return nil, err
	}
	if err := h.startNode(); err != nil {
		return nil, err
	}
	return h, nil
}

// openCgroup finds the cgroup the host creates its children's in: the
// one WithCgroup names (which must be usable), or else its own (which
// may not be: then limits are rlimits alone). It logs which holds.
func (h *Host) openCgroup() error {
	dir := h.cfg.cgroupDir
	switch {
	case h.cfg.noCgroup:
		h.cgroupErr = fmt.Errorf("%w: WithoutCgroup", ErrNoCgroup)
	case dir != "":
		if h.cgroup, h.cgroupErr = openCgroupParent(dir); h.cgroupErr != nil {
			return h.cgroupErr
		}
	default:
		if dir, h.cgroupErr = findCgroupParent(); h.cgroupErr == nil {
			h.cgroup, h.cgroupErr = openCgroupParent(dir)
		}
	}
	log := h.sys.Logger().Named("isolate")
	if h.cgroup != nil {
		log.Info("isolate: children's limits: a cgroup v2 each (memory.max, cpu.max) and rlimits", zap.String("cgroup", h.cgroup.dir))
	} else {
		log.Info("isolate: children's limits: rlimits only (RLIMIT_AS, RLIMIT_CPU)", zap.String("no_cgroup", h.cgroupErr.Error()))
	}
	return nil
}

// Cgroup returns the cgroup v2 directory under which the host creates a
// cgroup for each child process, or "" and why it has none, wrapping
// [ErrNoCgroup]: then the children's limits are rlimits alone.
func (h *Host) Cgroup() (string, error) {
	if h.cgroup == nil {
		return "", h.cgroupErr
	}
	return h.cgroup.dir, nil
}

// checkMain refuses to start children unless they can become children.
func checkMain() error {
	if !supported {
		return ErrUnsupported
	}
	state.Lock()
	defer state.Unlock()
	if !state.mainCalled {
		return ErrNoMain
	}
	return nil
}

// startNode starts the host's node with a loopback client listener.
func (h *Host) startNode() error {
	reg, err := newRegistry(state.registry)
	if err != nil {
		return err
	}
	var so *server.Options
	listen := func(o *server.Options) {
		o.DontListen, o.Host, o.Port = false, "127.0.0.1", server.RANDOM_PORT
		so = o
	}
	// Last, after the program's own options, so that it sees their users.
	var authErr error
	auth := func(o *server.Options) { authErr = h.auth.install(o) }
	ropts := append([]remote.Option{
		remote.WithRegistry(reg), remote.WithHeartbeat(h.cfg.heartbeat, h.cfg.missed),
		remote.WithServerOptions(listen), remote.WithNATSOptions(nats.Token(h.token)),
	}, h.cfg.nodeOpts...)
	ropts = append(ropts, remote.WithServerOptions(auth))
	n, err := remote.Start(h.sys, ropts...)
	if err != nil {
		return fmt.Errorf("isolate: %w", errOr(authErr, err))
	}
	if authErr != nil {
		_ = n.Close(context.Background())
		return authErr
	}
	if so == nil || so.DontListen || so.Port <= 0 {
		_ = n.Close(context.Background())
		return errors.New("isolate: the host's node must run its embedded server with a client listener (no remote.WithURL)")
	}
	h.node = n
	// The server wrote the port it picked back into so (under the lock
	// that remote.Start's ready check took).
	h.url = "nats://127.0.0.1:" + strconv.Itoa(so.Port)
	return nil
}

// randomToken makes a secret: the host's token, a child's password.
func randomToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// Node returns the host's node.
func (h *Host) Node() *remote.Node { return h.node }

// Spawn starts a group of kind def named name in a child process, and
// waits under ctx until it is ready: its setup has run and the host has
// heard its node. name is the child's node and system name, unique among
// the host's groups and the nodes of its network (for a group per
// tenant, the tenant's name); the group's actors are reached with
// [Group.Ref]. A group whose first start fails is stopped, and Spawn
// returns the failure ([ErrSetup], [ErrStartTimeout], [ErrExited]);
// after that, supervision restarts the child whenever it dies. Spawn
// blocks: call it from outside actors.
func (h *Host) Spawn(ctx context.Context, def *Definition, name string, opts ...Option) (*Group, error) {
	if err := h.checkSpawn(def, name); err != nil {
		return nil, err
	}
	cfg := defaultGroupConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.cpuRate > 0 && h.cgroup == nil {
		return nil, fmt.Errorf("isolate: group %s: WithCPURate: %w", name, h.cgroupErr)
	}
	g := &Group{h: h, def: def, name: name, cfg: cfg, change: make(chan struct{}), stopped: make(chan struct{})}
	if err := h.track(g); err != nil {
		return nil, err
	}
	if _, err := h.sys.Spawn(supervisorKind, g.ref.ID(), func() actor.Actor { return &supervisor{g: g} }, cfg.spawnOpts...); err != nil {
		g.failed(err)
		g.gone()
		return nil, fmt.Errorf("isolate: group %s: %w", name, err)
	}
	if err := g.awaitFirst(ctx); err != nil {
		_ = g.Stop(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("isolate: group %s: %w", name, err)
	}
	return g, nil
}

// checkSpawn refuses what could not work.
func (h *Host) checkSpawn(def *Definition, name string) error {
	switch {
	case def == nil:
		return fmt.Errorf("%w: nil definition", ErrBadDefine)
	case def.late:
		return fmt.Errorf("%w: %q (define it at package level)", ErrLateDefine, def.name)
	case lookup(def.name) != def:
		return fmt.Errorf("%w: %q is not a definition of this program", ErrBadDefine, def.name)
	case name == "" || name == h.sys.Name():
		return fmt.Errorf("isolate: bad group name %q (empty, or the host's own)", name)
	case h.auth.users[name] != nil:
		return fmt.Errorf("isolate: bad group name %q: a user of the host's server has it", name)
	}
	return nil
}

// track adds g to the host's groups.
func (h *Host) track(g *Group) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	if _, ok := h.groups[g.name]; ok {
		return fmt.Errorf("isolate: group %s: %w", g.name, actor.ErrNameTaken)
	}
	h.groups[g.name] = g
	// The supervisor's id is numbered: a name freed by a failed group is
	// free again at once, even while its stopped supervisor is still
	// being unregistered.
	h.seq++
	g.ref = actor.NewRef(h.sys.Name(), supervisorKind, g.name+"."+strconv.Itoa(h.seq))
	return nil
}

// nextSeq returns a number unique among the host's.
func (h *Host) nextSeq() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	return h.seq
}

// forget removes g from the host's groups.
func (h *Host) forget(g *Group) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.groups[g.name] == g {
		delete(h.groups, g.name)
		h.auth.revoke(g.name)
	}
}

// Close stops every group, waiting under ctx for their processes to be
// gone, then closes the host's node. The system keeps running. Calling
// Close again returns nil.
func (h *Host) Close(ctx context.Context) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	groups := make([]*Group, 0, len(h.groups))
	for _, g := range h.groups {
		groups = append(groups, g)
	}
	h.mu.Unlock()
	for _, g := range groups {
		h.sys.Stop(g.ref) // all at once: their graces overlap
	}
	var errs []error
	for _, g := range groups {
		errs = append(errs, g.Stop(ctx))
	}
	errs = append(errs, h.node.Close(ctx))
	return errors.Join(errs...)
}
