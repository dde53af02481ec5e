package jetstream

import (
	"errors"
	"fmt"
	"regexp"
	"time"
)

// Option configures a Store.
type Option func(*config) error

type config struct {
	name       string
	replicas   int
	syncAlways bool
	dupWindow  time.Duration
	maxPending int
}

// The defaults of the options.
const (
	DefaultName       = "TROUPE"
	DefaultDupWindow  = 2 * time.Minute
	DefaultMaxPending = 4000
)

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func newConfig(opts []Option) (config, error) {
	cfg := config{name: DefaultName, replicas: 1, dupWindow: DefaultDupWindow, maxPending: DefaultMaxPending}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// WithName names the streams (NAME_EVENTS, NAME_SNAPSHOTS), the bucket
// (NAME_STATES) and the subjects (NAME.events.<entity>...): one set per
// system or per kind of entity, never per entity. Default "TROUPE".
func WithName(name string) Option {
	return func(c *config) error {
		if !validName.MatchString(name) {
			return fmt.Errorf("persist/jetstream: name %q: use letters, digits, _ and -", name)
		}
		c.name = name
		return nil
	}
}

// WithReplicas sets how many servers of a cluster hold each stream (1, 3
// or 5); an embedded server has one.
func WithReplicas(n int) Option {
	return func(c *config) error {
		if n != 1 && n != 3 && n != 5 {
			return fmt.Errorf("persist/jetstream: %d replicas: use 1, 3 or 5", n)
		}
		c.replicas = n
		return nil
	}
}

// WithSyncAlways makes the embedded server (Open) fsync every write before
// acknowledging it, so an acknowledged write survives a machine crash or
// power loss too, at the cost of a disk flush per write. Without it the
// file store writes each message to its file before the acknowledgement
// (a write survives a crash of the process, kill -9) and fsyncs every two
// minutes. For a server of your own, set sync_interval: always in its
// configuration.
func WithSyncAlways() Option {
	return func(c *config) error {
		c.syncAlways = true
		return nil
	}
}

// WithDuplicateWindow sets how long the event stream remembers a write's
// id, within which a repeated write (a retry after a lost acknowledgement)
// is stored once. Default two minutes.
func WithDuplicateWindow(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return errors.New("persist/jetstream: duplicate window must be positive")
		}
		c.dupWindow = d
		return nil
	}
}

// WithMaxPending bounds the writes awaiting acknowledgement at once, over
// all the store's entities; past it a write waits. Default 4000.
func WithMaxPending(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return errors.New("persist/jetstream: max pending must be at least 1")
		}
		c.maxPending = n
		return nil
	}
}
