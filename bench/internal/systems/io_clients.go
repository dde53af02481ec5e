package systems

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The io suite's clients run in a separate process: the case's own binary
// (cmd/compare, or a test binary standing in for it) started again with
// ioClientEnv set. init runs that role before main, so neither main nor
// TestMain needs to know about it.

const ioClientEnv = "TROUPE_BENCH_IOCLIENT"

func init() {
	if spec := os.Getenv(ioClientEnv); spec != "" {
		if err := runIOClient(spec); err != nil {
			fmt.Fprintln(os.Stderr, "io client:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// ioClientSpec is what the client process is asked to do.
type ioClientSpec struct {
	mode     string // "echo" or "idle"
	addr     string
	conns    int
	duration time.Duration // echo
	size     int           // echo message size
}

func (s ioClientSpec) String() string {
	return fmt.Sprintf("%s,%s,%d,%d,%d", s.mode, s.addr, s.conns, s.duration, s.size)
}

func parseIOClientSpec(v string) (ioClientSpec, error) {
	f := strings.Split(v, ",")
	if len(f) != 5 {
		return ioClientSpec{}, fmt.Errorf("bad spec %q", v)
	}
	var s ioClientSpec
	var err error
	var d int64
	s.mode, s.addr = f[0], f[1]
	if s.conns, err = strconv.Atoi(f[2]); err != nil {
		return s, err
	}
	if d, err = strconv.ParseInt(f[3], 10, 64); err != nil {
		return s, err
	}
	s.duration = time.Duration(d)
	s.size, err = strconv.Atoi(f[4])
	return s, err
}

// runIOClient is the client process. It talks to its parent over stdin
// and stdout: "warm" after one warm-up connection (idle mode), "ready"
// once every connection made one round trip, then it waits for a line (or
// EOF) on stdin; echo mode then runs its round trips and prints the count.
func runIOClient(v string) error {
	s, err := parseIOClientSpec(v)
	if err != nil {
		return err
	}
	in := bufio.NewReader(os.Stdin)
	var conns []net.Conn
	msg := make([]byte, max(s.size, 1))
	if s.mode == "idle" {
		warm, err := openConns(s.addr, 1, msg)
		if err != nil {
			return err
		}
		conns = append(conns, warm...)
		fmt.Println("warm")
		if _, err := in.ReadString('\n'); err != nil {
			return err
		}
	}
	more, err := openConns(s.addr, s.conns, msg)
	if err != nil {
		return err
	}
	conns = append(conns, more...)
	fmt.Println("ready")
	_, _ = in.ReadString('\n')
	if s.mode == "echo" {
		fmt.Println(echoLoad(more, msg, s.duration))
	}
	for _, c := range conns {
		_ = c.Close()
	}
	return nil
}

// openConns dials n connections and makes one round trip on each.
func openConns(addr string, n int, msg []byte) ([]net.Conn, error) {
	conns := make([]net.Conn, 0, n)
	buf := make([]byte, len(msg))
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("dial %d: %w", len(conns), err)
		}
		conns = append(conns, c)
		if _, err := c.Write(msg); err != nil {
			return nil, err
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			return nil, err
		}
	}
	return conns, nil
}

// echoLoad runs one goroutine per connection, each sending msg and
// awaiting its echo until d has passed; it returns the round trips made.
func echoLoad(conns []net.Conn, msg []byte, d time.Duration) int {
	var total int
	var mu sync.Mutex
	var wg sync.WaitGroup
	deadline := time.Now().Add(d)
	for _, c := range conns {
		wg.Go(func() {
			buf := make([]byte, len(msg))
			n := 0
			for time.Now().Before(deadline) {
				if _, err := c.Write(msg); err != nil {
					break
				}
				if _, err := io.ReadFull(c, buf); err != nil {
					break
				}
				n++
			}
			mu.Lock()
			total += n
			mu.Unlock()
		})
	}
	wg.Wait()
	return total
}

// ioClients is the parent's handle on a client process.
type ioClients struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startIOClients(s ioClientSpec) (*ioClients, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), ioClientEnv+"="+s.String())
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &ioClients{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// expect reads the client's next line and checks it.
func (c *ioClients) expect(want string) error {
	line, err := c.out.ReadString('\n')
	if err != nil || strings.TrimSpace(line) != want {
		return fmt.Errorf("client process said %q (%v), want %q", line, err, want)
	}
	return nil
}

func (c *ioClients) signal() error {
	_, err := io.WriteString(c.in, "go\n")
	return err
}

// count reads the round-trip count of echo mode.
func (c *ioClients) count() (int, error) {
	line, err := c.out.ReadString('\n')
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(line))
}

// stop closes stdin and waits for the process.
func (c *ioClients) stop() error {
	_ = c.in.Close()
	return c.cmd.Wait()
}
