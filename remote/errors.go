package remote

import (
	"errors"
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote/wire"
)

// Sentinel errors; errors of this package wrap one of them, or one of
// package actor's, with %w.
var (
	// ErrUnreachable: the target's node cannot be reached (no responders
	// on its subject, or its heartbeats stopped).
	ErrUnreachable = errors.New("remote: node unreachable")
	// ErrOverloaded: the outbound buffer for the target's node is full.
	ErrOverloaded = errors.New("remote: outbound buffer full")
	// ErrClosed: the node is closed.
	ErrClosed = errors.New("remote: node closed")
	// ErrBadRef: a ref that cannot be addressed (an empty system, kind or
	// id).
	ErrBadRef = errors.New("remote: invalid ref")
	// ErrRejected: an inbound frame or envelope was refused (malformed,
	// oversized, or not for this node).
	ErrRejected = errors.New("remote: frame rejected")
	// ErrBadKind: RegisterKind got no kind or factory, or a kind already
	// registered.
	ErrBadKind = errors.New("remote: bad kind registration")
)

// codes lists the errors both sides of the wire know, by code. The order
// is part of the wire format: append only.
var codes = []error{
	nil, // 0: any other error, carried as text
	actor.ErrNotFound,
	actor.ErrStopped,
	actor.ErrTimeout,
	actor.ErrMailboxFull,
	actor.ErrNoReply,
	ErrUnreachable,
	ErrOverloaded,
	ErrClosed,
	wire.ErrUnknownType,
	wire.ErrMalformed,
	actor.ErrSystemClosed,
	actor.ErrNameTaken,
	ErrBadRef,
	wire.ErrTooLarge,
}

// Error is an error that happened on another node: its text, and the
// known error it wraps, if any (test with [errors.Is] as for local
// errors).
type Error struct {
	Node    string // the node it happened on
	Message string // the error's text there
	cause   error
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("remote %s: %s", e.Node, e.Message) }

// Unwrap returns the known error e stands for, or nil.
func (e *Error) Unwrap() error { return e.cause }

// encodeError turns err into its wire form; nil stays nil.
func encodeError(err error) *wire.Error {
	if err == nil {
		return nil
	}
	w := &wire.Error{Message: err.Error()}
	for i, c := range codes[1:] {
		if errors.Is(err, c) {
			w.Code = uint64(i + 1)
			break
		}
	}
	return w
}

// decodeError turns an error from node back into an error; nil stays nil.
func decodeError(node string, w *wire.Error) error {
	if w == nil {
		return nil
	}
	e := &Error{Node: node, Message: w.Message}
	if w.Code < uint64(len(codes)) {
		e.cause = codes[w.Code]
	}
	return e
}
