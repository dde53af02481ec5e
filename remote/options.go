package remote

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/troupe-go/troupe/remote/wire"
)

// Option configures a [Node] at [Start].
type Option func(*config) error

type config struct {
	registry      *wire.Registry
	url           string // external server; empty: embedded
	leafRemotes   []*url.URL
	leafListen    string
	serverOpts    []func(*server.Options)
	natsOpts      []nats.Option
	heartbeat     time.Duration
	missed        int
	maxFrame      int
	outboundLimit int
	signing       *signingConfig // nil: frames are not signed
}

func defaultConfig() config {
	return config{
		heartbeat:     time.Second,
		missed:        3,
		maxFrame:      1 << 20,
		outboundLimit: 8 << 20,
	}
}

// WithRegistry sets the registry of message types that may cross the
// wire (default: a [wire.NewRegistry] with the built-in types only).
// Every node must register the same types under the same names.
func WithRegistry(r *wire.Registry) Option {
	return func(c *config) error {
		if r == nil {
			return errors.New("remote: WithRegistry(nil)")
		}
		c.registry = r
		return nil
	}
}

// WithURL connects to an external NATS server (or cluster: a
// comma-separated list) instead of starting an embedded one.
func WithURL(url string) Option {
	return func(c *config) error {
		if url == "" {
			return errors.New("remote: WithURL(\"\")")
		}
		c.url = url
		return nil
	}
}

// WithLeafRemotes makes the embedded server join hubs as a leaf node,
// e.g. "nats-leaf://127.0.0.1:7422". Credentials and TLS for the remotes
// go through [WithServerOptions].
func WithLeafRemotes(urls ...string) Option {
	return func(c *config) error {
		for _, s := range urls {
			u, err := url.Parse(s)
			if err != nil {
				return fmt.Errorf("remote: leaf remote %q: %w", s, err)
			}
			c.leafRemotes = append(c.leafRemotes, u)
		}
		return nil
	}
}

// WithLeafListen makes the embedded server accept leaf nodes on
// hostport ("127.0.0.1:0" picks a free port; see [Node.LeafURL]).
func WithLeafListen(hostport string) Option {
	return func(c *config) error {
		c.leafListen = hostport
		return nil
	}
}

// WithServerOptions edits the embedded server's options after troupe has
// set its own: authorization, TLS, leaf-node credentials, limits. Called
// in order.
func WithServerOptions(fn func(*server.Options)) Option {
	return func(c *config) error {
		if fn == nil {
			return errors.New("remote: WithServerOptions(nil)")
		}
		c.serverOpts = append(c.serverOpts, fn)
		return nil
	}
}

// WithNATSOptions adds options of the client connection: user and
// password, credentials files, nkeys, TLS, reconnect policy. The node
// reconnects without limit, 100 ms apart (nats.go's default is 2 s):
// frames published while the connection is down go out on reconnect, and
// the server drops those whose receivers have not subscribed again yet,
// so a longer wait widens that window.
func WithNATSOptions(opts ...nats.Option) Option {
	return func(c *config) error {
		c.natsOpts = append(c.natsOpts, opts...)
		return nil
	}
}

// WithHeartbeat sets how often the node announces itself (default 1 s)
// and after how many missed announcements another node counts as lost
// (default 3): its watchers get [actor.Terminated] and asks to it fail
// with [ErrUnreachable]. A node silent for two intervals is pinged every
// interval; if the server answers that nobody serves it (it crashed, was
// killed, or its link to the network broke), it is lost at once. So a
// large missed count costs little: it delays only the loss of a node
// that is still subscribed but silent (a stalled process, a partition the
// server has not noticed), and it keeps a loaded machine, whose
// heartbeats run late, from losing live nodes.
func WithHeartbeat(interval time.Duration, missed int) Option {
	return func(c *config) error {
		if interval <= 0 || missed < 1 {
			return errors.New("remote: WithHeartbeat needs a positive interval and missed >= 1")
		}
		c.heartbeat, c.missed = interval, missed
		return nil
	}
}

// WithMaxFrame sets the largest frame the node sends or accepts, in bytes
// (default 1 MiB; keep it at most the server's max_payload), its seal
// included with [WithSigning]. A larger message is refused; a larger
// inbound frame is rejected and counted.
func WithMaxFrame(n int) Option {
	return func(c *config) error {
		if n < 1024 {
			return errors.New("remote: WithMaxFrame needs at least 1024 bytes")
		}
		c.maxFrame = n
		return nil
	}
}

// WithOutboundLimit bounds the bytes queued for one other node and not
// yet handed to the connection (default 8 MiB); a send past it fails with
// [ErrOverloaded] and its message goes to dead letters.
func WithOutboundLimit(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return errors.New("remote: WithOutboundLimit needs a positive limit")
		}
		c.outboundLimit = n
		return nil
	}
}
