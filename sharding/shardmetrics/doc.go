// Package shardmetrics exports a sharded cluster's figures by kind
// ([sharding.Cluster.KindStats]) to Prometheus ([NewCollector],
// [RegisterPrometheus]) and OpenTelemetry ([RegisterOTel]): shards owned,
// active entities, buffered messages, remembered entities, and counters of
// claims, leases lost, hand-offs, activations, passivations, restored
// entities, forwarded messages, flushes and dead letters, and the p50 and
// p99 of lease claims and renewals. Every series carries the kind (label
// kind) and the node (label node). It is a package of its own so that a
// program that does not export sharding's figures does not link the
// exporters, and so that package observe, which exports the actor
// system's, need not import sharding. Reading the figures takes each
// kind's lock once per collection.
package shardmetrics
