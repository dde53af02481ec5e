package kv

import (
	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/examples/kvserver/resp"
)

// opKind is what a shard does with one key.
type opKind uint8

const (
	opGet opKind = iota
	opSet
	opDel
	opExists
	opIncr
	opExpire
	opTTL
)

// op is one key operation, executed by the key's shard. Its reply is
// out[start:end] of its part, or n for counting operations.
type op struct {
	kind       opKind
	key        string
	val        []byte
	ttl        int64 // nanoseconds, 0: none (opSet: no expiry; opExpire: the new TTL)
	start, end int
	n          int64
}

// part is a batch's operations for one shard; it travels to the shard and
// back by messages, so only one actor touches it at a time.
type part struct {
	b     *batch
	shard int
	ops   []op
	out   []byte
}

// combine says how a command's reply is built from its operations.
type combine uint8

const (
	combineLocal combine = iota // reply already encoded in slot.local
	combineOne                  // the reply of one operation
	combineSum                  // an integer: the sum of the operations' n (DEL, EXISTS)
	combineArray                // an array of the operations' replies (MGET)
	combineOK                   // +OK once all are done (MSET)
)

// opRef names an operation of a batch.
type opRef struct{ part, op int32 }

// slot is one command of a batch.
type slot struct {
	how   combine
	local []byte
	one   opRef   // combineOne
	ops   []opRef // the others
}

// batch is the commands of one read, in order.
type batch struct {
	slots   []slot
	parts   []*part   // by shard; nil for shards with no operation
	pending int       // parts still at their shards
	owner   actor.Ref // the connection actor the parts return to
}

// add queues op for shard and returns its reference.
func (b *batch) add(shard int, o op) opRef {
	p := b.parts[shard]
	if p == nil {
		p = &part{b: b, shard: shard}
		b.parts[shard] = p
	}
	p.ops = append(p.ops, o)
	return opRef{part: int32(shard), op: int32(len(p.ops) - 1)}
}

// encode appends the batch's replies, in command order.
func (b *batch) encode(out []byte) []byte {
	for i := range b.slots {
		s := &b.slots[i]
		switch s.how {
		case combineLocal:
			out = append(out, s.local...)
		case combineOne:
			out = append(out, b.reply(s.one)...)
		case combineSum:
			var sum int64
			for _, r := range s.ops {
				sum += b.op(r).n
			}
			out = resp.AppendInt(out, sum)
		case combineArray:
			out = resp.AppendArrayHeader(out, len(s.ops))
			for _, r := range s.ops {
				out = append(out, b.reply(r)...)
			}
		case combineOK:
			out = resp.AppendOK(out)
		}
	}
	return out
}

func (b *batch) op(r opRef) *op { return &b.parts[r.part].ops[r.op] }

func (b *batch) reply(r opRef) []byte {
	p := b.parts[r.part]
	o := &p.ops[r.op]
	return p.out[o.start:o.end]
}
