package jsactor

import (
	"fmt"

	"github.com/troupe-go/troupe/loop"
)

// replyFailed settles an ask whose reply promise could not be followed
// (attaching the reactions threw: the promise's constructor was tampered
// with): the ask fails with the error, which is also reported, so the
// asker does not wait for its deadline.
func (in *instance) replyFailed(res *loop.Resolver[any], err error) {
	if _, live := in.asks[res]; !live {
		return
	}
	delete(in.asks, res)
	if !isUncatchable(err) {
		err = in.jsError(err)
	}
	err = fmt.Errorf("jsactor: cannot follow the reply promise: %w", err)
	res.Reject(err)
	in.report("reply promise", err)
}
