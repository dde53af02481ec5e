package convert

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/dop251/goja"
)

// JavaScript to Go. Values are copied into plain Go values:
//
//	undefined, null                nil
//	boolean, string                bool, string
//	number                         int64 when a safe integer (within
//	                               ±(2^53-1); -0 stays float64), otherwise
//	                               float64
//	BigInt                         *big.Int (any size, within the budget)
//	Date                           time.Time (an invalid Date: the zero Time)
//	Array                          []any
//	Uint8Array, Uint8ClampedArray  []byte (copied)
//	Int8Array, Int16Array,         []int8, []int16, []uint16, []int32,
//	Uint16Array, Int32Array,       []uint32, []float32 (copied)
//	Uint32Array, Float32Array
//	Float64Array, BigInt64Array,   Float64Array, BigInt64Array,
//	BigUint64Array, ArrayBuffer    BigUint64Array, ArrayBuffer (named
//	                               slice types of this package, so that
//	                               they come back as typed arrays while a
//	                               Go []float64 or []int64 becomes an Array)
//	ref object                     actor.Ref
//	plain object                   map[string]any of its own enumerable
//	                               string-keyed properties
//
// Functions, symbols, promises, Maps, Sets, RegExps, Errors, class
// instances other than those above, forged refs and cyclic structures
// cannot cross (ErrCannotCross). An object reached twice (a shared,
// acyclic substructure) is converted once, and the Go value is shared the
// same way, but it counts against the budget at every path to it.
// Getters run during the copy; an exception in one fails the
// conversion. Each conversion has a budget (WithConversionLimits).

// maxArrayLen bounds the arrays that cross, whatever the budget.
const maxArrayLen = 1 << 24

// fromJS is one conversion from JavaScript to Go.
type fromJS struct {
	cv     *Converter
	active map[*goja.Object]struct{} // objects being converted: a cycle
	done   map[*goja.Object]shared   // objects converted: shared
	depth  int
	budget
}

// shared is an object converted once and met again: its Go value, and
// what converting it cost. Meeting it again costs that much again, since
// whatever walks the Go value later (an encoder, Decode) walks every
// path to it: a small JS DAG must not become an exponential Go tree.
type shared struct {
	v    any
	cost budget
}

func (cv *Converter) newFromJS() *fromJS {
	f := &fromJS{cv: cv, budget: cv.newBudget()}
	f.nodes-- // the value at the top
	return f
}

// ToGo converts v, catching exceptions thrown by getters and stopping
// the turn on an interrupt. A primitive runs no script code and shares
// nothing: it converts without the guard's goja Try and the memo maps.
func (cv *Converter) ToGo(v goja.Value) (out any, err error) {
	if _, isObj := v.(*goja.Object); !isObj {
		f := fromJS{cv: cv, budget: cv.newBudget()}
		f.nodes--
		return f.value(v)
	}
	if gerr := cv.guard(func() { out, err = cv.newFromJS().value(v) }); gerr != nil {
		return nil, fmt.Errorf("%w: %w", ErrCannotCross, gerr)
	}
	return out, err
}

// ToGoArg converts v inside a native function: an exception in a getter
// propagates as a JavaScript exception; an error that is not one becomes
// a TypeError naming what.
func (cv *Converter) ToGoArg(v goja.Value, what string) any {
	out, err := cv.newFromJS().value(v)
	if err != nil {
		panic(cv.rt.NewTypeError(what + err.Error()))
	}
	return out
}

// ArgsGo converts the arguments of call from index from on.
func (cv *Converter) ArgsGo(call goja.FunctionCall, from int) []any {
	args := make([]any, 0, max(len(call.Arguments)-from, 0))
	for i := from; i < len(call.Arguments); i++ {
		args = append(args, cv.ToGoArg(call.Arguments[i], "argument "+strconv.Itoa(i)+": "))
	}
	return args
}

