package persist

import (
	"errors"
	"fmt"
)

// Sentinel errors. Stores and actors wrap them with %w; test with errors.Is.
var (
	// ErrFenced: a write stated where it expected the journal (or the
	// state's revision) to stand, and the store had moved on: another
	// writer got there first. The writer is stale and must stop.
	ErrFenced = errors.New("persist: fenced: the store moved on since this writer's last write")
	// ErrUnknownType: a stored event or state names a type, or a version of
	// it, that the Schema cannot decode.
	ErrUnknownType = errors.New("persist: unknown event type")
	// ErrCorrupt: stored bytes do not decode, or a journal has a gap.
	ErrCorrupt = errors.New("persist: corrupt record")
	// ErrBusy: the actor holds as many waiting commands as its bound allows.
	ErrBusy = errors.New("persist: too many commands waiting")
	// ErrPersistOutsideCommand: Persist or Put was called after the
	// command handler returned, or twice in one command.
	ErrPersistOutsideCommand = errors.New("persist: Persist outside a command handler, or twice in one")
	// ErrClosed: the store was closed.
	ErrClosed = errors.New("persist: store closed")
)

// RecoveryError says which record stopped an entity's recovery: recovery
// never skips a record it cannot read, so the actor does not start with
// half a state.
type RecoveryError struct {
	Entity  string // the entity being recovered
	Seq     uint64 // the event's sequence number (the snapshot's, for a snapshot)
	Type    string // the record's type name, as stored
	Version uint32 // the record's version, as stored
	Err     error  // why: wraps ErrUnknownType, ErrCorrupt or a codec's error
}

func (e *RecoveryError) Error() string {
	return fmt.Sprintf("persist: recovering %q: event %d (type %q v%d): %v",
		e.Entity, e.Seq, e.Type, e.Version, e.Err)
}

// Unwrap returns the cause.
func (e *RecoveryError) Unwrap() error { return e.Err }
