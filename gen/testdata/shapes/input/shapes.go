// Package shapes is a golden test input: every result shape, variadic,
// unnamed and blank parameters, parameters named like what generated code
// uses, types from other packages, and an unexported actor.
package shapes

import (
	"errors"
	"io"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// Point is a message field type of this package.
type Point struct{ X, Y int }

// Store holds values.
//
//troupe:actor
type Store struct {
	vals map[string][]byte
}

// Put stores v under k: a tell.
func (s *Store) Put(c *actor.Context, k string, v []byte) { s.vals[k] = v }

// Len is an R result.
func (s *Store) Len(c *actor.Context) int { return len(s.vals) }

// Delete is an error result.
func (s *Store) Delete(c *actor.Context, k string) error {
	if _, ok := s.vals[k]; !ok {
		return errors.New("no such key")
	}
	delete(s.vals, k)
	return nil
}

// Lookup is an (R, error) result.
func (s *Store) Lookup(c *actor.Context, k string) ([]byte, error) { return s.vals[k], nil }

// Later is a promise result.
func (s *Store) Later(c *actor.Context, d time.Duration) *loop.Promise[Point] {
	p, r := loop.NewPromise[Point](c.Loop())
	r.Resolve(Point{X: int(d)})
	return p
}

// Sum is variadic.
func (s *Store) Sum(c *actor.Context, base int, xs ...int) int {
	for _, x := range xs {
		base += x
	}
	return base
}

// Odd has unnamed and blank parameters and parameters named like
// identifiers the generated code uses.
func (s *Store) Odd(_ *actor.Context, _ int, ctx string, time bool, r Point, actor any) {}

// Reader takes a type of another package and a generic type.
func (s *Store) Reader(c *actor.Context, rd io.Reader, m map[Point][2]*Point, s2 loop.Settlement[int]) (io.Reader, error) {
	return rd, nil
}

// Unnamed takes unnamed parameters.
func (s *Store) Unnamed(*actor.Context, int, string) {}

// note is an unexported actor: its generated names are unexported.
//
//troupe:actor kind=note
type note struct{ text string }

// Set uses an unexported type, fine for an unexported actor.
func (n *note) Set(c *actor.Context, t text) { n.text = string(t) }

type text string
