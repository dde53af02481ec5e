package systems

import (
	"os/exec"
	"strconv"
	"time"
)

// The kv baseline: a real redis-server (Debian's package, installed on
// first use), started per case with persistence off, on a free port.
var redisServer = register(&System{
	Name:  RedisServer,
	Cases: map[string]Case{"kv": kvCase(startRedis)},
})

func init() {
	redisServer.cannotRun("redis-server is the kv baseline only", "echo", "idle_conn")
}

func startRedis() (int, func() time.Duration, func(), error) {
	bin, err := ensureCommand("redis-server", "redis-server")
	if err != nil {
		return 0, nil, nil, err
	}
	port, err := freePort()
	if err != nil {
		return 0, nil, nil, err
	}
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "no")
	if err := cmd.Start(); err != nil {
		return 0, nil, nil, err
	}
	stop := func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	if err := waitRedis(port); err != nil {
		stop()
		return 0, nil, nil, err
	}
	pid := cmd.Process.Pid
	return port, func() time.Duration { return procCPU(pid) }, stop, nil
}
