// Package conn is a golden test input: connection actors, whose
// netactor hooks pass through, and methods named like those hooks but
// shaped otherwise, which are messages.
package conn

import (
	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/netactor"
)

// Session serves one connection: it echoes lines and counts them.
//
//troupe:actor kind=session
type Session struct {
	conn  *netactor.Conn
	lines int
}

// Opened keeps the connection, to write from messages.
func (s *Session) Opened(c *actor.Context, conn *netactor.Conn) { s.conn = conn }

// Data echoes what arrives.
func (s *Session) Data(c *actor.Context, conn *netactor.Conn, p []byte) {
	s.lines++
	_, _ = conn.Write(p)
}

// PeerClosed keeps the connection open for writing.
func (s *Session) PeerClosed(c *actor.Context, conn *netactor.Conn) bool { return true }

// Closed is a hook, not a message.
func (s *Session) Closed(c *actor.Context, conn *netactor.Conn, err error) {}

// Lines is a message.
func (s *Session) Lines(c *actor.Context) (int, error) { return s.lines, nil }

// Say is a message: it writes to the connection.
func (s *Session) Say(c *actor.Context, text string) error {
	_, err := s.conn.Write([]byte(text))
	return err
}

// Meter is not a connection actor: its Data is an ordinary message.
//
//troupe:actor
type Meter struct{ total int }

// Data is a message, since it does not take a connection.
func (m *Meter) Data(c *actor.Context, n int) { m.total += n }

// Drained is a message too.
func (m *Meter) Drained(c *actor.Context) (int, error) { return m.total, nil }
