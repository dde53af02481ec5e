package kv

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/troupe-go/troupe/examples/kvserver/resp"
)

// shardOf picks a key's shard by its FNV-1a hash (inline: hash/fnv's
// interface would allocate per key).
func shardOf(key []byte, n int) int {
	h := uint32(2166136261)
	for _, b := range key {
		h ^= uint32(b)
		h *= 16777619
	}
	return int(h % uint32(n))
}

// upperName copies a command name into buf in upper case; names longer
// than buf match no command.
func upperName(buf *[16]byte, name []byte) []byte {
	if len(name) > len(buf) {
		return nil
	}
	for i, c := range name {
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	return buf[:len(name)]
}

// command adds one parsed command to the batch; it reports whether the
// connection should close after replying (QUIT).
func (a *connActor) command(b *batch, args [][]byte) (quit bool) {
	if len(args) == 0 {
		return false // an empty inline line: Redis ignores it
	}
	var nb [16]byte
	upper := upperName(&nb, args[0])
	spec, ok := commands[string(upper)] // no allocation for a map lookup
	name := spec.name
	switch {
	case !ok:
		b.slots = append(b.slots, errSlot(fmt.Sprintf("ERR unknown command '%s'", clip(args[0]))))
	case len(args) < spec.min || (spec.max >= 0 && len(args) > spec.max) || (spec.pairs && len(args)%2 == 0):
		b.slots = append(b.slots, errSlot(fmt.Sprintf("ERR wrong number of arguments for '%s' command", strings.ToLower(name))))
	default:
		b.slots = append(b.slots, spec.run(a, b, args))
	}
	return ok && name == "QUIT"
}

// clip shortens a client's word quoted in an error.
func clip(b []byte) string {
	if len(b) > 64 {
		b = b[:64]
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, string(b))
}

func errSlot(msg string) slot { return slot{how: combineLocal, local: resp.AppendError(nil, msg)} }

type cmdSpec struct {
	name     string
	min, max int  // argument counts including the name; max -1: no limit
	pairs    bool // key value pairs after the name (MSET)
	run      func(a *connActor, b *batch, args [][]byte) slot
}

var commands map[string]cmdSpec

func init() {
	commands = map[string]cmdSpec{
		"PING":    {"PING", 1, 2, false, cmdPing},
		"ECHO":    {"ECHO", 2, 2, false, func(_ *connActor, _ *batch, args [][]byte) slot { return local(resp.AppendBulk(nil, args[1])) }},
		"QUIT":    {"QUIT", 1, -1, false, func(*connActor, *batch, [][]byte) slot { return local(resp.AppendOK(nil)) }},
		"COMMAND": {"COMMAND", 1, -1, false, func(*connActor, *batch, [][]byte) slot { return local(resp.AppendArrayHeader(nil, 0)) }},
		"CONFIG":  {"CONFIG", 2, -1, false, cmdConfig},
		"GET":     {"GET", 2, 2, false, keyCmd(opGet)},
		"INCR":    {"INCR", 2, 2, false, keyCmd(opIncr)},
		"TTL":     {"TTL", 2, 2, false, keyCmd(opTTL)},
		"SET":     {"SET", 3, -1, false, cmdSet},
		"EXPIRE":  {"EXPIRE", 3, 3, false, cmdExpire},
		"DEL":     {"DEL", 2, -1, false, multiKey(opDel, combineSum)},
		"EXISTS":  {"EXISTS", 2, -1, false, multiKey(opExists, combineSum)},
		"MGET":    {"MGET", 2, -1, false, multiKey(opGet, combineArray)},
		"MSET":    {"MSET", 3, -1, true, cmdMset},
	}
}

func local(b []byte) slot { return slot{how: combineLocal, local: b} }

func cmdPing(_ *connActor, _ *batch, args [][]byte) slot {
	if len(args) == 2 {
		return local(resp.AppendBulk(nil, args[1]))
	}
	return local(resp.AppendSimple(nil, "PONG"))
}

// cmdConfig answers CONFIG GET, which redis-benchmark sends first, with
// the few parameters it asks for; other parameters match nothing.
func cmdConfig(_ *connActor, _ *batch, args [][]byte) slot {
	if !strings.EqualFold(string(args[1]), "GET") || len(args) != 3 {
		return errSlot("ERR only CONFIG GET <parameter> is supported")
	}
	known := map[string]string{"save": "", "appendonly": "no", "databases": "1"}
	v, ok := known[strings.ToLower(string(args[2]))]
	if !ok {
		return local(resp.AppendArrayHeader(nil, 0))
	}
	out := resp.AppendArrayHeader(nil, 2)
	out = resp.AppendBulkString(out, strings.ToLower(string(args[2])))
	return local(resp.AppendBulkString(out, v))
}

func keyCmd(kind opKind) func(*connActor, *batch, [][]byte) slot {
	return func(a *connActor, b *batch, args [][]byte) slot {
		return a.one(b, op{kind: kind, key: string(args[1])}, args[1])
	}
}

func (a *connActor) one(b *batch, o op, key []byte) slot {
	return slot{how: combineOne, one: b.add(shardOf(key, len(a.shards)), o)}
}

func multiKey(kind opKind, how combine) func(*connActor, *batch, [][]byte) slot {
	return func(a *connActor, b *batch, args [][]byte) slot {
		s := slot{how: how, ops: make([]opRef, 0, len(args)-1)}
		for _, k := range args[1:] {
			s.ops = append(s.ops, b.add(shardOf(k, len(a.shards)), op{kind: kind, key: string(k)}))
		}
		return s
	}
}

func cmdMset(a *connActor, b *batch, args [][]byte) slot {
	s := slot{how: combineOK, ops: make([]opRef, 0, len(args)/2)}
	for i := 1; i+1 < len(args); i += 2 {
		o := op{kind: opSet, key: string(args[i]), val: bytes.Clone(args[i+1])}
		s.ops = append(s.ops, b.add(shardOf(args[i], len(a.shards)), o))
	}
	return s
}

// cmdSet handles SET key value [EX seconds | PX milliseconds].
func cmdSet(a *connActor, b *batch, args [][]byte) slot {
	o := op{kind: opSet, key: string(args[1]), val: bytes.Clone(args[2])}
	if o.val == nil {
		o.val = []byte{}
	}
	for i := 3; i < len(args); i++ {
		unit := time.Duration(0)
		switch strings.ToUpper(string(args[i])) {
		case "EX":
			unit = time.Second
		case "PX":
			unit = time.Millisecond
		default:
			return errSlot("ERR syntax error")
		}
		if i+1 >= len(args) || o.ttl != 0 {
			return errSlot("ERR syntax error")
		}
		n, err := strconv.ParseInt(string(args[i+1]), 10, 64)
		if err != nil {
			return errSlot("ERR value is not an integer or out of range")
		}
		if n <= 0 || n > int64(1<<62)/int64(unit) {
			return errSlot("ERR invalid expire time in 'set' command")
		}
		o.ttl = n * int64(unit)
		i++
	}
	return a.one(b, o, args[1])
}

func cmdExpire(a *connActor, b *batch, args [][]byte) slot {
	n, err := strconv.ParseInt(string(args[2]), 10, 64)
	if err != nil {
		return errSlot("ERR value is not an integer or out of range")
	}
	if n > int64(1<<62)/int64(time.Second) {
		return errSlot("ERR invalid expire time in 'expire' command")
	}
	ttl := n * int64(time.Second)
	if ttl <= 0 {
		ttl = -1 // expire now: delete
	}
	return a.one(b, op{kind: opExpire, key: string(args[1]), ttl: ttl}, args[1])
}
