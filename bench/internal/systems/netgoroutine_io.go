package systems

import (
	"net"
	"sync"
)

// The goroutine-per-connection baseline of the io suite: the net package,
// one goroutine per accepted connection reading into its own 4 KiB buffer
// and writing back what it read (not io.Copy, whose TCP splice would add
// pipes per connection).
var netGoroutine = register(&System{
	Name: NetGoroutine,
	Cases: map[string]Case{
		"echo":      echoCase(netEchoServer),
		"idle_conn": idleConnCase(netEchoServer),
	},
})

func init() {
	netGoroutine.cannotRun("its kv baseline is redis-server", "kv")
}

func netEchoServer() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	conns := map[net.Conn]struct{}{}
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns[c] = struct{}{}
			mu.Unlock()
			wg.Go(func() { netEcho(c) })
		}
	})
	stop := func() {
		_ = ln.Close()
		mu.Lock()
		for c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	}
	return ln.Addr().String(), stop, nil
}

func netEcho(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
