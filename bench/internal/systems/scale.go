package systems

import "time"

// MeshTokens is how many messages travel a mesh at once, whatever its
// size: the mesh scenarios differ only in how many actors they spread over.
const MeshTokens = 100

// idleTimerWindow is the span idle_timers' random deadlines fall in.
const idleTimerWindow = 10 * time.Minute

// meshHop is a message travelling a mesh: a preallocated pointer carrying
// its hops left, owned by whichever actor is handling it.
type meshHop struct{ left int }

// meshTokens returns the mesh scenario's messages, p.N hops in all, and
// that total.
func meshTokens(p Params) ([]*meshHop, int) {
	per := max(p.N/MeshTokens, 1)
	hops := make([]*meshHop, MeshTokens)
	for i := range hops {
		hops[i] = &meshHop{left: per - 1} // the first delivery is a hop
	}
	return hops, per * MeshTokens
}

// xorshift is the per-actor and per-sender random source of the scale
// scenarios: a few instructions, no lock, no allocation.
type xorshift uint64

func newXorshift(seed int) xorshift { return xorshift(uint64(seed)*0x9E3779B97F4A7C15 | 1) }

func (x *xorshift) next() uint64 {
	v := uint64(*x)
	v ^= v << 13
	v ^= v >> 7
	v ^= v << 17
	*x = xorshift(v)
	return v
}

// intn returns a number in [0, n).
func (x *xorshift) intn(n int) int { return int(x.next() % uint64(n)) }

// deadline returns a random delay in (0, idleTimerWindow].
func (x *xorshift) deadline() time.Duration {
	return time.Duration(1 + x.next()%uint64(idleTimerWindow))
}
