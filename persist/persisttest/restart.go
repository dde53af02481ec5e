package persisttest

import (
	"context"
	"fmt"
	"reflect"

	"github.com/troupe-go/troupe/persist"
)

// Restart stops the actor, spawns a fresh one that recovers from the
// store, and fails the test unless it recovers the state and sequence
// number the stopped one had; while the journal holds every event, a
// replay of all of them from Initial, without snapshots, must reach the
// same state too. It returns the recovered state. An actor that had
// stopped (fenced) is restarted without the comparison with its state.
func (k *Kit[S, C, E]) Restart() S {
	k.t.Helper()
	before, err := k.query()
	k.stop()
	st := k.spawn()
	if err == nil {
		if st.seq != before.seq {
			k.t.Errorf("persisttest: %v recovered to event %d, want %d", k.ref, st.seq, before.seq)
		}
		if !reflect.DeepEqual(st.state, before.state) {
			k.t.Errorf("persisttest: %v recovered another state:\n  before the restart: %+v\n  recovered:          %+v", k.ref, before.state, st.state)
		}
	}
	k.checkReplay(st)
	return st.state
}

// Initialize stores events in the actor's journal as if it had persisted
// them before (after the events it holds), then restarts it so that it
// recovers them, and returns the state it recovers: the given state of
// Akka's test kit, reached through the actor's own Apply.
func (k *Kit[S, C, E]) Initialize(events ...E) S {
	k.t.Helper()
	k.stop()
	ctx := context.Background()
	end, err := k.store.Read(ctx, k.entity, persist.Cursor{}, func(persist.Event) error { return nil })
	if err == nil && len(events) > 0 {
		stored := make([]persist.Event, len(events))
		for i, e := range events {
			p, err := k.def.Schema.Encode(e)
			if err != nil {
				k.t.Fatalf("persisttest: initial event %d: %v", i, err)
			}
			stored[i] = persist.Event{Payload: p, Seq: end.Seq + uint64(i) + 1}
		}
		_, err = k.store.Append(ctx, k.entity, end, stored)
	}
	if err != nil {
		k.t.Fatalf("persisttest: storing the initial events of %q: %v", k.entity, err)
	}
	st := k.spawn()
	k.checkReplay(st)
	return st.state
}

// stop stops the running actor and waits until it has stopped.
func (k *Kit[S, C, E]) stop() {
	k.t.Helper()
	p := k.sys.NewProbe(fmt.Sprintf("persisttest-%s-%s-%d", k.cfg.kind, k.cfg.id, k.spawns))
	p.Watch(k.ref)
	k.sys.Stop(k.ref)
	p.ExpectTerminated(k.ref)
	k.sys.Stop(p.Ref())
}

// checkReplay folds every stored event from Initial, if the journal
// still holds the first one, and compares the state with st.
func (k *Kit[S, C, E]) checkReplay(st stateOf[S]) {
	k.t.Helper()
	var first uint64
	var n int
	_, err := k.store.Read(context.Background(), k.entity, persist.Cursor{}, func(e persist.Event) error {
		if first == 0 {
			first = e.Seq
		}
		n++
		return nil
	})
	if err != nil || first > 1 || uint64(n) != st.seq {
		return // events were deleted after a snapshot: nothing to replay from
	}
	state := k.initial()
	for _, e := range k.Events() {
		state = k.user.Apply(state, e)
	}
	if !reflect.DeepEqual(state, st.state) {
		k.t.Errorf("persisttest: %v: replaying its %d events from the initial state gives another state than its recovery:\n  recovered: %+v\n  replayed:  %+v", k.ref, n, st.state, state)
	}
}

func (k *Kit[S, C, E]) initial() S {
	if k.user.Initial != nil {
		return k.user.Initial()
	}
	var zero S
	return zero
}
