package wire

import (
	"fmt"
	"maps"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/fxamacker/cbor/v2"
)

// Marshaler is implemented by message types with a binary codec
// (generated, or written by hand): MarshalWire writes the fields with e.
type Marshaler interface {
	MarshalWire(e *Encoder)
}

// Unmarshaler is implemented by the pointer of a message type with a
// binary codec: UnmarshalWire reads the fields from d, skipping unknown
// ones, and returns d.Err().
type Unmarshaler interface {
	UnmarshalWire(d *Decoder) error
}

// Registry maps message types to names and codecs, so a receiver can turn
// bytes back into the type the sender sent. Sender and receiver must
// register the same types under the same names. Safe for concurrent use;
// register before sending.
type Registry struct {
	mu sync.Mutex // serialises registrations
	// tables is replaced, never changed, by a registration: lookups on
	// every message take no lock, and registering n types copies O(n^2)
	// entries, nothing at the sizes of a program's message set.
	tables atomic.Pointer[tables]
}

// tables are a registry's lookups at one moment.
type tables struct {
	byType    map[reflect.Type]*codec
	byName    map[string]*codec
	sentinels []sentinel // registered error values, in order
}

// codec is one registered type.
type codec struct {
	name      string
	binary    bool
	marshal   func(buf []byte, v any) ([]byte, error)
	unmarshal func(data []byte) (any, error)
}

// NewRegistry returns a registry holding the built-in types: string,
// bool, int, int64, uint64, float64, []byte, struct{} (the reply of an
// ask whose handler returns only an error), and the JS values (see "JS
// values" in the package doc).
func NewRegistry() *Registry {
	r := &Registry{}
	registerBuiltins(r)
	return r
}

// Register registers T under name: with its binary codec if T implements
// [Marshaler] and *T implements [Unmarshaler], with CBOR otherwise. Names
// are part of the wire format: keep them stable (generated code uses
// "package.Type").
func Register[T any](r *Registry, name string) error {
	var zero T
	_, m := any(zero).(Marshaler)
	_, u := any(&zero).(Unmarshaler)
	if m && u {
		return r.add(reflect.TypeFor[T](), &codec{name: name, binary: true, marshal: marshalBinary, unmarshal: unmarshalBinary[T]})
	}
	return RegisterCBOR[T](r, name)
}

// RegisterCBOR registers T under name with the CBOR codec, even if it has
// a binary one. It refuses a type CBOR would not carry whole: one with
// unexported struct fields (CBOR sees exported fields only), channels or
// functions, unless the type encodes itself (cbor.Marshaler,
// encoding.BinaryMarshaler).
func RegisterCBOR[T any](r *Registry, name string) error {
	if why := cborLoss(reflect.TypeFor[T]()); why != "" {
		return fmt.Errorf("%w: register %v as %q: CBOR would lose data: %s; give it a binary codec", ErrUnsupported, reflect.TypeFor[T](), name, why)
	}
	return r.add(reflect.TypeFor[T](), &codec{name: name, marshal: marshalCBOR, unmarshal: unmarshalCBOR[T]})
}

// noTables are the lookups of a registry with nothing registered.
var noTables = &tables{}

// load returns the registry's current lookups.
func (r *Registry) load() *tables {
	if t := r.tables.Load(); t != nil {
		return t
	}
	return noTables
}

