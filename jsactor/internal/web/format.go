package web

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// Format is Node's util.format, as console.log and require("util").format
// use it: a first argument that is a string is a format (%s, %d, %i, %f,
// %j, %o, %O, %c, %%), and the arguments it does not consume follow,
// separated by spaces, strings as they are and anything else as Node's
// util.inspect shows it (depth 2, arrays past 100 items cut short, cycles
// marked). Differences from Node: the output is one line whatever its
// width, getters are called rather than shown as [Getter], and Map and
// Set entries are shown as goja exports them.
func Format(rt *goja.Runtime, args []goja.Value) string {
	var b strings.Builder
	rest := args
	if len(args) > 0 {
		if s, ok := args[0].(goja.String); ok {
			rest = formatSpec(rt, &b, s.String(), args[1:])
		}
	}
	for i, a := range rest {
		if i > 0 || b.Len() > 0 || len(rest) < len(args) {
			b.WriteByte(' ')
		}
		if s, ok := a.(goja.String); ok {
			b.WriteString(s.String())
		} else {
			b.WriteString(Inspect(rt, a, inspectDepth))
		}
	}
	return b.String()
}

// inspectDepth is util.inspect's default depth.
const inspectDepth = 2

// formatSpec writes format with its specifiers replaced by args, and
// returns the arguments left over.
func formatSpec(rt *goja.Runtime, b *strings.Builder, format string, args []goja.Value) []goja.Value {
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		verb := format[i+1]
		if verb == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		if !strings.ContainsRune("sdifjoOc", rune(verb)) || len(args) == 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteString(formatArg(rt, verb, args[0]))
		args = args[1:]
		i++
	}
	return args
}

func formatArg(rt *goja.Runtime, verb byte, v goja.Value) string {
	switch verb {
	case 's':
		if o, ok := v.(*goja.Object); ok && o.ClassName() != "Error" {
			return Inspect(rt, v, 0)
		}
		return primitive(v, false)
	case 'd':
		if isBigInt(v) || isSymbol(v) {
			return primitive(v, false)
		}
		return number(v)
	case 'i':
		return parsePrefix(rt, v, intPrefix, true)
	case 'f':
		return parsePrefix(rt, v, floatPrefix, false)
	case 'j':
		return stringifyJSON(rt, v)
	case 'o':
		return Inspect(rt, v, 4)
	case 'O':
		return Inspect(rt, v, inspectDepth)
	}
	return "" // %c: CSS, which a log ignores
}

var (
	intPrefix   = regexp.MustCompile(`^[+-]?(0[xX][0-9a-fA-F]+|\d+)`)
	floatPrefix = regexp.MustCompile(`^[+-]?(Infinity|\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)`)
)

// parsePrefix is parseInt (integer) or parseFloat of String(v).
func parsePrefix(rt *goja.Runtime, v goja.Value, re *regexp.Regexp, integer bool) string {
	if isBigInt(v) {
		return primitive(v, false)
	}
	if isSymbol(v) {
		return "NaN"
	}
	m := re.FindString(strings.TrimSpace(v.String()))
	if m == "" {
		return "NaN"
	}
	if integer {
		n, ok := new(big.Int).SetString(strings.TrimPrefix(m, "+"), 0)
		if !ok {
			return "NaN"
		}
		f, _ := new(big.Float).SetInt(n).Float64()
		return number(rt.ToValue(f))
	}
	f, err := strconv.ParseFloat(strings.TrimPrefix(strings.Replace(m, "Infinity", "Inf", 1), "+"), 64)
	if err != nil && !math.IsInf(f, 0) {
		return "NaN"
	}
	return number(rt.ToValue(f))
}

// stringifyJSON is %j: the script's JSON.stringify, '[Circular]' for a
// cycle, as Node prints it.
func stringifyJSON(rt *goja.Runtime, v goja.Value) (out string) {
	json, _ := rt.GlobalObject().Get("JSON").(*goja.Object)
	if json == nil {
		return primitive(v, false)
	}
	stringify, ok := goja.AssertFunction(json.Get("stringify"))
	if !ok {
		return primitive(v, false)
	}
	r, err := stringify(json, v)
	if err != nil {
		if strings.Contains(err.Error(), "circular") || strings.Contains(err.Error(), "Circular") {
			return "[Circular]"
		}
		panic(err)
	}
	if goja.IsUndefined(r) {
		return "undefined"
	}
	return r.String()
}

func isBigInt(v goja.Value) bool {
	if v == nil || isObject(v) {
		return false
	}
	_, ok := v.Export().(*big.Int)
	return ok
}

func isSymbol(v goja.Value) bool { _, ok := v.(*goja.Symbol); return ok }

func isObject(v goja.Value) bool { _, ok := v.(*goja.Object); return ok }

