//go:build unix

package chaos

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"reflect"
	"strconv"
	"syscall"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
	"github.com/troupe-go/troupe/sharding"
)

// The environment of a node process.
const (
	envNode   = "TROUPE_CHAOS_NODE" // the node's name; set: this process is a node
	envURL    = "TROUPE_CHAOS_URL"
	envDir    = "TROUPE_CHAOS_DIR"
	envShards = "TROUPE_CHAOS_SHARDS"
	envIdle   = "TROUPE_CHAOS_IDLE"
	envBuffer = "TROUPE_CHAOS_BUFFER"
)

// kindName is the entity kind of the run; role the role of the nodes that
// run it (the client has none, so it only routes).
const (
	kindName = "chaos"
	role     = "worker"
)

// MaybeNode runs this process as a node of the run and exits, if the
// harness started it as one; otherwise it returns at once. Call it first
// in TestMain (or main) of the binary the harness executes again.
func MaybeNode() {
	name := os.Getenv(envNode)
	if name == "" {
		return
	}
	if err := runNode(name); err != nil {
		fmt.Fprintf(os.Stderr, "chaos node %s: %v\n", name, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// registry holds the run's message type, the same on every node.
func registry() (*wire.Registry, error) {
	r := wire.NewRegistry()
	return r, wire.Register[Msg](r, "chaos.Msg")
}

// settings are what the harness passes to every node.
type settings struct {
	url, dir     string
	shards       int
	idle, buffer time.Duration
}

func settingsFromEnv() (settings, error) {
	s := settings{url: os.Getenv(envURL), dir: os.Getenv(envDir)}
	var err1, err2, err3 error
	s.shards, err1 = strconv.Atoi(os.Getenv(envShards))
	s.idle, err2 = time.ParseDuration(os.Getenv(envIdle))
	s.buffer, err3 = time.ParseDuration(os.Getenv(envBuffer))
	return s, errors.Join(err1, err2, err3)
}

func (s settings) env(name string) []string {
	return append(os.Environ(), envNode+"="+name, envURL+"="+s.url, envDir+"="+s.dir,
		envShards+"="+strconv.Itoa(s.shards), envIdle+"="+s.idle.String(), envBuffer+"="+s.buffer.String())
}

// member is one node of the run in some process: its system, transport
// and cluster, with the kind registered (f nil: the client, which only
// routes).
type member struct {
	sys   *actor.System
	node  *remote.Node
	c     *sharding.Cluster
	kind  *sharding.Kind
	proc  string
	onDie func(Dead)
}

// join starts a member. Dead letters of chaos messages, from sharding or
// from the system (a tell to a node that is gone), go to onDie.
func join(name string, s settings, f actor.Factory, onDie func(Dead), sysOpts []actor.Option, roles ...string) (*member, error) {
	reg, err := registry()
	if err != nil {
		return nil, err
	}
	m := &member{proc: procName(name), onDie: onDie}
	if m.sys, err = actor.NewSystem(name, sysOpts...); err != nil {
		return nil, err
	}
	m.sys.SubscribeDeadLetters(func(d actor.DeadLetter) { m.systemDead(d) })
	if m.node, err = remote.Start(m.sys, remote.WithURL(s.url), remote.WithRegistry(reg)); err != nil {
		return nil, err
	}
	opts := []sharding.Option{sharding.WithBuffer(1000, s.buffer), sharding.WithDeadLetters(m.shardingDead)}
	if len(roles) > 0 {
		opts = append(opts, sharding.WithRoles(roles...))
	}
	if m.c, err = sharding.Start(m.sys, m.node, opts...); err != nil {
		return nil, err
	}
	m.kind, err = sharding.Register(m.c, kindName, f, sharding.WithShards(s.shards), sharding.WithRole(role), sharding.WithIdleTimeout(s.idle))
	return m, err
}

func (m *member) shardingDead(d sharding.DeadLetter) {
	if msg, ok := d.Message.(Msg); ok {
		m.onDie(Dead{Entity: d.Entity.ID(), Sender: msg.Sender, Seq: msg.Seq, Reason: d.Reason.Error(), Proc: m.proc, Time: now()})
	}
}

// systemDead logs a chaos message the system could not deliver: to a
// stopped entity (its own, plain), or inside sharding's envelope to a
// node that is gone (whose fields ID and Msg it reads by name).
func (m *member) systemDead(d actor.DeadLetter) {
	id, msg := d.To.ID(), d.Message
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct && v.Type().PkgPath() != reflect.TypeOf(Msg{}).PkgPath() {
		fid, fmsg := v.FieldByName("ID"), v.FieldByName("Msg")
		if !fid.IsValid() || !fmsg.IsValid() || fid.Kind() != reflect.String {
			return
		}
		id, msg = fid.String(), fmsg.Interface()
	}
	if cm, ok := msg.(Msg); ok {
		m.onDie(Dead{Entity: id, Sender: cm.Sender, Seq: cm.Seq, Reason: d.Reason.Error(), Proc: m.proc, Time: now()})
	}
}

// leave leaves the cluster gracefully, then closes everything.
func (m *member) leave(ctx context.Context) error {
	err := m.c.Leave(ctx)
	return errors.Join(err, m.close(ctx))
}

func (m *member) close(ctx context.Context) error {
	err := m.c.Close()
	return errors.Join(err, m.node.Close(ctx), m.sys.Shutdown(ctx))
}

// entity is the run's entity: it logs what it handles, with its lease's
// fencing token.
type entity struct{ log *logFile }

func (e *entity) Receive(c *actor.Context, msg any) (any, error) {
	m, ok := msg.(Msg)
	if !ok {
		return nil, nil // sharding.Stopping and the like
	}
	tok, err := sharding.Token(c)
	if err != nil {
		tok = 0
	}
	e.log.handled(Handled{Entity: c.Self().ID(), Sender: m.Sender, Seq: m.Seq, Token: tok, Proc: procName(c.System().Name()), Time: now()})
	return nil, nil
}

// runNode is a node process: it runs until SIGTERM, then leaves
// gracefully.
func runNode(name string) error {
	s, err := settingsFromEnv()
	if err != nil {
		return err
	}
	log, err := openLog(s.dir, procName(name))
	if err != nil {
		return err
	}
	defer log.close()
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	m, err := join(name, s, func() actor.Actor { return &entity{log: log} }, log.dead, nil, role)
	if err != nil {
		return err
	}
	<-term
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return m.leave(ctx)
}
