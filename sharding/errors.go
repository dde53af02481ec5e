package sharding

import "errors"

// Sentinel errors; errors of this package wrap one of them, or one of
// package actor's or remote's, with %w.
var (
	// ErrNoOwner: no node claimed the entity's shard within the buffer
	// time ([WithBuffer]).
	ErrNoOwner = errors.New("sharding: shard has no owner")
	// ErrBufferFull: the buffer of a shard without an owner, or being
	// handed off, is full.
	ErrBufferFull = errors.New("sharding: shard buffer full")
	// ErrUnbound: a Ref not bound to a cluster (the zero Ref, or one
	// decoded from bytes): bind it with [Bind].
	ErrUnbound = errors.New("sharding: ref not bound to a cluster")
	// ErrBadKind: a kind registration with no name, a bad option, or a
	// name already registered.
	ErrBadKind = errors.New("sharding: bad kind registration")
	// ErrClosed: the cluster has left or closed.
	ErrClosed = errors.New("sharding: cluster closed")
	// ErrNotEntity: Passivate or Token called from an actor that is not an
	// entity.
	ErrNotEntity = errors.New("sharding: not an entity")
	// ErrTooManyHops: a message went from node to node more often than
	// the tables of owners could disagree.
	ErrTooManyHops = errors.New("sharding: message forwarded too often")
	// ErrNoEntity: the kind was registered without a factory on this
	// node (a proxy), yet its shard is meant to run here.
	ErrNoEntity = errors.New("sharding: kind has no factory on this node")
	// ErrMismatch: a kind registered with settings (shard count, role,
	// strategy, singleton, remembering entities) other than those the
	// cluster's live nodes registered it with.
	ErrMismatch = errors.New("sharding: kind settings differ from the cluster's")
	// ErrOvertaken: a message arrived by a route a node had given up on
	// (the node it went to was lost, or the flush behind it failed)
	// after messages that node sent later by another route: delivering
	// it would break its sender's order, so it is a dead letter.
	ErrOvertaken = errors.New("sharding: message overtaken by later ones of its route")
)
