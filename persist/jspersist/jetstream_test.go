package jspersist_test

import (
	"testing"

	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist/jetstream"
	"github.com/troupe-go/troupe/persist/jspersist"
)

// A JS actor persists to the default store, JetStream (whose appends are
// asynchronous: persist.AsyncAppender), and another system recovers it
// from the store opened again on the same directory.
func TestOnJetStream(t *testing.T) {
	dir := t.TempDir()
	store, err := jetstream.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	def := &jspersist.EventSourced{Script: accountScript, Store: store, SnapshotEvery: 3}
	sys := actortest.NewSystem(t)
	ref := spawn(t, sys, def, "js")
	for i := range 7 {
		if b, err := call[int](t, sys, ref, "deposit", 10); err != nil || b != 10*(i+1) {
			t.Fatalf("deposit %d: %d, %v", i, b, err)
		}
	}
	sys.Stop(ref)
	sys.Settle()
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	store, err = jetstream.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	def.Store = store
	sys2 := actortest.NewSystem(t)
	ref2 := spawn(t, sys2, def, "js")
	if b, err := call[int](t, sys2, ref2, "balance"); err != nil || b != 70 {
		t.Fatalf("recovered balance %d, %v; want 70", b, err)
	}
	if n, err := call[int](t, sys2, ref2, "seq"); err != nil || n != 7 {
		t.Fatalf("recovered seq %d, %v; want 7", n, err)
	}
	sys2.Stop(ref2)
	sys2.Settle()
}