// number formats Number(v) as JavaScript does, -0 as Node shows it.
func number(v goja.Value) string {
	n := v.ToNumber()
	if f := n.ToFloat(); f == 0 && math.Signbit(f) {
		return "-0"
	}
	return n.String()
}

// primitive formats a value that is not an object: strings quoted when
// nested in an inspected value.
func primitive(v goja.Value, quoted bool) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if s, ok := v.(goja.String); ok {
		if quoted {
			return quote(s.String())
		}
		return s.String()
	}
	if isSymbol(v) {
		return "Symbol(" + v.String() + ")"
	}
	if isBigInt(v) {
		return v.String() + "n"
	}
	if f, ok := v.Export().(float64); ok && f == 0 && math.Signbit(f) {
		return "-0"
	}
	return v.String()
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`, "\t", `\t`)
	return "'" + r.Replace(s) + "'"
}

// Inspect shows v as Node's util.inspect does with the given depth (see
// Format for the differences).
func Inspect(rt *goja.Runtime, v goja.Value, depth int) string {
	in := inspector{rt: rt}
	in.value(v, depth)
	return in.b.String()
}

// inspector walks one value; seen are the objects being shown, outermost
// first, for cycles.
type inspector struct {
	rt   *goja.Runtime
	b    strings.Builder
	seen []*goja.Object
}

// maxArrayItems is how many items util.inspect shows of an array.
const maxArrayItems = 100

func (in *inspector) value(v goja.Value, depth int) {
	o, ok := v.(*goja.Object)
	if !ok {
		in.b.WriteString(primitive(v, len(in.seen) > 0))
		return
	}
	for _, s := range in.seen {
		if s == o {
			in.b.WriteString("[Circular *1]")
			return
		}
	}
	if _, isFn := goja.AssertFunction(o); isFn {
		in.function(o)
		return
	}
	switch o.ClassName() {
	case "Error":
		if st := o.Get("stack"); st != nil && !goja.IsUndefined(st) {
			in.b.WriteString(st.String())
		} else {
			in.b.WriteString(o.String())
		}
		return
	case "Date":
		if t, ok := o.Export().(time.Time); ok {
			in.b.WriteString(t.UTC().Format("2006-01-02T15:04:05.000Z"))
			return
		}
	case "RegExp":
		in.b.WriteString(o.String())
		return
	}
	in.seen = append(in.seen, o)
	defer func() { in.seen = in.seen[:len(in.seen)-1] }()
	if o.ClassName() == "Array" {
		in.array(o, depth)
		return
	}
	in.object(o, depth)
}

func (in *inspector) function(o *goja.Object) {
	name := ""
	if n := o.Get("name"); n != nil {
		name = n.String()
	}
	if name == "" {
		in.b.WriteString("[Function (anonymous)]")
		return
	}
	in.b.WriteString("[Function: " + name + "]")
}

func (in *inspector) array(o *goja.Object, depth int) {
	n := int64(o.Get("length").ToInteger())
	if n == 0 {
		in.b.WriteString("[]")
		return
	}
	if depth < 0 {
		in.b.WriteString("[Array]")
		return
	}
	in.b.WriteString("[ ")
	shown := min(n, maxArrayItems)
	for i := int64(0); i < shown; i++ {
		if i > 0 {
			in.b.WriteString(", ")
		}
		in.value(o.Get(strconv.FormatInt(i, 10)), depth-1)
	}
	if more := n - shown; more == 1 {
		in.b.WriteString(", ... 1 more item")
	} else if more > 1 {
		in.b.WriteString(", ... " + strconv.FormatInt(more, 10) + " more items")
	}
	in.b.WriteString(" ]")
}

func (in *inspector) object(o *goja.Object, depth int) {
	prefix := in.prefix(o)
	keys := o.Keys()
	if len(keys) == 0 {
		in.b.WriteString(prefix + "{}")
		return
	}
	if depth < 0 {
		if prefix == "" {
			prefix = "Object "
		}
		in.b.WriteString("[" + strings.TrimSpace(prefix) + "]")
		return
	}
	in.b.WriteString(prefix + "{ ")
	for i, k := range keys {
		if i > 0 {
			in.b.WriteString(", ")
		}
		in.b.WriteString(key(k) + ": ")
		in.value(o.Get(k), depth-1)
	}
	in.b.WriteString(" }")
}

// prefix names an object's class as util.inspect does: nothing for a
// plain object, the constructor's name for an instance, and
// "[Object: null prototype]" for an object without a prototype.
func (in *inspector) prefix(o *goja.Object) string {
	proto := o.Prototype()
	if proto == nil {
		return "[Object: null prototype] "
	}
	name := ""
	if c, ok := proto.Get("constructor").(*goja.Object); ok {
		if n := c.Get("name"); n != nil {
			name = n.String()
		}
	}
	if name == "" || name == "Object" {
		return ""
	}
	return name + " "
}

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func key(k string) string {
	if identifier.MatchString(k) {
		return k
	}
	return quote(k)
}
