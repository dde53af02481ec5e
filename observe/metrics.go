package observe

import (
	"slices"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// metricKind says how a metric behaves over time.
type metricKind int

const (
	counter metricKind = iota // only grows
	gauge                     // goes up and down
)

// metricDef defines one exported metric under both naming schemes: the
// OpenTelemetry name (dotted, unit apart) and the Prometheus name (unit
// and _total in the name). Labels name the attributes in OTel terms; the
// Prometheus label is the same with dots turned into underscores.
type metricDef struct {
	otel, prom, unit, help string
	kind                   metricKind
	labels                 []string
}

// point is one value of a metric, with its label values in the order of
// the metric's labels.
type point struct {
	def    *metricDef
	labels []string
	value  float64
}

// The metrics, aggregated by actor kind (never by actor id: a million
// actors make as many series as they have kinds).
var (
	mActors       = &metricDef{"troupe.actors", "troupe_actors", "{actor}", "Live actors.", gauge, []string{"actor.kind"}}
	mMailbox      = &metricDef{"troupe.actor.mailbox.depth", "troupe_actor_mailbox_messages", "{message}", "Messages queued in the mailboxes of live actors.", gauge, []string{"actor.kind"}}
	mHandled      = &metricDef{"troupe.actor.messages", "troupe_actor_messages_total", "{message}", "Tasks run by actors (messages, replies, timer deliveries, system messages), stopped actors included.", counter, []string{"actor.kind"}}
	mRestarts     = &metricDef{"troupe.actor.restarts", "troupe_actor_restarts_total", "{restart}", "Actor failures, each of which restarted (or stopped) the actor.", counter, []string{"actor.kind"}}
	mStopped      = &metricDef{"troupe.actor.stopped", "troupe_actor_stopped_total", "{actor}", "Actors that stopped.", counter, []string{"actor.kind"}}
	mHandling     = &metricDef{"troupe.actor.handling_time", "troupe_actor_handling_seconds", "s", "Time to handle one task: the worst estimate among live actors of the kind, by percentile.", gauge, []string{"actor.kind", "percentile"}}
	mWait         = &metricDef{"troupe.actor.mailbox.wait", "troupe_actor_mailbox_wait_seconds", "s", "Time a message waits in the mailbox: the worst estimate among live actors of the kind, by percentile (detailed metrics only).", gauge, []string{"actor.kind", "percentile"}}
	mDead         = &metricDef{"troupe.dead_letters", "troupe_dead_letters_total", "{message}", "Messages that went to dead letters, by reason.", counter, []string{"reason"}}
	mAsksTimedOut = &metricDef{"troupe.asks.timed_out", "troupe_asks_timed_out_total", "{ask}", "Asks that got no reply in time.", counter, nil}
	mWorkers      = &metricDef{"troupe.scheduler.workers", "troupe_scheduler_workers", "{worker}", "Scheduler workers, by state.", gauge, []string{"state"}}
	mRunQueue     = &metricDef{"troupe.scheduler.run_queue", "troupe_scheduler_run_queue_loops", "{loop}", "Actor loops waiting for a worker, by queue.", gauge, []string{"queue"}}
	mPeers        = &metricDef{"troupe.remote.peers", "troupe_remote_peers", "{node}", "Other nodes this node keeps state for, by reachability.", gauge, []string{"state"}}
	mRemote       = &metricDef{"troupe.remote.events", "troupe_remote_events_total", "{event}", "The remote transport's counters (messages and frames sent and received, rejections...), by counter name.", counter, []string{"counter"}}

	allMetrics = []*metricDef{mActors, mMailbox, mHandled, mRestarts, mStopped, mHandling, mWait, mDead, mAsksTimedOut, mWorkers, mRunQueue, mPeers, mRemote}
)

// worst holds the largest percentile estimates seen for one kind.
type worst struct{ handling, wait [3]time.Duration }

var percentiles = [3]string{"p50", "p90", "p99"}

// collect reads the system once and returns every metric's points.
func collect(s *actor.System) []point {
	t := s.Totals()
	var pts []point
	add := func(d *metricDef, v float64, labels ...string) {
		pts = append(pts, point{d, labels, v})
	}
	for _, kind := range sortedKeys(t.Kinds) {
		k := t.Kinds[kind]
		add(mActors, float64(k.Actors), kind)
		add(mMailbox, float64(k.MailboxDepth), kind)
		add(mHandled, float64(k.MessagesHandled), kind)
		add(mRestarts, float64(k.Restarts), kind)
		add(mStopped, float64(k.Stopped), kind)
	}
	worstByKind := map[string]*worst{}
	s.VisitActors(func(a *actor.ActorInfo) bool {
		w := worstByKind[a.Ref.Kind()]
		if w == nil {
			w = &worst{}
			worstByKind[a.Ref.Kind()] = w
		}
		h, m := a.HandlingTime, a.MailboxWait
		for i, v := range [3]time.Duration{h.P50, h.P90, h.P99} {
			w.handling[i] = max(w.handling[i], v)
		}
		for i, v := range [3]time.Duration{m.P50, m.P90, m.P99} {
			w.wait[i] = max(w.wait[i], v)
		}
		return true
	})
	for _, kind := range sortedKeys(worstByKind) {
		w := worstByKind[kind]
		for i, q := range percentiles {
			add(mHandling, w.handling[i].Seconds(), kind, q)
			add(mWait, w.wait[i].Seconds(), kind, q)
		}
	}
	for _, reason := range sortedKeys(t.DeadLetters) {
		add(mDead, float64(t.DeadLetters[reason]), reason)
	}
	add(mAsksTimedOut, float64(t.AsksTimedOut))
	idle, local := 0, 0
	for _, w := range t.Scheduler.Workers {
		if w.Idle {
			idle++
		}
		local += w.RunQueue
	}
	add(mWorkers, float64(idle), "idle")
	add(mWorkers, float64(len(t.Scheduler.Workers)-idle), "busy")
	add(mRunQueue, float64(t.Scheduler.GlobalQueue), "global")
	add(mRunQueue, float64(local), "local")
	if ts, ok := s.TransportStats(); ok {
		up := 0
		for _, p := range ts.Peers {
			if p.Reachable {
				up++
			}
		}
		add(mPeers, float64(up), "reachable")
		add(mPeers, float64(len(ts.Peers)-up), "lost")
		for _, name := range sortedKeys(ts.Counters) {
			add(mRemote, float64(ts.Counters[name]), name)
		}
	}
	return pts
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
