package jspersist

import (
	"errors"
	"sync"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/persist"
)

// EventSourced defines event-sourced JS actors: a script (see the package
// doc for what it exports and sees) on a store. Fill in the fields, then
// spawn with the factory Factory returns.
type EventSourced struct {
	// Script is the actors' script. Required.
	Script *jsactor.Script
	// Store holds the journal and snapshots. Required.
	Store persist.Store
	// Options configure the JS actors, as for jsactor.Factory.
	Options []jsactor.Option
	// Schema encodes events and snapshots; nil: NewSchema().
	Schema *persist.Schema
	// Entity names an actor's journal; nil: its ref's path.
	Entity func(self actor.Ref) string
	// Fence returns the fencing token recorded with each event; see
	// persist.EventSourced.Fence (with sharding, sharding.Token).
	Fence func(c *actor.Context, entity string) (uint64, error)
	// SnapshotEvery takes a snapshot after every so many events (0: only
	// when the script asks, durable.snapshot()).
	SnapshotEvery uint64
	// KeepSnapshots is how many snapshots to keep (0: all).
	KeepSnapshots int
	// MaxWaiting, Timeout, RetryMin and RetryMax: as in
	// persist.EventSourced, with the same defaults.
	MaxWaiting         int
	Timeout            time.Duration
	RetryMin, RetryMax time.Duration
}

// Factory checks the definition and returns a factory that spawns its
// actors: sys.Spawn("account", "42", factory). Pass jsactor's spawn
// options (restart limits...) to Spawn yourself, as with jsactor.Factory.
func (d *EventSourced) Factory() (actor.Factory, error) {
	switch {
	case d.Script == nil:
		return nil, errors.New("jspersist: EventSourced needs a Script")
	case d.Store == nil:
		return nil, errors.New("jspersist: EventSourced needs a Store")
	case d.MaxWaiting < 0 || d.Timeout < 0 || d.RetryMin < 0 || d.RetryMax < 0:
		return nil, errors.New("jspersist: EventSourced bounds must not be negative")
	}
	def := *d
	def.fillDefaults()
	reg := &starting{}
	opts := append(append([]jsactor.Option(nil), def.Options...), jsactor.WithInstanceHook(reg.hook))
	inner, err := jsactor.Factory(def.Script, opts...)
	if err != nil {
		return nil, err
	}
	return func() actor.Actor {
		return &journaled{def: &def, inner: inner(), starting: reg}
	}, nil
}

func (d *EventSourced) fillDefaults() {
	if d.Schema == nil {
		d.Schema = NewSchema()
	}
	if d.MaxWaiting == 0 {
		d.MaxWaiting = persist.DefaultMaxWaiting
	}
	if d.Timeout == 0 {
		d.Timeout = persist.DefaultTimeout
	}
	if d.RetryMin == 0 {
		d.RetryMin = persist.DefaultRetryMin
	}
	if d.RetryMax == 0 {
		d.RetryMax = persist.DefaultRetryMax
	}
	d.RetryMax = max(d.RetryMax, d.RetryMin)
}

// starting finds the actor whose JS instance is starting: the instance
// hook runs inside the instance's Started, which the actor's own Started
// calls, on the actor's loop; actors start on many loops at once, so the
// hook finds its actor by the context they share.
type starting struct{ m sync.Map } // *actor.Context -> *journaled

func (s *starting) hook(h *jsactor.Host) error {
	a, ok := s.m.Load(h.Context())
	if !ok {
		return errors.New("jspersist: a JS instance started outside its journaled actor")
	}
	return a.(*journaled).install(h)
}
