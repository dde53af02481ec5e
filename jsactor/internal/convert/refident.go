package convert

import (
	"weak"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
)

// RefTable remembers the ref objects an instance handed out, by object
// identity: a ref is recognised only because the host made that very
// object, never by reading its properties back, so a script cannot forge
// one (an object with the ref prototype and chosen system/kind/id is
// just an object). Keys are weak, so a ref object the script dropped is
// collected; entries of collected objects are swept when the table has
// doubled since the last sweep, on the loop, with no cleanup goroutine.
type RefTable struct {
	m       map[weak.Pointer[goja.Object]]actor.Ref
	sweepAt int
}

const minRefSweep = 64

// Add records o as the ref object of r.
func (t *RefTable) Add(o *goja.Object, r actor.Ref) {
	if t.m == nil {
		t.m = make(map[weak.Pointer[goja.Object]]actor.Ref)
		t.sweepAt = minRefSweep
	}
	if len(t.m) >= t.sweepAt {
		t.sweep()
	}
	t.m[weak.Make(o)] = r
}

func (t *RefTable) sweep() {
	for k := range t.m {
		if k.Value() == nil {
			delete(t.m, k)
		}
	}
	t.sweepAt = max(minRefSweep, 2*len(t.m))
}

// Lookup returns the ref whose object o is, if o is one Add recorded.
func (t *RefTable) Lookup(o *goja.Object) (actor.Ref, bool) {
	if t.m == nil {
		return actor.Ref{}, false
	}
	r, ok := t.m[weak.Make(o)]
	return r, ok
}
