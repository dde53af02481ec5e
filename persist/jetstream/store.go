package jetstream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-go/troupe/persist"
)

// Store keeps journals, snapshots and states in JetStream: the events of
// all entities in one stream (a subject per entity), snapshots in another,
// states in a key-value bucket. Safe from any goroutine.
type Store struct {
	cfg       config
	srv       *server.Server // the embedded server, if Open started one
	nc        *nats.Conn
	ownConn   bool
	js        jetstream.JetStream
	events    jetstream.Stream
	snapshots jetstream.Stream
	states    jetstream.KeyValue

	acks      acks          // asynchronous writes awaiting acknowledgement
	closed    chan struct{} // closed by Close
	sweepDone chan struct{} // closed when sweep returns
}

var (
	_ persist.Store         = (*Store)(nil)
	_ persist.States        = (*Store)(nil)
	_ persist.AsyncAppender = (*Store)(nil)
)

// Open starts an embedded nats-server with JetStream file storage in dir
// (created if need be) and no network listener, and opens a store on it.
// Close stops the server.
func Open(dir string, opts ...Option) (*Store, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		return nil, errors.New("persist/jetstream: Open needs a directory")
	}
	sopts := &server.Options{
		ServerName: "troupe-persist",
		DontListen: true,
		NoLog:      true,
		NoSigs:     true,
		JetStream:  true,
		StoreDir:   dir,
		SyncAlways: cfg.syncAlways,
	}
	srv, err := server.NewServer(sopts)
	if err != nil {
		return nil, fmt.Errorf("persist/jetstream: embedded server: %w", err)
	}
	srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		srv.Shutdown()
		srv.WaitForShutdown()
		return nil, errors.New("persist/jetstream: embedded server not ready")
	}
	nc, err := nats.Connect("", nats.InProcessServer(srv), nats.Name("troupe-persist"))
	if err != nil {
		srv.Shutdown()
		srv.WaitForShutdown()
		return nil, fmt.Errorf("persist/jetstream: connect: %w", err)
	}
	s, err := open(nc, cfg)
	if err != nil {
		nc.Close()
		srv.Shutdown()
		srv.WaitForShutdown()
		return nil, err
	}
	s.srv, s.ownConn = srv, true
	return s, nil
}

// Connect opens a store over nc, a connection to a NATS server or cluster
// with JetStream, creating the streams and bucket if they do not exist.
// The caller keeps nc and closes it after Close.
func Connect(nc *nats.Conn, opts ...Option) (*Store, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return open(nc, cfg)
}

func open(nc *nats.Conn, cfg config) (*Store, error) {
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(cfg.maxPending),
		jetstream.WithPublishAsyncTimeout(asyncTimeout))
	if err != nil {
		return nil, fmt.Errorf("persist/jetstream: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := &Store{cfg: cfg, nc: nc, js: js, closed: make(chan struct{}), sweepDone: make(chan struct{})}
	if s.events, err = s.stream(ctx, "EVENTS", "events"); err != nil {
		return nil, err
	}
	if s.snapshots, err = s.stream(ctx, "SNAPSHOTS", "snapshots"); err != nil {
		return nil, err
	}
	s.states, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: cfg.name + "_STATES", Storage: jetstream.FileStorage, Replicas: cfg.replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("persist/jetstream: states bucket: %w", err)
	}
	if err := s.startAcks(); err != nil {
		return nil, err
	}
	return s, nil
}

// stream creates (or updates) the stream NAME_suffix on subjects
// name.kind.>.
func (s *Store) stream(ctx context.Context, suffix, kind string) (jetstream.Stream, error) {
	st, err := s.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        s.cfg.name + "_" + suffix,
		Subjects:    []string{s.cfg.name + "." + kind + ".>"},
		Storage:     jetstream.FileStorage,
		Replicas:    s.cfg.replicas,
		Duplicates:  s.cfg.dupWindow,
		AllowDirect: true,
	})
	if err != nil {
		return nil, fmt.Errorf("persist/jetstream: stream %s_%s: %w", s.cfg.name, suffix, err)
	}
	return st, nil
}

// Close closes the store: its connection and server, if Open started them.
// Writes in flight fail with persist.ErrClosed. A second Close does
// nothing.
func (s *Store) Close() error {
	select {
	case <-s.closed:
		return nil // closed already
	default:
	}
	close(s.closed)
	<-s.sweepDone
	s.acks.close()
	if s.ownConn {
		s.nc.Close()
	}
	if s.srv != nil {
		s.srv.Shutdown()
		s.srv.WaitForShutdown()
	}
	return nil
}

// subject is the subject of entity's records of a kind.
func (s *Store) subject(kind, entity string) string {
	return s.cfg.name + "." + kind + "." + token(entity)
}

// fenced reports whether err is JetStream's refusal of an expected last
// sequence (10071, or 10164 from a replicated stream).
func fenced(err error) bool {
	var api *jetstream.APIError
	if !errors.As(err, &api) {
		return errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch)
	}
	return api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant
}
