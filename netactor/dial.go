package netactor

import (
	"github.com/troupe-go/troupe/loop"
)

// Dial connects to a TCP or unix address without blocking l: the
// connection is returned at once and cb.Opened runs when it is
// established, or cb.Closed with the error when it fails. Output written
// meanwhile is sent once connected. Host names are resolved with the net
// package's resolver, which may block: pass IP literals from a handler.
// On l's loop only.
func Dial(l *loop.Loop, network, address string, cb Callbacks, opts ...Option) (*Conn, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	return dial(l, network, address, &cb, &cfg)
}

func dial(l *loop.Loop, network, address string, h handler, cfg *config) (*Conn, error) {
	if !supported {
		return nil, ErrUnsupported
	}
	if !l.OnLoop() {
		return nil, ErrNotOnLoop
	}
	fd, pending, err := dialSocket(network, address)
	if err != nil {
		return nil, err
	}
	st := stateOpen
	if pending {
		st = stateConnecting
	}
	c, err := open(l, fd, network, h, cfg, st)
	if err != nil {
		_ = sysClose(fd)
		return nil, err
	}
	if !pending {
		// Connected at once (unix sockets): report it as a dial would.
		st := c
		if err := l.QueueMicrotask(func() {
			if st.state == stateOpen {
				st.h.opened(st)
			}
		}); err != nil {
			c.Abort(err)
		}
	}
	return c, nil
}
