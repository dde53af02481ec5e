package web

import (
	"time"

	"github.com/dop251/goja"
)

// Performance makes the performance global: now() (milliseconds on
// the actor's loop clock since the instance started, as now returns them:
// a virtual clock in tests), mark(name),
// measure(name[, startMark[, endMark]]), getEntriesByName(name) and
// clearMarks([name]) / clearMeasures([name]).
func Performance(rt *goja.Runtime, now func() float64) goja.Value {
	ps := &perfState{rt: rt}
	o := rt.NewObject()
	_ = o.Set("timeOrigin", float64(time.Now().UnixNano())/1e6)
	_ = o.Set("now", func(goja.FunctionCall) goja.Value { return rt.ToValue(now()) })
	_ = o.Set("mark", func(call goja.FunctionCall) goja.Value {
		e := perfEntry{name: call.Argument(0).String(), kind: "mark", start: now()}
		ps.entries = append(ps.entries, e)
		return ps.entryJS(e)
	})
	_ = o.Set("measure", func(call goja.FunctionCall) goja.Value {
		start, end := 0.0, now()
		if a := call.Argument(1); !goja.IsUndefined(a) {
			start = ps.markTime(a.String())
		}
		if a := call.Argument(2); !goja.IsUndefined(a) {
			end = ps.markTime(a.String())
		}
		e := perfEntry{name: call.Argument(0).String(), kind: "measure", start: start, duration: end - start}
		ps.entries = append(ps.entries, e)
		return ps.entryJS(e)
	})
	_ = o.Set("getEntriesByName", func(call goja.FunctionCall) goja.Value {
		var out []any
		for _, e := range ps.entries {
			if e.name == call.Argument(0).String() {
				out = append(out, ps.entryJS(e))
			}
		}
		return rt.NewArray(out...)
	})
	_ = o.Set("clearMarks", func(call goja.FunctionCall) goja.Value { ps.clear("mark", call.Argument(0)); return goja.Undefined() })
	_ = o.Set("clearMeasures", func(call goja.FunctionCall) goja.Value {
		ps.clear("measure", call.Argument(0))
		return goja.Undefined()
	})
	return o
}

// perfState is one performance object's entries.
type perfState struct {
	rt      *goja.Runtime
	entries []perfEntry
}

type perfEntry struct {
	name, kind      string
	start, duration float64
}

func (ps *perfState) markTime(name string) float64 {
	for i := len(ps.entries) - 1; i >= 0; i-- {
		if e := ps.entries[i]; e.kind == "mark" && e.name == name {
			return e.start
		}
	}
	panic(ps.rt.NewTypeError("performance.measure: no mark named " + name))
}

func (ps *perfState) clear(kind string, name goja.Value) {
	kept := ps.entries[:0]
	for _, e := range ps.entries {
		if e.kind != kind || (!goja.IsUndefined(name) && e.name != name.String()) {
			kept = append(kept, e)
		}
	}
	ps.entries = kept
}

func (ps *perfState) entryJS(e perfEntry) goja.Value {
	o := ps.rt.NewObject()
	_ = o.Set("name", e.name)
	_ = o.Set("entryType", e.kind)
	_ = o.Set("startTime", e.start)
	_ = o.Set("duration", e.duration)
	return o
}
