package persist_test

import (
	"testing"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/storetest"
)

func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(*testing.T) storetest.Store { return persist.NewMemoryStore() })
}
