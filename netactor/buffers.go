package netactor

import "sync"

// Buffers are pooled, not owned by connections: an idle connection holds
// no read buffer and, once its output has drained, no write buffer, which
// is what keeps an idle connection small.

const (
	readBufSize  = 64 << 10
	writeBufSize = 16 << 10
)

var (
	readBufs  = sync.Pool{New: func() any { b := make([]byte, readBufSize); return &b }}
	writeBufs = sync.Pool{New: func() any { b := make([]byte, 0, writeBufSize); return &b }}
)

func getReadBuf() *[]byte { return readBufs.Get().(*[]byte) }

func putReadBuf(b *[]byte) { readBufs.Put(b) }

func getWriteBuf() *[]byte {
	p := writeBufs.Get().(*[]byte)
	*p = (*p)[:0]
	return p
}

// putWriteBuf recycles a drained output buffer of the pooled size; one
// that grew past it (a large reply) goes to the garbage collector.
func putWriteBuf(p *[]byte) {
	if cap(*p) == writeBufSize {
		writeBufs.Put(p)
	}
}
