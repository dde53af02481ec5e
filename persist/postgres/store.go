package postgres

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/troupe-go/troupe/persist"
)

// Store keeps journals, snapshots and states in PostgreSQL tables. Safe
// from any goroutine.
type Store struct {
	pool    *pgxpool.Pool
	ownPool bool
	q       queries
}

var (
	_ persist.Store  = (*Store)(nil)
	_ persist.States = (*Store)(nil)
)

// Option configures a Store.
type Option func(*config) error

type config struct{ prefix string }

var validPrefix = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// WithTablePrefix names the tables PREFIX_journal, PREFIX_heads,
// PREFIX_snapshots and PREFIX_states. Default "troupe".
func WithTablePrefix(prefix string) Option {
	return func(c *config) error {
		if !validPrefix.MatchString(prefix) || len(prefix) > 40 {
			return fmt.Errorf("persist/postgres: table prefix %q: use lower-case letters, digits and _", prefix)
		}
		c.prefix = prefix
		return nil
	}
}

// Open connects to the database at url (a postgres:// URL or a key=value
// string, as pgx takes them) with a pool of its own, and creates the
// tables if they do not exist. Close closes the pool.
func Open(ctx context.Context, url string, opts ...Option) (*Store, error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("persist/postgres: %w", err)
	}
	s, err := New(ctx, pool, opts...)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s.ownPool = true
	return s, nil
}

// New opens a store on pool, which the caller keeps, creating the tables
// if they do not exist.
func New(ctx context.Context, pool *pgxpool.Pool, opts ...Option) (*Store, error) {
	cfg := config{prefix: "troupe"}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	s := &Store{pool: pool, q: newQueries(cfg.prefix)}
	if _, err := pool.Exec(ctx, s.q.create); err != nil {
		return nil, fmt.Errorf("persist/postgres: create tables: %w", err)
	}
	return s, nil
}

// Close closes the pool if Open made it.
func (s *Store) Close() {
	if s.ownPool {
		s.pool.Close()
	}
}

// DropTables drops the store's tables, and everything in them. For tests.
func (s *Store) DropTables(ctx context.Context) error {
	_, err := s.pool.Exec(ctx, s.q.drop)
	return err
}

// uniqueViolation reports whether err is PostgreSQL's unique_violation.
func uniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}
