// Package desk is a golden test input: message parameters named like the
// locals of generated methods keep their names, the locals give way, and
// parameters named like what generated bodies cannot rename (imports,
// generated names) are renamed.
package desk

import (
	"time"

	"github.com/troupe-go/troupe/actor"
)

// Desk takes messages with awkward parameter names.
//
//troupe:actor
type Desk struct{}

// File is a tell whose parameters have the names of the locals of the
// ref's and the timers' methods.
func (k *Desk) File(_ *actor.Context, r int, err string, c bool, t int, key string, d time.Duration, timerKey string) {
}

// Look is an ask whose parameters have the names of an ask's locals.
func (k *Desk) Look(_ *actor.Context, ctx string, zero int, r int, err string, c bool) (int, error) {
	return 0, nil
}

// Clash has parameters named like an import and a generated name.
func (k *Desk) Clash(_ *actor.Context, loop int, deskFileMsg string, _ bool) {}