// RegisterFuncs registers T under name with a binary codec given as two
// functions: marshal appends v's encoding to buf, unmarshal decodes one.
// Generated code registers its messages this way: functions written for
// one concrete type keep their Encoder and Decoder on the stack, where
// [Register] goes through the [Marshaler] and [Unmarshaler] interfaces.
// Decoded values larger than a word are boxed into interface values from
// shared slabs of about a kilobyte, one allocation for many messages: a
// value its receiver keeps keeps at most a slab alive.
func RegisterFuncs[T any](r *Registry, name string, marshal func(buf []byte, v T) []byte, unmarshal func(data []byte) (T, error)) error {
	if marshal == nil || unmarshal == nil {
		return fmt.Errorf("%w: register %s: nil codec function", ErrUnsupported, name)
	}
	boxes := newBoxes[T]()
	return r.add(reflect.TypeFor[T](), &codec{
		name: name, binary: true,
		marshal: func(buf []byte, v any) ([]byte, error) { return marshal(buf, v.(T)), nil },
		unmarshal: func(data []byte) (any, error) {
			v, err := unmarshal(data)
			if err != nil {
				return nil, err
			}
			return boxes.box(v), nil
		},
	})
}

// add registers c for t.
func (r *Registry) add(t reflect.Type, c *codec) error {
	if c.name == "" {
		return fmt.Errorf("%w: register %v: empty name", ErrUnsupported, t)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	if prev, ok := old.byType[t]; ok {
		return fmt.Errorf("%w: type %v already registered as %q", ErrDuplicate, t, prev.name)
	}
	if _, ok := old.byName[c.name]; ok || old.sentinelNamed(c.name) != nil {
		return fmt.Errorf("%w: name %q already taken", ErrDuplicate, c.name)
	}
	next := &tables{byType: make(map[reflect.Type]*codec, len(old.byType)+1), byName: make(map[string]*codec, len(old.byName)+1), sentinels: old.sentinels}
	maps.Copy(next.byType, old.byType)
	maps.Copy(next.byName, old.byName)
	next.byType[t], next.byName[c.name] = c, c
	r.tables.Store(next)
	return nil
}

// Name returns the name v's type is registered under.
func (r *Registry) Name(v any) (string, bool) {
	c := r.forValue(v)
	if c == nil {
		return "", false
	}
	return c.name, true
}

func (r *Registry) forValue(v any) *codec {
	return r.load().byType[reflect.TypeOf(v)]
}

// Marshal appends the encoding of v to buf and returns v's type name and
// the extended buffer. A nil v encodes as the empty name and no bytes.
func (r *Registry) Marshal(buf []byte, v any) (name string, out []byte, err error) {
	if v == nil {
		return "", buf, nil
	}
	c := r.forValue(v)
	if c == nil {
		return "", buf, fmt.Errorf("%w: %T", ErrUnknownType, v)
	}
	out, err = c.safeMarshal(buf, v)
	if err != nil {
		return "", buf, fmt.Errorf("wire: marshal %s: %w", c.name, err)
	}
	return c.name, out, nil
}

// Unmarshal decodes data as the type registered under name. The empty
// name decodes as nil.
func (r *Registry) Unmarshal(name string, data []byte) (any, error) {
	if name == "" {
		if len(data) != 0 {
			return nil, fmt.Errorf("%w: body without a type name", ErrMalformed)
		}
		return nil, nil
	}
	c, err := r.named(name)
	if err != nil {
		return nil, err
	}
	return c.decode(data)
}

// named returns the codec registered under name.
func (r *Registry) named(name string) (*codec, error) {
	if c := r.load().byName[name]; c != nil {
		return c, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownType, name)
}

// Decoding remembers the last type one goroutine decoded, so that a run
// of messages of one type (a batch from one sender, say) looks its codec
// up once. It also copies small []byte messages into shared slabs of
// slabSize bytes, one allocation for many messages instead of one each:
// a []byte message its receiver keeps keeps at most a slab alive. The
// zero Decoding is ready to use; it is not safe for concurrent use.
type Decoding struct {
	reg   *Registry
	name  string
	codec *codec
	bytes bool   // codec is the builtin []byte one
	slab  []byte // where small []byte messages are copied
	// where the slice headers of those messages are boxed: as an
	// interface value, a []byte is a pointer to a header of its own
	boxes *boxes[[]byte]
}

// slabSize is the size of the slabs small []byte messages share; one
// larger than an eighth of it gets its own allocation.
const slabSize = 4096

// Unmarshal is [Registry.Unmarshal] through d's memory of the last type.
func (d *Decoding) Unmarshal(r *Registry, name string, data []byte) (any, error) {
	if d.codec == nil || name != d.name || r != d.reg {
		if name == "" {
			return r.Unmarshal(name, data)
		}
		c, err := r.named(name)
		if err != nil {
			return nil, err
		}
		d.reg, d.name, d.codec, d.bytes = r, name, c, c.name == bytesName
	}
	if d.bytes {
		if b, ok := d.slabBytes(data); ok {
			if d.boxes == nil {
				d.boxes = newBoxes[[]byte]()
			}
			return d.boxes.box(b), nil
		}
	}
	return d.codec.decode(data)
}

// slabBytes decodes a builtin []byte message whose only field is a small
// field 1, copying it into the slab; ok is false for anything else, which
// the codec decodes (and reports) as usual.
func (d *Decoding) slabBytes(data []byte) (b []byte, ok bool) {
	dec := Decoder{data: data}
	if !dec.Next() || dec.field != 1 || dec.typ != TypeBytes {
		return nil, false
	}
	in := dec.Bytes()
	if dec.err != nil || dec.off != len(data) || len(in) > slabSize/8 {
		return nil, false
	}
	if cap(d.slab)-len(d.slab) < len(in) {
		d.slab = make([]byte, 0, slabSize)
	}
	at := len(d.slab)
	d.slab = append(d.slab, in...)
	return d.slab[at:len(d.slab):len(d.slab)], true
}

// decode decodes data with c, wrapping errors with c's name.
func (c *codec) decode(data []byte) (any, error) {
	v, err := c.safeUnmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("wire: unmarshal %s: %w", c.name, err)
	}
	return v, nil
}

