package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/persist/postgres"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// serverURL returns TROUPE_POSTGRES_URL; without it the test skips, or
// fails under CI=true, where .ci/run must have started a server.
func serverURL(t testing.TB) string {
	url := os.Getenv("TROUPE_POSTGRES_URL")
	if url == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("TROUPE_POSTGRES_URL is not set under CI=true: .ci/run should have started PostgreSQL")
		}
		t.Skip("TROUPE_POSTGRES_URL is not set: no PostgreSQL to test against (.ci/run starts one)")
	}
	return url
}

// openStore opens a store on tables of the test's own, dropped after it.
func openStore(t testing.TB) *postgres.Store {
	t.Helper()
	return openStoreAt(t, serverURL(t))
}

// openStoreAt opens a store on the server at url, as openStore does.
func openStoreAt(t testing.TB, url string) *postgres.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	prefix := fmt.Sprintf("test_%d_%d", time.Now().UnixNano()%1e9, rand.IntN(1e6))
	s, err := postgres.Open(ctx, url, postgres.WithTablePrefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.DropTables(ctx); err != nil {
			t.Errorf("drop tables: %v", err)
		}
		s.Close()
	})
	return s
}
