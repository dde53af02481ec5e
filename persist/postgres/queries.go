package postgres

import "strings"

// queries are the store's statements, with its table prefix.
type queries struct {
	create, drop string
	appendWrite  string // heads compare-and-set and the events, in one statement
	readHead     string
	readEvents   string
	readRange    string
	deleteTo     string
	saveSnap     string
	pruneSnaps   string
	oldestSnap   string
	loadSnap     string
	getState     string
	createState  string
	updateState  string
}

func newQueries(prefix string) queries {
	r := strings.NewReplacer("P_", prefix+"_")
	return queries{
		create: r.Replace(`
CREATE TABLE IF NOT EXISTS P_journal (
	entity text NOT NULL, seq bigint NOT NULL, type text NOT NULL, version integer NOT NULL,
	fence bigint NOT NULL, data bytea NOT NULL, PRIMARY KEY (entity, seq));
CREATE TABLE IF NOT EXISTS P_heads (entity text PRIMARY KEY, seq bigint NOT NULL);
CREATE TABLE IF NOT EXISTS P_snapshots (
	entity text NOT NULL, seq bigint NOT NULL, rev bigint NOT NULL, type text NOT NULL,
	version integer NOT NULL, data bytea NOT NULL, PRIMARY KEY (entity, seq));
CREATE TABLE IF NOT EXISTS P_states (
	entity text PRIMARY KEY, revision bigint NOT NULL, type text NOT NULL,
	version integer NOT NULL, data bytea NOT NULL);`),
		drop: r.Replace(`DROP TABLE IF EXISTS P_journal, P_heads, P_snapshots, P_states`),
		// The head moves from $2 to $3 only if it stands at $2 (or is
		// absent and $2 is 0); the events go in only if it moved. One
		// statement: atomic, one round trip.
		appendWrite: r.Replace(`
WITH head AS (
	INSERT INTO P_heads AS h (entity, seq) VALUES ($1, $3)
	ON CONFLICT (entity) DO UPDATE SET seq = EXCLUDED.seq WHERE h.seq = $2
	RETURNING 1)
INSERT INTO P_journal (entity, seq, type, version, fence, data)
SELECT $1, u.s, u.t, u.v, u.f, u.d
FROM unnest($4::bigint[], $5::text[], $6::integer[], $7::bigint[], $8::bytea[]) AS u(s, t, v, f, d)
WHERE EXISTS (SELECT 1 FROM head)`),
		readHead:   r.Replace(`SELECT seq FROM P_heads WHERE entity = $1`),
		readEvents: r.Replace(`SELECT seq, type, version, fence, data FROM P_journal WHERE entity = $1 AND seq > $2 AND seq <= $3 ORDER BY seq`),
		readRange:  r.Replace(`SELECT seq, type, version, fence, data FROM P_journal WHERE entity = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq`),
		deleteTo:   r.Replace(`DELETE FROM P_journal WHERE entity = $1 AND seq <= $2`),
		saveSnap: r.Replace(`
INSERT INTO P_snapshots (entity, seq, rev, type, version, data) VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (entity, seq) DO UPDATE SET rev = EXCLUDED.rev, type = EXCLUDED.type, version = EXCLUDED.version, data = EXCLUDED.data`),
		pruneSnaps: r.Replace(`
DELETE FROM P_snapshots WHERE entity = $1 AND seq < (
	SELECT seq FROM P_snapshots WHERE entity = $1 ORDER BY seq DESC OFFSET $2 - 1 LIMIT 1)`),
		oldestSnap:  r.Replace(`SELECT min(seq) FROM P_snapshots WHERE entity = $1`),
		loadSnap:    r.Replace(`SELECT seq, rev, type, version, data FROM P_snapshots WHERE entity = $1 ORDER BY seq DESC LIMIT 1`),
		getState:    r.Replace(`SELECT revision, type, version, data FROM P_states WHERE entity = $1`),
		createState: r.Replace(`INSERT INTO P_states (entity, revision, type, version, data) VALUES ($1, 1, $2, $3, $4) ON CONFLICT (entity) DO NOTHING RETURNING revision`),
		updateState: r.Replace(`UPDATE P_states SET revision = revision + 1, type = $3, version = $4, data = $5 WHERE entity = $1 AND revision = $2 RETURNING revision`),
	}
}
