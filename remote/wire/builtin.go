package wire

import "reflect"

// registerBuiltins registers the basic types every registry knows, each a
// one-field message (field 1), so they too may evolve.
func registerBuiltins(r *Registry) {
	builtin(r, "string", (*Encoder).String, (*Decoder).String)
	builtin(r, "bool", (*Encoder).Bool, (*Decoder).Bool)
	builtin(r, "int", func(e *Encoder, f int, v int) { e.Int(f, int64(v)) }, func(d *Decoder) int { return int(d.Int()) })
	builtin(r, "int64", (*Encoder).Int, (*Decoder).Int)
	builtin(r, "uint64", (*Encoder).Uint, (*Decoder).Uint)
	builtin(r, "float64", (*Encoder).Float64, (*Decoder).Float64)
	builtin(r, "bytes", (*Encoder).BytesField, func(d *Decoder) []byte { return append([]byte(nil), d.Bytes()...) })
	builtin(r, "unit", func(*Encoder, int, struct{}) {}, func(*Decoder) struct{} { return struct{}{} })
	registerJSValues(r)
}

// builtin registers T as a message whose field 1 holds the value.
func builtin[T any](r *Registry, name string, enc func(*Encoder, int, T), dec func(*Decoder) T) {
	c := &codec{
		name: name,
		marshal: func(buf []byte, v any) ([]byte, error) {
			t := v.(T)
			return withEncoder(buf, func(e *Encoder) { enc(e, 1, t) }), nil
		},
		unmarshal: func(data []byte) (any, error) {
			b := &decodeBox[T]{d: Decoder{data: data}}
			for b.d.Next() {
				if b.d.Field() == 1 {
					b.v = dec(&b.d)
				} else {
					b.d.Skip()
				}
			}
			return b.v, b.d.Err()
		},
	}
	if err := r.add(reflect.TypeFor[T](), c); err != nil {
		panic(err) // a bug in the list above
	}
}
