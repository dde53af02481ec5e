package kv

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/examples/kvserver/resp"
)

// Shard holds a part of the keyspace. Keys with a TTL have a keyed actor
// timer each; a timer's message is never handled after the key was set
// again or deleted (actor.Timers guarantees it), so expiry is exact
// without scanning.
type Shard struct {
	data map[string]*entry
}

type entry struct {
	val      []byte
	expireAt int64 // loop clock, ns; 0: none
}

// ttlKey is the timer key of a key's expiry.
type ttlKey string

// NewShard makes an empty shard.
func NewShard() *Shard { return &Shard{data: make(map[string]*entry)} }

// Receive executes a part of a batch and tells it back, or expires a key.
func (s *Shard) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case *part:
		now := c.Loop().Now()
		for i := range m.ops {
			o := &m.ops[i]
			o.start = len(m.out)
			m.out = s.exec(c, now, o, m.out)
			o.end = len(m.out)
		}
		return nil, c.Tell(m.b.owner, m)
	case ttlKey:
		delete(s.data, string(m))
		return nil, nil
	}
	return nil, fmt.Errorf("kv shard: unexpected message %T", msg)
}

// get returns a live entry.
func (s *Shard) get(now int64, key string) *entry {
	e := s.data[key]
	if e == nil || (e.expireAt != 0 && now >= e.expireAt) {
		return nil
	}
	return e
}

func (s *Shard) exec(c *actor.Context, now int64, o *op, out []byte) []byte {
	switch o.kind {
	case opGet:
		if e := s.get(now, o.key); e != nil {
			return resp.AppendBulk(out, e.val)
		}
		return resp.AppendNil(out)
	case opSet:
		s.set(c, now, o.key, o.val, o.ttl)
		return resp.AppendOK(out)
	case opDel, opExists:
		if s.get(now, o.key) != nil {
			o.n = 1
			if o.kind == opDel {
				s.del(c, o.key)
			}
		}
		return out
	case opIncr:
		return s.incr(c, now, o.key, out)
	case opExpire:
		return s.expire(c, now, o, out)
	case opTTL:
		e := s.get(now, o.key)
		switch {
		case e == nil:
			return resp.AppendInt(out, -2)
		case e.expireAt == 0:
			return resp.AppendInt(out, -1)
		}
		return resp.AppendInt(out, (e.expireAt-now+int64(time.Second)/2)/int64(time.Second))
	}
	return resp.AppendError(out, "ERR internal: unknown operation")
}

func (s *Shard) set(c *actor.Context, now int64, key string, val []byte, ttl int64) {
	e := s.data[key]
	if e == nil {
		e = &entry{}
		s.data[key] = e
	}
	e.val = val
	s.setTTL(c, now, key, e, ttl)
}

func (s *Shard) setTTL(c *actor.Context, now int64, key string, e *entry, ttl int64) {
	if ttl <= 0 {
		if e.expireAt != 0 {
			c.Timers().Cancel(ttlKey(key))
			e.expireAt = 0
		}
		return
	}
	e.expireAt = now + ttl
	_ = c.Timers().StartSingle(ttlKey(key), time.Duration(ttl), ttlKey(key))
}

func (s *Shard) del(c *actor.Context, key string) {
	if e := s.data[key]; e != nil && e.expireAt != 0 {
		c.Timers().Cancel(ttlKey(key))
	}
	delete(s.data, key)
}

func (s *Shard) incr(c *actor.Context, now int64, key string, out []byte) []byte {
	e := s.get(now, key)
	var n int64
	if e != nil {
		v, err := strconv.ParseInt(string(e.val), 10, 64)
		if err != nil {
			return resp.AppendError(out, "ERR value is not an integer or out of range")
		}
		if v == math.MaxInt64 {
			return resp.AppendError(out, "ERR increment or decrement would overflow")
		}
		n = v
	} else {
		if s.data[key] != nil {
			s.del(c, key) // expired, its timer not yet handled
		}
		e = &entry{}
		s.data[key] = e
	}
	n++
	e.val = strconv.AppendInt(e.val[:0:0], n, 10)
	return resp.AppendInt(out, n)
}

func (s *Shard) expire(c *actor.Context, now int64, o *op, out []byte) []byte {
	e := s.get(now, o.key)
	if e == nil {
		return resp.AppendInt(out, 0)
	}
	if o.ttl < 0 {
		s.del(c, o.key)
	} else {
		s.setTTL(c, now, o.key, e, o.ttl)
	}
	return resp.AppendInt(out, 1)
}
