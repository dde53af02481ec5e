package persisttest_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/persisttest"
	"github.com/troupe-go/troupe/remote/wire"
)

func TestRunCommandReturnsEventsStateAndReply(t *testing.T) {
	kit := persisttest.New(t, accountDef())
	tests := []struct {
		cmd     any
		events  []any
		balance int64
		reply   any
		err     string
	}{
		{Deposit{100}, []any{Deposited{100}}, 100, int64(100), ""},
		{Withdraw{30}, []any{Withdrew{30}}, 70, int64(70), ""},
		{Withdraw{500}, nil, 70, nil, "insufficient funds"},
		{GetBalance{}, nil, 70, int64(70), ""},
		{"nonsense", nil, 70, nil, "unknown command string"},
	}
	for i, tt := range tests {
		r := kit.RunCommand(tt.cmd)
		if !slices.Equal(r.Events, tt.events) {
			t.Errorf("%d %T: events %v, want %v", i, tt.cmd, r.Events, tt.events)
		}
		if r.State.Balance != tt.balance || r.Reply != tt.reply {
			t.Errorf("%d %T: balance %d reply %v, want %d and %v", i, tt.cmd, r.State.Balance, r.Reply, tt.balance, tt.reply)
		}
		if (r.Err == nil) != (tt.err == "") || r.Err != nil && !strings.Contains(r.Err.Error(), tt.err) {
			t.Errorf("%d %T: error %v, want %q", i, tt.cmd, r.Err, tt.err)
		}
		if r.Stopped {
			t.Errorf("%d %T: the actor stopped", i, tt.cmd)
		}
	}
	if got := kit.Events(); !slices.Equal(got, []any{Deposited{100}, Withdrew{30}}) {
		t.Fatalf("journal %v", got)
	}
	if got := kit.Restart(); got != (Account{Balance: 70, Changes: 2}) {
		t.Fatalf("recovered %+v", got)
	}
}

// A handler that replies before its write is stored still shows its
// events and the state after them: the kit's state query waits for the
// write, as commands do.
func TestReplyBeforeTheWrite(t *testing.T) {
	def := accountDef()
	def.Command = func(c *persist.Command[Account, any], cmd any) (any, error) {
		c.Persist(Deposited{cmd.(Deposit).Amount})
		return "accepted", nil
	}
	kit := persisttest.New(t, def)
	r := kit.RunCommand(Deposit{5})
	if r.Reply != "accepted" || !slices.Equal(r.Events, []any{Deposited{5}}) || r.State.Balance != 5 || r.Seq != 1 {
		t.Fatalf("result %+v", r)
	}
}

// Restart recovers from snapshots and the events after them, and the
// replay from the first event agrees; with the events deleted after a
// snapshot, the recovery alone is checked.
func TestRestartWithSnapshots(t *testing.T) {
	for _, del := range []bool{false, true} {
		def := accountDef()
		def.SnapshotEvery, def.KeepSnapshots, def.DeleteEvents = 2, 1, del
		kit := persisttest.New(t, def)
		for range 5 {
			kit.RunCommand(Deposit{1})
		}
		kit.System().Settle()
		if got := kit.Restart(); got.Balance != 5 || got.Changes != 5 {
			t.Fatalf("delete %v: recovered %+v", del, got)
		}
		if r := kit.RunCommand(Deposit{1}); r.State.Balance != 6 || r.Seq != 6 {
			t.Fatalf("delete %v: after the restart %+v", del, r)
		}
	}
}

// Initialize stores events as if persisted before and recovers them.
func TestInitialize(t *testing.T) {
	kit := persisttest.New(t, accountDef(), persisttest.WithName("account", "7"))
	s := kit.Initialize(Deposited{10}, Withdrew{4})
	if s.Balance != 6 || kit.Entity() != "account/7" {
		t.Fatalf("state %+v entity %q", s, kit.Entity())
	}
	if r := kit.RunCommand(Deposit{1}); r.Seq != 3 || r.State.Balance != 7 {
		t.Fatalf("after Initialize: %+v", r)
	}
}

