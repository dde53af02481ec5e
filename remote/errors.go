package remote

import (
	"errors"
	"fmt"

	"go.uber.org/zap"

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
	// ErrAuthorization: a server refused the node's credentials, its
	// client connection's or, joining a hub, its leaf node's.
	ErrAuthorization = errors.New("remote: authorization failed")
	// ErrDuplicateNode: another live node has this node's name.
	ErrDuplicateNode = errors.New("remote: a node of this name is running")
	// ErrSignature: signed traffic failed: a frame unsigned, signed with
	// a key not trusted for its sender, altered, replayed, or meant for
	// another incarnation (see [WithSigning]); a node that signs met one
	// that does not; or WithSigning got keys that do not fit.
	ErrSignature = errors.New("remote: signature refused")
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
// errors it stands for there that this node knows, which it wraps, so
// that [errors.Is] and [errors.As] work as for a local error:
//
//   - troupe's own sentinels (e.g. [actor.ErrNotFound], [ErrUnreachable]),
//     always;
//   - the handler's own error values and error types registered on both
//     nodes' [wire.Registry] under the same name
//     ([wire.Registry.RegisterError] for a value such as
//     bank.ErrInsufficient, [wire.Register] and its siblings for a type
//     implementing error), also when the handler wrapped them with %w.
//
// An error registered on neither side, or only on the handler's, arrives
// as its text alone: errors.Is is false for it, and Message still says
// what it was. A typed error whose body this node cannot decode is left
// out and logged.
type Error struct {
	Node    string // the node it happened on
	Message string // the error's text there
	causes  []error
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("remote %s: %s", e.Node, e.Message) }

// Unwrap returns the known errors e stands for: a troupe sentinel first,
// if any, then the registered ones; nil if none.
func (e *Error) Unwrap() []error { return e.causes }

// encodeError turns err into its wire form, with the errors of its chain
// registered in reg (nil: none); nil stays nil.
func encodeError(reg *wire.Registry, err error) *wire.Error {
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
	if reg != nil {
		w.Causes = reg.ErrorCauses(err)
	}
	return w
}

// decodeError turns an error from node back into an error, with the
// registered errors reg knows; nil stays nil. skipped holds why causes
// were left out, for the caller to log.
func decodeError(reg *wire.Registry, node string, w *wire.Error) (err error, skipped []error) {
	if w == nil {
		return nil, nil
	}
	e := &Error{Node: node, Message: w.Message}
	if w.Code != 0 && w.Code < uint64(len(codes)) {
		e.causes = append(e.causes, codes[w.Code])
	}
	if reg != nil && len(w.Causes) > 0 {
		var errs []error
		errs, skipped = reg.DecodeCauses(w.Causes)
		e.causes = append(e.causes, errs...)
	}
	return e, skipped
}

// encodeError is encodeError with the node's registry.
func (n *Node) encodeError(err error) *wire.Error { return encodeError(n.reg, err) }

// decodeError is decodeError with the node's registry; causes it leaves
// out are logged.
func (n *Node) decodeError(node string, w *wire.Error) error {
	err, skipped := decodeError(n.reg, node, w)
	for _, why := range skipped {
		n.log.Warn("remote: an error from another node arrives as its text only", zap.String("node", node), zap.Error(why))
	}
	return err
}
