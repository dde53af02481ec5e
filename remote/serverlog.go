package remote

import (
	"fmt"
	"strings"
	"sync"

	"go.uber.org/zap"
)

// serverLog is the embedded server's logger: its errors and warnings go
// to the node's log (a leaf node its hub refuses, a TLS failure), and two
// refusals are also signalled, so that Start can fail at once instead of
// when a connection attempt times out: of the node's own in-process
// client, and of this server's leaf connection by a hub.
type serverLog struct {
	log           *zap.Logger
	client, joins refusal
}

// refusal is closed, once, at the first refusal of its kind; why says
// what the server reported.
type refusal struct {
	once sync.Once
	c    chan struct{}
	why  string
}

func (r *refusal) signal(why string) {
	r.once.Do(func() {
		r.why = why
		close(r.c)
	})
}

func newServerLog(log *zap.Logger) *serverLog {
	return &serverLog{
		log:    log.With(zap.String("server", "embedded")),
		client: refusal{c: make(chan struct{})},
		joins:  refusal{c: make(chan struct{})},
	}
}

// Noticef implements server.Logger; notices are routine.
func (l *serverLog) Noticef(format string, v ...any) {
	l.log.Debug("nats-server: " + fmt.Sprintf(format, v...))
}

// Warnf implements server.Logger.
func (l *serverLog) Warnf(format string, v ...any) {
	l.log.Warn("nats-server: " + fmt.Sprintf(format, v...))
}

// Fatalf implements server.Logger.
func (l *serverLog) Fatalf(format string, v ...any) {
	l.log.Error("nats-server: " + fmt.Sprintf(format, v...))
}

// Errorf implements server.Logger.
func (l *serverLog) Errorf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	l.log.Error("nats-server: " + msg)
	lower := strings.ToLower(msg)
	switch {
	case strings.HasPrefix(msg, "pipe - ") && strings.Contains(lower, "authentication error"):
		l.client.signal(msg) // the in-process client: the only one on a pipe
	case strings.Contains(lower, "leafnode error") && strings.Contains(lower, "authorization violation"):
		l.joins.signal(msg) // a hub's answer to this server's leaf connection
	}
}

// Debugf implements server.Logger.
func (l *serverLog) Debugf(string, ...any) {}

// Tracef implements server.Logger.
func (l *serverLog) Tracef(string, ...any) {}
