//go:build !unix

package isolate_test

import (
	"fmt"
	"os"
)

// envParent is orphan_test.go's; isolation is unix-only, so no test sets
// it here.
const envParent = "ISOLATE_TEST_PARENT"

// runParent is not built where isolation is not supported.
func runParent() int {
	fmt.Fprintln(os.Stderr, "isolate: the parent process of TestParentDies is unix-only")
	return 1
}
