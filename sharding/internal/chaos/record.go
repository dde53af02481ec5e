//go:build unix

package chaos

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Msg is the numbered message the client sends: Seq counts up per sender
// across all its entities, so the messages of one sender to one entity
// have increasing numbers in the order it sent them.
type Msg struct {
	Sender string
	Seq    uint64
}

// Handled is a message an entity handled, as its node logged it.
type Handled struct {
	Entity, Sender string
	Seq            uint64
	// Token is the fencing token of the lease the node held on the
	// entity's shard while handling it; 0 if sharding.Token said it held
	// none.
	Token uint64
	Proc  string // node name, '#', process id
	Time  int64  // Unix nanoseconds
}

// Dead is a dead letter: a message sharding gave up on, and why.
type Dead struct {
	Entity, Sender string
	Seq            uint64
	Reason         string
	Proc           string
	Time           int64
}

// Sent is a message the client sent: Owner is the node its table named
// as the owner of the entity's shard at the time (maybe stale), Err the
// error Tell returned at once, if any (then it is a dead letter too).
type Sent struct {
	Entity, Sender string
	Seq            uint64
	Time           int64
	Owner          string
	Err            string
}

// Fault is something the harness did to a node (or to the NATS server,
// Node "nats"): Kind is "kill", "pause", "leave", "leave-failed" (a
// node that exited with an error when told to leave) or "restart-nats";
// [Start, End] is when it was in effect (a kill ends at the restart).
type Fault struct {
	Kind, Node string
	Start, End int64
}

// procName names one process of a node.
func procName(node string) string { return node + "#" + strconv.Itoa(os.Getpid()) }

// nodeOf returns the node of a process name.
func nodeOf(proc string) string { n, _, _ := strings.Cut(proc, "#"); return n }

// logFile appends records to a node process's log, one write(2) per
// record: what was written survives a SIGKILL of the process.
type logFile struct {
	mu sync.Mutex
	f  *os.File
}

func openLog(dir, proc string) (*logFile, error) {
	f, err := os.OpenFile(filepath.Join(dir, strings.ReplaceAll(proc, "#", "-")+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &logFile{f: f}, nil
}

func (l *logFile) write(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.f.WriteString(line)
}

func (l *logFile) handled(h Handled) {
	l.write(fmt.Sprintf("H\t%s\t%s\t%d\t%d\t%s\t%d\n", h.Entity, h.Sender, h.Seq, h.Token, h.Proc, h.Time))
}

func (l *logFile) dead(d Dead) {
	l.write(fmt.Sprintf("D\t%s\t%s\t%d\t%s\t%s\t%d\n", d.Entity, d.Sender, d.Seq, d.Proc, oneLine(d.Reason), d.Time))
}

func (l *logFile) close() error { return l.f.Close() }

func oneLine(s string) string { return strings.NewReplacer("\t", " ", "\n", " ").Replace(s) }

// readLogs reads every node log in dir. A last line cut short by a
// SIGKILL mid-write is skipped and counted.
func readLogs(dir string) (hs []Handled, ds []Dead, torn int, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil {
		return nil, nil, 0, err
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, nil, 0, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			h, d, ok := parseLine(sc.Text())
			switch {
			case !ok:
				torn++
			case h != nil:
				hs = append(hs, *h)
			default:
				ds = append(ds, *d)
			}
		}
		_ = f.Close()
		if err := sc.Err(); err != nil {
			return nil, nil, 0, fmt.Errorf("chaos: reading %s: %w", name, err)
		}
	}
	return hs, ds, torn, nil
}

func parseLine(line string) (*Handled, *Dead, bool) {
	f := strings.Split(line, "\t")
	if len(f) != 7 {
		return nil, nil, false
	}
	seq, err1 := strconv.ParseUint(f[3], 10, 64)
	at, err2 := strconv.ParseInt(f[6], 10, 64)
	if err1 != nil || err2 != nil {
		return nil, nil, false
	}
	switch f[0] {
	case "H":
		tok, err := strconv.ParseUint(f[4], 10, 64)
		if err != nil {
			return nil, nil, false
		}
		return &Handled{Entity: f[1], Sender: f[2], Seq: seq, Token: tok, Proc: f[5], Time: at}, nil, true
	case "D":
		return nil, &Dead{Entity: f[1], Sender: f[2], Seq: seq, Proc: f[4], Reason: f[5], Time: at}, true
	}
	return nil, nil, false
}

func now() int64 { return time.Now().UnixNano() }
