package systems

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// Names of the io suite's baselines.
const (
	// NetGoroutine is a net package server with one goroutine per
	// connection.
	NetGoroutine = "goroutine per conn"
	// RedisServer is the real redis-server.
	RedisServer = "redis-server"
)

// IOScenarios names the io suite's scenarios.
var IOScenarios = []string{"echo", "idle_conn", "kv"}

// echoMsgSize is the echo scenario's message size.
const echoMsgSize = 64

// ioServer starts a server on a loopback port in this process and returns
// its address and a function that stops it.
type ioServer func() (addr string, stop func(), err error)

// echoCase: p.Senders client connections in a separate process, each
// sending a 64-byte message and awaiting its echo for p.N milliseconds.
func echoCase(start ioServer) Case {
	return func(p Params) (measure.Figures, error) {
		addr, stop, err := start()
		if err != nil {
			return measure.Figures{}, err
		}
		defer stop()
		cl, err := startIOClients(ioClientSpec{mode: "echo", addr: addr, conns: p.Senders,
			duration: time.Duration(p.N) * time.Millisecond, size: echoMsgSize})
		if err != nil {
			return measure.Figures{}, err
		}
		defer func() { _ = cl.stop() }()
		if err := cl.expect("ready"); err != nil {
			return measure.Figures{}, err
		}
		m := measure.Start()
		if err := cl.signal(); err != nil {
			return measure.Figures{}, err
		}
		n, err := cl.count()
		if err != nil {
			return measure.Figures{}, err
		}
		if n == 0 {
			return measure.Figures{}, errors.New("no round trip completed")
		}
		return m.Stop(n), nil
	}
}

// idleConnCase: p.N connections opened by a separate process, each having
// made one 64-byte round trip, then idle: the server's memory growth per
// connection. A warm-up connection, made first, is excluded. The count is
// scaled down to the fd limit (and the figures say so).
func idleConnCase(start ioServer) Case {
	return func(p Params) (measure.Figures, error) {
		n, note := fdBudget(p.N)
		addr, stop, err := start()
		if err != nil {
			return measure.Figures{}, err
		}
		defer stop()
		cl, err := startIOClients(ioClientSpec{mode: "idle", addr: addr, conns: n, size: echoMsgSize})
		if err != nil {
			return measure.Figures{}, err
		}
		defer func() { _ = cl.stop() }()
		if err := cl.expect("warm"); err != nil {
			return measure.Figures{}, err
		}
		time.Sleep(idleSettle)
		before := measure.TakeFootprint()
		if err := cl.signal(); err != nil {
			return measure.Figures{}, err
		}
		if err := cl.expect("ready"); err != nil {
			return measure.Figures{}, err
		}
		time.Sleep(idleSettle)
		after := measure.TakeFootprint()
		f := measure.PerItem(before, after, n)
		f.Note = note
		return f, nil
	}
}

// fdBudget caps a connection count to what RLIMIT_NOFILE allows (Go raises
// the soft limit to the hard one at start).
func fdBudget(want int) (int, string) {
	limit := maxOpenFiles()
	if limit <= 0 || want+256 <= limit {
		return want, ""
	}
	n := max(limit-256, 1)
	return n, fmt.Sprintf("scaled to %d connections by RLIMIT_NOFILE %d", n, limit)
}

// kvServer starts a Redis-protocol server and returns its port, a reader
// of the CPU time the server has used, and a function that stops it.
type kvServer func() (port int, cpu func() time.Duration, stop func(), err error)

// kvCase runs redis-benchmark -t set,get -n p.N -P 16 -c 50 -q against
// the server; the time per operation is the mean of SET's and GET's, from
// redis-benchmark's own rates.
func kvCase(start kvServer) Case {
	return func(p Params) (measure.Figures, error) {
		bench, err := ensureCommand("redis-benchmark", "redis-tools")
		if err != nil {
			return measure.Figures{}, err
		}
		port, cpu, stop, err := start()
		if err != nil {
			return measure.Figures{}, err
		}
		defer stop()
		cpu0 := cpu()
		out, err := exec.Command(bench, "-h", "127.0.0.1", "-p", strconv.Itoa(port),
			"-t", "set,get", "-n", strconv.Itoa(p.N), "-P", "16", "-c", "50", "-q").CombinedOutput()
		used := cpu() - cpu0
		if err != nil {
			return measure.Figures{}, fmt.Errorf("redis-benchmark: %v: %s", err, out)
		}
		rates, err := parseRates(string(out))
		if err != nil {
			return measure.Figures{}, err
		}
		ops := 2 * p.N
		ns := (float64(p.N)/rates["SET"] + float64(p.N)/rates["GET"]) * 1e9 / float64(ops)
		return measure.Figures{Ops: ops, NsPerOp: ns, CPUNsPerOp: float64(used.Nanoseconds()) / float64(ops)}, nil
	}
}

// parseRates reads "SET: 123.45 requests per second" lines; an error reply
// fails the case.
func parseRates(out string) (map[string]float64, error) {
	out = strings.ReplaceAll(out, "\r", "\n")
	if strings.Contains(strings.ToLower(out), "error") {
		return nil, fmt.Errorf("redis-benchmark reported an error: %s", out)
	}
	rates := map[string]float64{}
	for _, line := range strings.Split(out, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if !ok || !strings.Contains(rest, "requests per second") {
			continue
		}
		v, err := strconv.ParseFloat(strings.Fields(rest)[0], 64)
		if err == nil && v > 0 {
			rates[name] = v
		}
	}
	if rates["SET"] == 0 || rates["GET"] == 0 {
		return nil, fmt.Errorf("redis-benchmark output without SET and GET rates: %s", out)
	}
	return rates, nil
}

// ensureCommand finds a command, installing its Debian package with
// apt-get when it is missing.
func ensureCommand(name, pkg string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return "", fmt.Errorf("%s is not installed and there is no apt-get to install %s", name, pkg)
	}
	if out, err := exec.Command("apt-get", "install", "-y", pkg).CombinedOutput(); err != nil {
		return "", fmt.Errorf("apt-get install %s: %v: %s", pkg, err, lastLines(out))
	}
	return exec.LookPath(name)
}

func lastLines(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[len(s)-300:]
	}
	return s
}

// freePort picks a free loopback port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// waitRedis waits until a Redis-protocol server at port answers PING.
func waitRedis(port int) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err == nil {
			_, _ = c.Write([]byte("PING\r\n"))
			line, rerr := bufio.NewReader(c).ReadString('\n')
			_ = c.Close()
			if rerr == nil && strings.HasPrefix(line, "+PONG") {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no server answering on port %d", port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// procCPU reads a process's user+system time from /proc (clock ticks of
// 10 ms on linux).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+2:]
	}
	f := strings.Fields(s)
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}
