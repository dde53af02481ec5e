package jsactor

import (
	"fmt"
	"slices"

	"github.com/dop251/goja"
	"go.uber.org/zap"
)

// rejections follows goja's promise rejection tracker: a promise rejected
// with no handler waits in pending until the turn's checkpoint, when it is
// reported as unhandled unless a handler was attached meanwhile; one
// reported and handled later is reported again as handled (Node's
// unhandledRejection / rejectionHandled), to the error handler too, with
// an error wrapping ErrRejectionHandled.
type rejections struct {
	pending  []*goja.Promise
	reported map[*goja.Promise]struct{}
	order    []*goja.Promise // reported, oldest first (may hold forgotten ones)
}

// maxReported bounds how many reported rejections are remembered for a
// later "handled" report; past it the oldest is forgotten.
const maxReported = 1024

// remember records a reported rejection, forgetting the oldest one past
// maxReported.
func (r *rejections) remember(p *goja.Promise) {
	if r.reported == nil {
		r.reported = map[*goja.Promise]struct{}{}
	}
	for len(r.reported) >= maxReported {
		old := r.order[0]
		r.order[0] = nil
		r.order = r.order[1:]
		delete(r.reported, old)
	}
	if len(r.order) >= 2*maxReported { // drop the entries handled since
		live := make([]*goja.Promise, 0, len(r.reported)+1)
		for _, q := range r.order {
			if _, ok := r.reported[q]; ok {
				live = append(live, q)
			}
		}
		r.order = live
	}
	r.reported[p] = struct{}{}
	r.order = append(r.order, p)
}

func (in *instance) trackRejection(p *goja.Promise, op goja.PromiseRejectionOperation) {
	switch op {
	case goja.PromiseRejectionReject:
		in.rej.pending = append(in.rej.pending, p)
	case goja.PromiseRejectionHandle:
		if in.rej.handled(p) {
			return
		}
		if _, ok := in.rej.reported[p]; ok {
			delete(in.rej.reported, p)
			err := fmt.Errorf("%w: %w", ErrRejectionHandled, in.errorOf(p.Result()))
			in.logger().Info("promise rejection handled later", zap.Error(err))
			if in.cfg.onError != nil {
				in.cfg.onError(in.c.Self(), err)
			}
		}
	}
}

// handled forgets a pending rejection that got a handler; it reports
// whether p was pending.
func (r *rejections) handled(p *goja.Promise) bool {
	if i := slices.Index(r.pending, p); i >= 0 {
		r.pending = slices.Delete(r.pending, i, i+1)
		return true
	}
	return false
}

// reportRejections reports the rejections still unhandled at the end of a
// turn.
func (in *instance) reportRejections() {
	if len(in.rej.pending) == 0 {
		return
	}
	pending := in.rej.pending
	in.rej.pending = nil
	for _, p := range pending {
		in.report("unhandled promise rejection", in.errorOf(p.Result()))
		in.rej.remember(p)
	}
}
