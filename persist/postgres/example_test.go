package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/postgres"
)

// Open a store on a PostgreSQL database and append a write; a writer that
// is behind is fenced. (Compiled, not run: it needs a server; the package's
// tests run the same against one.)
func ExampleOpen() {
	url := os.Getenv("TROUPE_POSTGRES_URL") // postgres://user@host:5432/db
	ctx := context.Background()
	store, err := postgres.Open(ctx, url, postgres.WithTablePrefix("example"))
	if err != nil {
		panic(err)
	}
	defer store.Close()
	defer store.DropTables(ctx)

	ev := persist.Event{Seq: 1, Payload: persist.Payload{Type: "greeting", Version: 1, Data: []byte("hello")}}
	end, err := store.Append(ctx, "greeter/1", persist.Cursor{}, []persist.Event{ev})
	fmt.Println(end.Seq, err)
	other := persist.Event{Seq: 1, Payload: persist.Payload{Type: "greeting", Version: 1, Data: []byte("hi")}}
	_, err = store.Append(ctx, "greeter/1", persist.Cursor{}, []persist.Event{other})
	fmt.Println(errors.Is(err, persist.ErrFenced))
	// With a server, it prints:
	// 1 <nil>
	// true
}
