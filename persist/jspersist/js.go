package jspersist

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor"
)

// jsFuncs are the JavaScript functions the journal calls: JSON's, taken
// before the script runs (so a script that replaces JSON does not change
// what is stored), and the script's onEvent and initialState.
type jsFuncs struct {
	rt        *goja.Runtime
	json      goja.Value
	stringify goja.Callable
	parse     goja.Callable
	exports   *goja.Object
	onEvent   goja.Callable
	initialFn goja.Callable
}

func (f *jsFuncs) captureJSON(h *jsactor.Host) error {
	rt := h.Runtime()
	f.rt = rt
	obj, ok := rt.GlobalObject().Get("JSON").(*goja.Object)
	if !ok {
		return errors.New("jspersist: the runtime has no JSON")
	}
	f.json = obj
	f.stringify, _ = goja.AssertFunction(obj.Get("stringify"))
	f.parse, _ = goja.AssertFunction(obj.Get("parse"))
	if f.stringify == nil || f.parse == nil {
		return errors.New("jspersist: the runtime's JSON has no stringify or parse")
	}
	return nil
}

// readExports finds onEvent (required) and initialState.
func (f *jsFuncs) readExports(h *jsactor.Host) error {
	f.exports = h.Exports()
	if f.exports == nil {
		return errNoOnEvent
	}
	var ok bool
	if f.onEvent, ok = goja.AssertFunction(f.exports.Get("onEvent")); !ok {
		return errNoOnEvent
	}
	f.initialFn, _ = goja.AssertFunction(f.exports.Get("initialState"))
	return nil
}

// toJSON returns JSON.stringify(v); ok is false for a value it does not
// take (undefined, a function, a symbol). In a turn.
func (f *jsFuncs) toJSON(v goja.Value) (text string, ok bool, err error) {
	out, err := f.stringify(f.json, v)
	if err != nil {
		return "", false, err
	}
	if out == nil || goja.IsUndefined(out) {
		return "", false, nil
	}
	return out.String(), true, nil
}

// fromJSON returns JSON.parse(text). In a turn.
func (f *jsFuncs) fromJSON(text []byte) (goja.Value, error) {
	return f.parse(f.json, f.rt.ToValue(string(text)))
}

// initial returns initialState(), or null. In a turn.
func (f *jsFuncs) initial() (goja.Value, error) {
	if f.initialFn == nil {
		return goja.Null(), nil
	}
	return f.initialFn(f.exports)
}

// record is a stored event's JSON with where it is, for errors.
type record struct {
	seq     uint64
	typ     string
	version uint32
	data    []byte
}

// parseError says a stored record is JSON Go accepts but JSON.parse
// refuses (nested deeper than the runtime's bound, a number beyond a
// float64): the record, not the script, is at fault.
type parseError struct {
	rec record
	err error
}

func (e *parseError) Error() string { return fmt.Sprintf("JSON.parse refuses it: %v", e.err) }

// fold returns the state after the events, through onEvent: a
// *parseError if an event does not parse, the script's error if onEvent
// throws. In a turn.
func (f *jsFuncs) fold(state goja.Value, events []record) (goja.Value, error) {
	for _, rec := range events {
		ev, err := f.fromJSON(rec.data)
		if err != nil {
			return state, &parseError{rec: rec, err: err}
		}
		if state, err = f.onEvent(f.exports, state, ev); err != nil {
			return state, err
		}
	}
	return state, nil
}

// typeOf is the type name of an event: its type property when that is a
// string, otherwise "event".
func typeOf(v goja.Value) string {
	if o, ok := v.(*goja.Object); ok {
		if t := o.Get("type"); t != nil {
			if s, ok := t.Export().(string); ok && s != "" {
				return s
			}
		}
	}
	return "event"
}
