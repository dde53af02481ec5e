#!/bin/bash
# alternate.sh compares troupe's figures between two builds of
# bench/cmd/compare (say, one built from an older commit and one from
# main): it runs each scenario's troupe child of A, then of B, RUNS times
# (default 5), and prints the medians and B ÷ A.
#
#   go build -o /tmp/a ./cmd/compare   # at the older commit
#   go build -o /tmp/b ./cmd/compare   # at main
#   RUNS=7 scripts/alternate.sh /tmp/a /tmp/b js_actor_spawn setimmediate_chain
set -euo pipefail
a=$1 b=$2
shift 2
runs=${RUNS:-5}
for sc in "$@"; do
	for _ in $(seq "$runs"); do
		for who in a b; do
			bin=$a
			[ "$who" = b ] && bin=$b
			echo "$sc $who $(GOMAXPROCS=2 GOGC=100 "$bin" -child "scenario=$sc,system=troupe" 2>/dev/null | tail -1)"
		done
	done
done | python3 -c '
import json, statistics, sys
runs = {}
for line in sys.stdin:
    sc, who, figures = line.split(" ", 2)
    try:
        runs.setdefault(sc, {}).setdefault(who, []).append(json.loads(figures))
    except ValueError:
        pass
for sc, by in runs.items():
    for k in ("ns_per_op", "cpu_ns_per_op", "bytes_per_op"):
        a = statistics.median(f.get(k, 0) for f in by.get("a", [{}]))
        b = statistics.median(f.get(k, 0) for f in by.get("b", [{}]))
        if a:
            print(f"{sc:20s} {k:14s} A {a:12.1f}  B {b:12.1f}  B/A {b / a:5.2f}")
'
