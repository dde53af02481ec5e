package loop

// task is a queued callback: a plain func (as funcTask) or a promise
// reaction that carries its own state, so attaching one allocates nothing
// beyond the object that needs to exist anyway.
type task interface{ run() }

// funcTask makes a func a task; a func value fits an interface without an
// allocation.
type funcTask func()

func (f funcTask) run() { f() }

// ring is a growable FIFO of callbacks, used on the loop goroutine only (the
// microtask and immediate queues), so it needs no synchronization. A loop
// makes its rings on first use and drops them when it goes idle, so an
// idle loop keeps no queue memory.
type ring struct {
	buf        []task
	head, size int32
}

// len reports the queued callbacks; a nil ring is empty.
func (r *ring) len() int {
	if r == nil {
		return 0
	}
	return int(r.size)
}

func (r *ring) push(fn task) {
	if int(r.size) == len(r.buf) {
		r.grow()
	}
	r.buf[int(r.head+r.size)&(len(r.buf)-1)] = fn
	r.size++
}

func (r *ring) pop() task {
	fn := r.buf[r.head]
	r.buf[r.head] = nil
	r.head = (r.head + 1) & int32(len(r.buf)-1)
	r.size--
	return fn
}

func (r *ring) grow() {
	n := max(len(r.buf)*2, 8)
	buf := make([]task, n)
	for i := range r.size {
		buf[i] = r.buf[int(r.head+i)&(len(r.buf)-1)]
	}
	r.buf, r.head = buf, 0
}