// The kit's checks fail the test: an event that does not survive the
// Schema, and an Apply whose replay does not reach the state it reached
// live.
func TestChecksFail(t *testing.T) {
	type lossy struct {
		Amount int64
		note   string // unexported: the codec drops it
	}
	tests := []struct {
		name string
		def  func() *persist.EventSourced[Account, any, any]
		act  func(k *persisttest.Kit[Account, any, any])
		want string
	}{
		{"lossy event", func() *persist.EventSourced[Account, any, any] {
			d := accountDef()
			codec := persist.NewJSONCodec() // JSON drops unexported fields
			must(persist.RegisterJSON[lossy](codec, "lossy"))
			must(persist.RegisterJSON[Account](codec, "bank.account"))
			d.Schema = persist.NewSchema(codec)
			d.Command = func(c *persist.Command[Account, any], cmd any) (any, error) {
				return c.Persist(lossy{Amount: 1, note: "lost"}), nil
			}
			return d
		}, func(k *persisttest.Kit[Account, any, any]) { k.RunCommand(Deposit{1}) }, "the event does not survive its Schema"},
		{"unregistered state", func() *persist.EventSourced[Account, any, any] {
			d := accountDef()
			reg := wire.NewRegistry()
			must(wire.Register[Deposited](reg, "bank.deposited"))
			d.Schema = persist.NewSchema(reg)
			return d
		}, func(k *persisttest.Kit[Account, any, any]) { k.RunCommand(Deposit{1}) }, "the state does not survive its Schema"},
		{"apply not deterministic", func() *persist.EventSourced[Account, any, any] {
			d := accountDef()
			calls := 0
			apply := d.Apply
			d.Apply = func(s Account, e any) Account {
				calls++
				s = apply(s, e)
				s.Changes = calls // counts every call, replays too
				return s
			}
			return d
		}, func(k *persisttest.Kit[Account, any, any]) {
			k.RunCommand(Deposit{1})
			k.Restart()
		}, "recovered another state"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ft := &fakeTB{}
			defer ft.finish()
			ft.Cleanup(func() {}) // keep the order: the kit's system is cleaned up last
			kit := persisttest.New(ft, tt.def(), persisttest.WithSystem(actortest.NewSystem(t)))
			tt.act(kit)
			if len(ft.errors) == 0 || !strings.Contains(strings.Join(ft.errors, "\n"), tt.want) {
				t.Fatalf("errors %q, want one saying %q", ft.errors, tt.want)
			}
		})
	}
}

// A command whose write is fenced (another writer appended) shows the
// error, the actor stopped, and the state it last knew; a restart
// recovers the other writer's events.
func TestFencedCommand(t *testing.T) {
	sys := actortest.NewSystem(t, actortest.AllowFailures(), actortest.AllowDeadLetters())
	kit := persisttest.New(t, accountDef(), persisttest.WithSystem(sys))
	kit.RunCommand(Deposit{10})
	schema := accountDef().Schema
	p, err := schema.Encode(Deposited{1000})
	must(err)
	end, err := kit.Store().Read(context.Background(), kit.Entity(), persist.Cursor{}, func(persist.Event) error { return nil })
	must(err)
	_, err = kit.Store().Append(context.Background(), kit.Entity(), end, []persist.Event{{Payload: p, Seq: 2}})
	must(err)

	r := kit.RunCommand(Deposit{5})
	if !errors.Is(r.Err, persist.ErrFenced) || !r.Stopped {
		t.Fatalf("fenced command: err %v stopped %v", r.Err, r.Stopped)
	}
	if r.State.Balance != 1010 || r.Seq != 2 || !slices.Equal(r.Events, []any{Deposited{1000}}) {
		t.Fatalf("fenced command's result %+v", r)
	}
	if s := kit.Restart(); s.Balance != 1010 {
		t.Fatalf("recovered %+v", s)
	}
}

// failingStore fails the next Append, as a store that went away does.
type failingStore struct {
	*persist.MemoryStore
	fail bool
}

func (f *failingStore) Append(ctx context.Context, entity string, after persist.Cursor, events []persist.Event) (persist.Cursor, error) {
	if f.fail {
		f.fail = false
		return after, errors.New("store unavailable")
	}
	return f.MemoryStore.Append(ctx, entity, after, events)
}

// A store of the test's own injects a failed write: the command gets the
// error, nothing is stored, and the actor goes on from the store.
func TestFailedWriteWithAStoreOfOnesOwn(t *testing.T) {
	store := &failingStore{MemoryStore: persist.NewMemoryStore()}
	sys := actortest.NewSystem(t, actortest.AllowFailures())
	kit := persisttest.New(t, accountDef(), persisttest.WithStore(store), persisttest.WithSystem(sys))
	kit.RunCommand(Deposit{10})
	store.fail = true
	r := kit.RunCommand(Deposit{5})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "store unavailable") || len(r.Events) != 0 || r.State.Balance != 10 || r.Stopped {
		t.Fatalf("failed write: %+v", r)
	}
	if r := kit.RunCommand(Deposit{1}); r.Err != nil || r.State.Balance != 11 || r.Seq != 2 {
		t.Fatalf("after the failure: %+v", r)
	}
}