// value converts v. The caller has paid for v in the budget: one node
// for the value at the top, for each property of an object, for each
// element (or hole) of an array.
func (f *fromJS) value(v goja.Value) (any, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, nil
	}
	o, isObj := v.(*goja.Object)
	if !isObj {
		return f.primitive(v)
	}
	if g, ok := f.done[o]; ok {
		return g.v, f.spend(g.cost.nodes, g.cost.bytes)
	}
	if _, ok := f.active[o]; ok {
		return nil, fmt.Errorf("%w: cyclic object", ErrCannotCross)
	}
	if f.depth >= maxDepth {
		return nil, errTooDeep
	}
	if f.active == nil {
		f.active, f.done = map[*goja.Object]struct{}{}, map[*goja.Object]shared{}
	}
	f.active[o] = struct{}{}
	f.depth++
	before := f.budget
	g, err := f.object(o)
	f.depth--
	delete(f.active, o)
	if err == nil {
		// One node for o itself, which its referrer paid for.
		f.done[o] = shared{v: g, cost: budget{nodes: before.nodes - f.nodes + 1, bytes: before.bytes - f.bytes}}
	}
	return g, err
}

func (f *fromJS) object(o *goja.Object) (any, error) {
	switch o.ClassName() {
	case "Array":
		return f.array(o)
	case "Date":
		t, _ := o.Export().(time.Time)
		if ms := o.ToNumber().ToFloat(); math.IsNaN(ms) {
			return time.Time{}, nil
		}
		return t, nil
	case "Object":
		return f.plain(o)
	}
	return nil, fmt.Errorf("%w: %s", ErrCannotCross, o.ClassName())
}

func (f *fromJS) primitive(v goja.Value) (any, error) {
	if _, ok := v.(*goja.Symbol); ok {
		return nil, fmt.Errorf("%w: symbol", ErrCannotCross)
	}
	e := v.Export()
	switch x := e.(type) {
	case bool:
		return e, nil // as exported: boxing x again would allocate
	case string:
		return e, f.spend(0, len(x))
	case int64:
		if x > maxSafeInt || x < -maxSafeInt {
			return float64(x), nil
		}
		return e, nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= maxSafeInt && !(x == 0 && math.Signbit(x)) {
			return int64(x), nil
		}
		return x, nil
	case *big.Int:
		return new(big.Int).Set(x), f.spend(0, len(x.Bits())*8)
	}
	return nil, fmt.Errorf("%w: %s", ErrCannotCross, typeName(v))
}

func typeName(v goja.Value) string {
	if t := v.ExportType(); t != nil {
		return t.String()
	}
	return "value"
}

func (f *fromJS) array(o *goja.Object) (any, error) {
	n := o.Get("length").ToInteger()
	if n > maxArrayLen {
		return nil, fmt.Errorf("%w: array of %d elements", ErrCannotCross, n)
	}
	// Holes count too: a sparse array costs what its length says, before
	// anything is allocated for it.
	if err := f.spend(int(n), 0); err != nil {
		return nil, err
	}
	out := make([]any, n)
	for i := range out {
		ev, err := f.value(o.Get(strconv.Itoa(i)))
		if err != nil {
			return nil, atPath(f.depth, fmt.Sprintf("[%d]", i), err)
		}
		out[i] = ev
	}
	return out, nil
}

// plain converts an object of class "Object": a ref, a typed array or
// ArrayBuffer, or a plain object.
func (f *fromJS) plain(o *goja.Object) (any, error) {
	if r, ok := f.cv.host.RefOf(o); ok {
		return r, nil
	}
	if p := o.Prototype(); p != nil && f.cv.host.IsRefProto(p) {
		return nil, fmt.Errorf("%w: an object on the ref prototype that the host did not make (a forged ref)", ErrCannotCross)
	}
	if b, size, ok := typedGo(o); ok {
		return b, f.spend(0, size)
	}
	if proto := o.Prototype(); proto != nil && !isPlainProto(proto) {
		return nil, fmt.Errorf("%w: instance of a class (%s)", ErrCannotCross, ctorName(proto))
	}
	if fn, ok := goja.AssertFunction(o); ok && fn != nil {
		return nil, fmt.Errorf("%w: function", ErrCannotCross)
	}
	keys := o.Keys()
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		if err := f.spend(PropertyNodes, len(k)); err != nil {
			return nil, err
		}
		ev, err := f.value(o.Get(k))
		if err != nil {
			return nil, atPath(f.depth, strconv.Quote(k), err)
		}
		out[k] = ev
	}
	return out, nil
}

// isPlainProto reports whether proto is Object.prototype (or the object
// has a null prototype, handled by the caller).
func isPlainProto(proto *goja.Object) bool {
	return proto.Prototype() == nil
}

func ctorName(proto *goja.Object) string {
	if c, ok := proto.Get("constructor").(*goja.Object); ok {
		if n := c.Get("name"); n != nil && n.String() != "" {
			return n.String()
		}
	}
	return "unknown"
}
