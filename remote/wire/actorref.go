package wire

import (
	"fmt"
	"strings"

	"github.com/troupe-go/troupe/actor"
)

// RefOf returns the wire form of r.
func RefOf(r actor.Ref) Ref {
	return Ref{System: r.System(), Kind: r.Kind(), ID: r.ID(), Parent: r.Parent().Path()}
}

// ActorRef returns the actor ref r names; a parent path that is not one
// fails with an error wrapping [ErrMalformed].
func (r Ref) ActorRef() (actor.Ref, error) {
	if r.Parent == "" {
		return actor.NewRef(r.System, r.Kind, r.ID), nil // the zero Ref if all are empty
	}
	p, err := refAt(r.System, r.Parent)
	if err != nil {
		return actor.Ref{}, fmt.Errorf("%w: ref parent: %w", ErrMalformed, err)
	}
	return p.Child(r.Kind, r.ID), nil
}

// systemEscaper writes a system's name as [actor.Ref.String] does, so
// that [actor.ParseRef] reads it back whatever it holds.
var systemEscaper = strings.NewReplacer("%", "%25", "/", "%2F")

// refAt returns the ref of the actor at path (as [actor.Ref.Path] spells
// it) in system.
func refAt(system, path string) (actor.Ref, error) {
	return actor.ParseRef("troupe://" + systemEscaper.Replace(system) + "/" + path)
}

// ActorRef encodes r as nested message field f, laid out as an
// envelope's [Ref] is; always is as for [Message]. Generated codecs use
// it for fields of type actor.Ref, so that a child's ref keeps its
// parent.
func (e *Encoder) ActorRef(f int, always bool, r actor.Ref) {
	w := RefOf(r)
	e.Message(f, always, func(e *Encoder) {
		e.String(1, w.System)
		e.String(2, w.Kind)
		e.String(3, w.ID)
		e.String(4, w.Parent)
	})
}

// ActorRef reads the current field, written by [Encoder.ActorRef], as an
// actor ref. Malformed input fails the decoder (see [Decoder.Err]) and
// returns the zero Ref.
func (d *Decoder) ActorRef() actor.Ref {
	var sub Decoder
	d.Message(&sub)
	var w Ref
	for sub.Next() {
		switch sub.Field() {
		case 1:
			w.System = sub.String()
		case 2:
			w.Kind = sub.String()
		case 3:
			w.ID = sub.String()
		case 4:
			w.Parent = sub.String()
		default:
			sub.Skip()
		}
	}
	if err := sub.Err(); err != nil {
		d.fail("ref: %v", err)
		return actor.Ref{}
	}
	r, err := w.ActorRef()
	if err != nil {
		d.fail("%v", err)
		return actor.Ref{}
	}
	return r
}
