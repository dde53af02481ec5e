package netactor

import (
	"errors"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// Option configures a connection ([Open], [Dial]), a listener ([Listen])
// or a server ([Serve]); options that do not apply are ignored.
type Option func(*config) error

type config struct {
	highWater   int
	linger      time.Duration
	backlog     int
	idle        time.Duration
	connOptions []actor.SpawnOption
}

func defaultConfig() config {
	return config{highWater: 256 << 10, linger: 5 * time.Second, backlog: 4096}
}

func buildConfig(opts []Option) (config, error) {
	cfg := defaultConfig()
	for _, opt := range opts {
		if err := opt(&cfg); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// WithHighWater sets a connection's output high-water mark (default
// 256 KiB): past it the connection stops reading until its output drains
// to half of it, so a peer that does not read cannot make the server
// buffer without bound.
func WithHighWater(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return errors.New("netactor: WithHighWater needs a positive size")
		}
		c.highWater = n
		return nil
	}
}

// WithLinger sets how long a stopping connection actor may block its
// worker to flush output that Write accepted (default 5 s); what is still
// unflushed then is dropped and logged (ErrLinger).
func WithLinger(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return errors.New("netactor: WithLinger needs a positive duration")
		}
		c.linger = d
		return nil
	}
}

// WithBacklog sets the listen backlog (default 4096; the kernel may cap
// it, on linux at net.core.somaxconn).
func WithBacklog(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return errors.New("netactor: WithBacklog needs a positive size")
		}
		c.backlog = n
		return nil
	}
}

// WithIdleTimeout closes a served connection that has read nothing for d
// (default: never). It is an ordinary keyed actor timer of the connection
// actor, restarted by each read.
func WithIdleTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return errors.New("netactor: WithIdleTimeout needs a positive duration")
		}
		c.idle = d
		return nil
	}
}

// WithConnSpawnOptions passes spawn options (a bounded mailbox, say) to
// every connection actor a server spawns.
func WithConnSpawnOptions(opts ...actor.SpawnOption) Option {
	return func(c *config) error {
		c.connOptions = append(c.connOptions, opts...)
		return nil
	}
}