// safeMarshal is c.marshal with a panic, a bug in a hand-written codec,
// turned into an error.
func (c *codec) safeMarshal(buf []byte, v any) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = buf, fmt.Errorf("codec panicked: %v", p)
		}
	}()
	return c.marshal(buf, v)
}

// safeUnmarshal is c.unmarshal with a panic turned into an error: bytes
// from the network must never crash a node, whatever its codecs do.
func (c *codec) safeUnmarshal(data []byte) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("%w: codec panicked: %v", ErrMalformed, p)
		}
	}()
	return c.unmarshal(data)
}

// encoders holds Encoders between marshals: one passed to an interface
// method escapes, and a pool is cheaper than an allocation per message.
var encoders = sync.Pool{New: func() any { return new(Encoder) }}

func marshalBinary(buf []byte, v any) ([]byte, error) {
	e := encoders.Get().(*Encoder)
	e.buf = buf
	v.(Marshaler).MarshalWire(e)
	out := e.buf
	e.buf = nil
	encoders.Put(e)
	return out, nil
}

// decodeBox puts a value and its Decoder in one allocation.
type decodeBox[T any] struct {
	v T
	d Decoder
}

func unmarshalBinary[T any](data []byte) (any, error) {
	b := &decodeBox[T]{d: Decoder{data: data}}
	if err := any(&b.v).(Unmarshaler).UnmarshalWire(&b.d); err != nil {
		return nil, err
	}
	return b.v, nil
}

// cborDec bounds what a CBOR body may make the decoder allocate.
var cborDec, _ = cbor.DecOptions{
	MaxNestedLevels:  32,
	MaxArrayElements: 1 << 16,
	MaxMapPairs:      1 << 16,
}.DecMode()

func marshalCBOR(buf []byte, v any) ([]byte, error) {
	b, err := cbor.Marshal(v)
	if err != nil {
		return buf, err
	}
	return append(buf, b...), nil
}

func unmarshalCBOR[T any](data []byte) (any, error) {
	var v T
	if err := cborDec.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("%w: cbor: %w", ErrMalformed, err)
	}
	return v, nil
}
