package sharding

import "fmt"

// View is a kind's placement as one node sees it, for a [Strategy].
type View struct {
	// Kind is the kind's name.
	Kind string
	// Self is the node deciding.
	Self string
	// Nodes are the live nodes that may run the kind, sorted; Self is
	// among them if it may.
	Nodes []string
	// Owners has one entry per shard: the node holding its lease, or ""
	// if none does.
	Owners []string
}

// Strategy decides which shards a node claims and which it hands off.
// Every node runs it on its own view of the bucket; when their views agree
// their decisions should too, so that nodes do not contend for a shard or
// pass it back and forth. Its methods run on the node's coordinator
// goroutine, and must not block.
type Strategy interface {
	// Claim returns the unowned shards (Owners[s] == "") Self should
	// claim now.
	Claim(v View) []int
	// Release returns the shards Self owns and should hand off now.
	Release(v View) []int
}

// LeastShards is the default [Strategy]: each unowned shard goes to the
// node that owns the fewest (ties to the first by name), and once every
// shard has an owner, a node that owns more than Threshold shards above
// the least loaded hands off its excess over an even share, highest shard
// numbers first.
type LeastShards struct {
	// Threshold is the imbalance tolerated (values below 1 count as 1).
	Threshold int
}

// String names the strategy and its threshold: nodes compare it when
// they register a kind ([ErrMismatch]).
func (l LeastShards) String() string {
	return fmt.Sprintf("LeastShards(threshold %d)", max(l.Threshold, 1))
}

// counts returns how many shards each of v.Nodes owns, and how many
// shards have no owner.
func counts(v View) (map[string]int, int) {
	n := make(map[string]int, len(v.Nodes))
	for _, name := range v.Nodes {
		n[name] = 0
	}
	free := 0
	for _, o := range v.Owners {
		if o == "" {
			free++
		} else if _, ok := n[o]; ok {
			n[o]++
		}
	}
	return n, free
}

// Claim implements [Strategy].
func (l LeastShards) Claim(v View) []int {
	n, free := counts(v)
	if free == 0 || len(v.Nodes) == 0 {
		return nil
	}
	var mine []int
	for s, o := range v.Owners {
		if o != "" {
			continue
		}
		least := v.Nodes[0]
		for _, name := range v.Nodes[1:] {
			if n[name] < n[least] {
				least = name
			}
		}
		n[least]++
		if least == v.Self {
			mine = append(mine, s)
		}
	}
	return mine
}

// Release implements [Strategy].
func (l LeastShards) Release(v View) []int {
	n, free := counts(v)
	mine, ok := n[v.Self]
	if free > 0 || !ok || len(v.Nodes) < 2 {
		return nil
	}
	total, least := 0, mine
	for _, c := range n {
		total += c
		least = min(least, c)
	}
	if mine-least <= max(l.Threshold, 1) {
		return nil
	}
	share := (total + len(v.Nodes) - 1) / len(v.Nodes)
	var out []int
	for s := len(v.Owners) - 1; s >= 0 && mine > share; s-- {
		if v.Owners[s] == v.Self {
			out = append(out, s)
			mine--
		}
	}
	return out
}
