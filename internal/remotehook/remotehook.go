// Package remotehook is how package remote lends layers of troupe built
// on it (package sharding) what is not in its user API: remote fills these
// variables at init, those layers call them. Nothing else may use them.
//
// Values typed any are remote's own types (*remote.Node), which this
// package cannot name without an import cycle.
package remotehook

import "github.com/troupe-go/troupe/actor"

// TellHandler handles a tell another node sent to a local actor, in place
// of the actor's mailbox: from is the sending node, to the target actor,
// msg the decoded message. An error sends the tell back to the sending
// node as undeliverable (a dead letter there, with the error).
type TellHandler func(from string, to actor.Ref, msg any) error

// HandleTells makes h handle the tells other nodes send to actors of kind
// on the *remote.Node node, instead of the actors' mailboxes: h runs on
// the goroutine that reads the node's frames, in the order they arrive,
// between the deliveries of the tells before and after it, so it sees one
// sender's tells in the order sent. It is for a layer that routes what it
// receives to other actors itself (package sharding's regions), for which
// the mailbox of a routing actor costs a hop per message.
//
// h must not block: every frame from every node waits for it. Calls are
// never concurrent. A panic in h is recovered and handled as its error.
// Asks, watches and spawns for the kind go to the actors as before; the
// trace context a tell may carry is not passed to h. A nil h removes the
// kind's handler; setting one for a kind that has one fails with
// remote.ErrBadKind.
var HandleTells func(node any, kind string, h TellHandler) error
