//go:build tools

package troupe

// This file mirrors the tool directives of go.mod for readers and for
// tooling that predates the Go 1.24 tool directive. tools_test.go checks
// that the two lists stay equal.
import (
	_ "github.com/troupe-go/troupe/gen/cmd/troupegen"
	_ "golang.org/x/perf/cmd/benchstat"
)
