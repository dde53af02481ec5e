package e2e

import (
	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/netactor"
)

// Session is a connection actor: it echoes what its peer sends, counts the
// reads, and writes what its Say message carries.
//
//troupe:actor kind=session
type Session struct {
	// Announce receives each session's ref once its connection is served.
	Announce chan<- actor.Ref
	conn     *netactor.Conn
	reads    int
}

// Opened keeps the connection and announces the session.
func (s *Session) Opened(c *actor.Context, conn *netactor.Conn) {
	s.conn = conn
	if s.Announce != nil {
		s.Announce <- c.Self()
	}
}

// Data echoes what arrives.
func (s *Session) Data(c *actor.Context, conn *netactor.Conn, p []byte) {
	s.reads++
	_, _ = conn.Write(p)
}

// Reads replies with the number of reads so far.
func (s *Session) Reads(c *actor.Context) (int, error) { return s.reads, nil }

// Say writes text to the peer.
func (s *Session) Say(c *actor.Context, text string) error {
	_, err := s.conn.Write([]byte(text))
	return err
}
