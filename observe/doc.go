// Package observe shows a running troupe system: it exports the system's
// figures to OpenTelemetry ([RegisterOTel]) and Prometheus
// ([RegisterPrometheus], [MetricsHandler]), propagates OpenTelemetry
// traces through tell and ask, across nodes too ([EnableTracing]), and
// serves the observer, a live web page of the actor tree ([NewObserver]).
//
// Everything here reads the system through its introspection API
// ([actor.System.Actors], [actor.System.Totals], [actor.System.Inspect]);
// the core packages never import this one, nor OpenTelemetry or
// Prometheus, so a program pays for them only if it imports observe.
//
// Metrics are aggregated by actor kind, never by actor id: a million
// actors make as many series as they have kinds. Handling time and
// mailbox wait are gauges of the worst estimate among the kind's live
// actors, by percentile, since each actor estimates its own percentiles
// in constant memory rather than keeping a histogram. Mailbox wait is
// measured on a sample of the messages (one in 256) while the system
// records details ([actor.System.SetDetailedMetrics]), and is zero
// otherwise.
//
// # Tracing
//
// [EnableTracing] installs an OpenTelemetry TracerProvider on a system.
// A message sent with a context holding a span carries the span's context
// (and nothing else of the context) to its receiver, whose handling is a
// span, the child of the sender's, named after the actor's kind and the
// message type, with the actor's ref as an attribute. The handler's
// [actor.Context] holds that span, so trace.SpanFromContext finds it, an
// HTTP client call given the Context joins the trace, and what the handler
// sends carries it on; its log lines carry trace_id and span_id. Across
// nodes the span context travels in the remote envelope's headers through
// the propagator (W3C Trace Context unless [WithPropagator] says
// otherwise), both ways. An ask made from a handler settles under the
// handler's trace, so a JavaScript handler keeps its trace across await.
// Messages sent without a trace start none; with tracing off a send costs
// no allocation and no extra field in the mailbox.
//
// # The observer
//
// [Observer] is an http.Handler serving one page and its JSON API, with
// its assets embedded: mount it anywhere (http.StripPrefix for a sub-path)
// and open it in a browser. The page shows the actor tree, a level at a
// time (expanding an actor loads its children), the top actors by
// mailbox depth, handling time and restarts, dead letters as they happen
// with their reasons, the scheduler's workers and their queues, remote
// peers, a sharded cluster's state on a node that runs package sharding
// (members, each kind's shards per node, the entities active on the
// shards the node serves, hand-offs in progress, lease latencies and the
// latest changes of owner the node saw), and per-kind message rates
// plotted over the last minutes;
// clicking an actor inspects it (counters, recent failures, and the
// figures an actor reports itself through [actor.StatsReporter]: a
// JavaScript actor reports its turns, pending timers and asks, and its
// budgets; goja keeps no account of a Runtime's heap).
//
// The tree is sorted by kind, then id (numbers in ids compare as
// numbers), and each level is grouped by kind: a kind with few actors
// there shows in full, a crowded one as a group to open, a page at a
// time, so a singleton beside a thousand siblings is on the first screen.
// A filter by name (any part of the path, ignoring case) or by kind shows
// the matches from anywhere in the tree. Sorting and filtering happen on
// the server (GET api/actors: parent, all, kind, q, after, limit), from
// an index of the actors' refs kept while a page shows the tree.
//
// It stays responsive at 100k actors: the server sends aggregates and
// pages, never the whole tree, and reads the system at most once per
// interval, however many pages are open and however often a client asks:
// GET api/summary, the live updates and the tree's pages share one
// snapshot (a summary visits every actor twice: about 130 ms of CPU at
// 100k actors). If taking it costs more than a quarter of the interval in
// CPU time, live updates come less often, so that looking never takes
// more than a quarter of a core (on Linux the CPU time is read on the
// reading's thread; elsewhere its wall time counts, which on a busy
// machine includes waiting for a core).
//
// The message rates are recorded always, not only while a page looks: a
// reading of the kinds' counters every 5 seconds while no page is live
// (every interval while one is), kept for the last 120 readings, so a
// page opened later plots the last minutes at once. A reading visits
// every actor; the sampling slows down so that it takes at most 2% of a
// core (at 100k actors on an idle machine, still one every 5 s).
//
// Live updates use server-sent events rather than websockets: the data
// flows one way, from server to page; SSE is plain HTTP, so it passes
// proxies and the program's own middleware (auth, logging) unchanged and
// needs nothing beyond net/http; and the browser's EventSource reconnects
// by itself. The page's few requests (expand, inspect, act) are ordinary
// fetches.
//
// The observer is read-only by default. [WithActions] adds stop and
// restart buttons (POST requests that stop an actor, or make it fail so
// that its supervisor restarts it): enable it only where whoever can reach
// the handler may act on the system. The observer has no login of its
// own (put the program's auth in front of it), but it refuses a
// state-changing request that a browser sends for another origin's page
// (by Sec-Fetch-Site, or Origin against Host; see
// http.CrossOriginProtection), so a web page the user happens to open
// cannot act through the user's browser. Requests from no browser (curl,
// scripts) carry neither header and pass.
package observe
