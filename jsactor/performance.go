package jsactor

import (
	"time"

	"github.com/dop251/goja"
)

// performance offers now() (milliseconds on the actor's loop clock, since
// the instance started: a virtual clock in tests), mark(name),
// measure(name[, startMark[, endMark]]), getEntriesByName(name) and
// clearMarks([name]) / clearMeasures([name]).
type perfState struct {
	origin  int64
	entries []perfEntry
}

type perfEntry struct {
	name, kind      string
	start, duration float64
}

func (in *instance) buildPerformance() goja.Value {
	ps := &perfState{origin: in.origin}
	in.cached().perf = ps
	now := func() float64 { return float64(in.l.Now()-ps.origin) / float64(time.Millisecond) }
	o := in.rt.NewObject()
	_ = o.Set("timeOrigin", float64(time.Now().UnixNano())/1e6)
	_ = o.Set("now", func(goja.FunctionCall) goja.Value { return in.rt.ToValue(now()) })
	_ = o.Set("mark", func(call goja.FunctionCall) goja.Value {
		e := perfEntry{name: call.Argument(0).String(), kind: "mark", start: now()}
		ps.entries = append(ps.entries, e)
		return in.perfEntryJS(e)
	})
	_ = o.Set("measure", func(call goja.FunctionCall) goja.Value {
		start, end := 0.0, now()
		if a := call.Argument(1); !goja.IsUndefined(a) {
			start = ps.markTime(a.String(), in)
		}
		if a := call.Argument(2); !goja.IsUndefined(a) {
			end = ps.markTime(a.String(), in)
		}
		e := perfEntry{name: call.Argument(0).String(), kind: "measure", start: start, duration: end - start}
		ps.entries = append(ps.entries, e)
		return in.perfEntryJS(e)
	})
	_ = o.Set("getEntriesByName", func(call goja.FunctionCall) goja.Value {
		var out []any
		for _, e := range ps.entries {
			if e.name == call.Argument(0).String() {
				out = append(out, in.perfEntryJS(e))
			}
		}
		return in.rt.NewArray(out...)
	})
	_ = o.Set("clearMarks", func(call goja.FunctionCall) goja.Value { ps.clear("mark", call.Argument(0)); return goja.Undefined() })
	_ = o.Set("clearMeasures", func(call goja.FunctionCall) goja.Value {
		ps.clear("measure", call.Argument(0))
		return goja.Undefined()
	})
	return o
}

func (ps *perfState) markTime(name string, in *instance) float64 {
	for i := len(ps.entries) - 1; i >= 0; i-- {
		if e := ps.entries[i]; e.kind == "mark" && e.name == name {
			return e.start
		}
	}
	panic(in.rt.NewTypeError("performance.measure: no mark named " + name))
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

func (in *instance) perfEntryJS(e perfEntry) goja.Value {
	o := in.rt.NewObject()
	_ = o.Set("name", e.name)
	_ = o.Set("entryType", e.kind)
	_ = o.Set("startTime", e.start)
	_ = o.Set("duration", e.duration)
	return o
}
