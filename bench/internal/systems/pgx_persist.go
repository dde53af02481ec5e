package systems

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/postgres"
	"github.com/troupe-go/troupe/remote/wire"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// Pgx names the persist suite's PostgreSQL baseline: a raw INSERT round
// trip with pgx, on the server TROUPE_POSTGRES_URL names.
const Pgx = "pgx"

// PostgresURLEnv names the PostgreSQL server of the persist suite's
// PostgreSQL row (.ci/run starts one and sets it).
const PostgresURLEnv = "TROUPE_POSTGRES_URL"

var pgxBaseline = register(&System{Name: Pgx, Cases: map[string]Case{}})

func init() {
	pgxBaseline.cannotRun("raw pgx is the baseline of the PostgreSQL row only",
		"persist_reply_p50", "persist_events_1000", "persist_recover_1000", "persist_recover_snap", "persist_idle_actor")
	natsBaseline.cannotRun("raw JetStream is not the PostgreSQL row's baseline", "persist_pg_reply_p50")
	if os.Getenv(PostgresURLEnv) == "" {
		why := PostgresURLEnv + " is not set: no PostgreSQL to measure against (.ci/run starts one)"
		troupe.cannotRun(why, "persist_pg_reply_p50")
		pgxBaseline.cannotRun(why, "persist_pg_reply_p50")
		return
	}
	troupe.Cases["persist_pg_reply_p50"] = troupePostgresReply
	pgxBaseline.Cases["persist_pg_reply_p50"] = rawPgxInsert
}

// benchTables is a table prefix of this process's own, dropped after it.
func benchTables() string {
	return "bench_" + strconv.FormatInt(time.Now().UnixNano()%1e12, 36) + "_" + strconv.Itoa(os.Getpid())
}

// troupePostgresReply: p.N sequential asks to one event-sourced actor on
// the PostgreSQL store, each persisting one event, then replying.
func troupePostgresReply(p Params) (measure.Figures, error) {
	ctx := context.Background()
	store, err := postgres.Open(ctx, os.Getenv(PostgresURLEnv), postgres.WithTablePrefix(benchTables()))
	if err != nil {
		return measure.Figures{}, err
	}
	defer store.Close()
	defer store.DropTables(ctx)
	reg := wire.NewRegistry()
	if err := wire.Register[benchEvent](reg, "bench.event"); err != nil {
		return measure.Figures{}, err
	}
	def := &persist.EventSourced[int64, int64, benchEvent]{
		Store: store, Schema: persist.NewSchema(reg),
		Command: func(c *persist.Command[int64, benchEvent], n int64) (any, error) {
			return c.Persist(benchEvent{n}), nil
		},
		Apply: func(s int64, e benchEvent) int64 { return s + e.N },
	}
	f, err := def.Factory()
	if err != nil {
		return measure.Figures{}, err
	}
	sys, err := troupeActorSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(sys)
	ref, err := sys.Spawn("account", "0", f)
	if err != nil {
		return measure.Figures{}, err
	}
	actx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	lat := make([]time.Duration, p.N)
	m := measure.Start()
	for i := range lat {
		t := time.Now()
		_, err := actor.Ask[int64](actx, sys, ref, int64(1))
		lat[i] = time.Since(t)
		if err != nil {
			return measure.Figures{}, fmt.Errorf("ask %d: %w", i, err)
		}
	}
	return quantileFigures(m.Stop(p.N), lat, 0.50), nil
}

// rawPgxInsert: p.N sequential INSERTs with pgx of a row as the store
// writes one (entity, sequence number, type, version, fence, the same
// encoded bytes), each its own transaction, into a table of the same
// shape and primary key.
func rawPgxInsert(p Params) (measure.Figures, error) {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv(PostgresURLEnv))
	if err != nil {
		return measure.Figures{}, err
	}
	defer pool.Close()
	table := benchTables() + "_raw"
	if _, err := pool.Exec(ctx, `CREATE TABLE `+table+` (entity text NOT NULL, seq bigint NOT NULL, type text NOT NULL,
		version integer NOT NULL, fence bigint NOT NULL, data bytea NOT NULL, PRIMARY KEY (entity, seq))`); err != nil {
		return measure.Figures{}, err
	}
	defer pool.Exec(ctx, `DROP TABLE `+table)
	reg := wire.NewRegistry()
	if err := wire.Register[benchEvent](reg, "bench.event"); err != nil {
		return measure.Figures{}, err
	}
	pl, err := persist.NewSchema(reg).Encode(benchEvent{1})
	if err != nil {
		return measure.Figures{}, err
	}
	insert := `INSERT INTO ` + table + ` (entity, seq, type, version, fence, data) VALUES ($1, $2, $3, $4, $5, $6)`
	lat := make([]time.Duration, p.N)
	m := measure.Start()
	for i := range lat {
		t := time.Now()
		_, err := pool.Exec(ctx, insert, "account/0", int64(i+1), pl.Type, int32(pl.Version), int64(0), pl.Data)
		lat[i] = time.Since(t)
		if err != nil {
			return measure.Figures{}, fmt.Errorf("insert %d: %w", i, err)
		}
	}
	return quantileFigures(m.Stop(p.N), lat, 0.50), nil
}
