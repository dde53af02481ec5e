package jetstream_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/jetstream"
)

// Open a store in a directory, append a write, read it back.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "troupe-persist")
	defer os.RemoveAll(dir)
	store, err := jetstream.Open(dir)
	if err != nil {
		panic(err)
	}
	defer store.Close()
	ctx := context.Background()

	ev := persist.Event{Seq: 1, Payload: persist.Payload{Type: "greeting", Version: 1, Data: []byte("hello")}}
	end, err := store.Append(ctx, "greeter/1", persist.Cursor{}, []persist.Event{ev})
	fmt.Println(end.Seq, err)

	// A writer that still believes the journal is empty is fenced.
	_, err = store.Append(ctx, "greeter/1", persist.Cursor{}, []persist.Event{{Seq: 1, Payload: persist.Payload{Type: "greeting", Version: 1, Data: []byte("hi")}}})
	fmt.Println(err != nil && errors.Is(err, persist.ErrFenced))

	store.Read(ctx, "greeter/1", persist.Cursor{}, func(e persist.Event) error {
		fmt.Println(e.Seq, e.Type, string(e.Data))
		return nil
	})
	// Output:
	// 1 <nil>
	// true
	// 1 greeting hello
}
