package jsactor

import (
	"slices"

	"github.com/dop251/goja"
	"go.uber.org/zap"
)

// rejections follows goja's promise rejection tracker: a promise rejected
// with no handler waits in pending until the turn's checkpoint, when it is
// reported as unhandled unless a handler was attached meanwhile; one
// reported and handled later is reported again as handled (Node's
// unhandledRejection / rejectionHandled).
type rejections struct {
	pending  []*goja.Promise
	reported map[*goja.Promise]struct{}
}

// maxReported bounds how many reported rejections are remembered for a
// later "handled" report.
const maxReported = 1024

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
			in.logger().Info("promise rejection handled later", zap.Error(in.errorOf(p.Result())))
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
		if in.rej.reported == nil || len(in.rej.reported) >= maxReported {
			in.rej.reported = map[*goja.Promise]struct{}{}
		}
		in.rej.reported[p] = struct{}{}
	}
}
