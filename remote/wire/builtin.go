package wire

// registerBuiltins registers the basic types every registry knows, each a
// one-field message (field 1), so they too may evolve. Each has codec
// functions of its own, so that its Encoder and Decoder stay on the stack
// (see RegisterFuncs).
func registerBuiltins(r *Registry) {
	must(RegisterFuncs(r, "string",
		func(buf []byte, v string) []byte { e := Encoder{buf: buf}; e.String(1, v); return e.buf },
		decodeString))
	must(RegisterFuncs(r, "bool",
		func(buf []byte, v bool) []byte { e := Encoder{buf: buf}; e.Bool(1, v); return e.buf },
		func(data []byte) (bool, error) { u, err := decodeUint(data); return u != 0, err }))
	must(RegisterFuncs(r, "int",
		func(buf []byte, v int) []byte { e := Encoder{buf: buf}; e.Int(1, int64(v)); return e.buf },
		func(data []byte) (int, error) { u, err := decodeUint(data); return int(unzigzag(u)), err }))
	must(RegisterFuncs(r, "int64",
		func(buf []byte, v int64) []byte { e := Encoder{buf: buf}; e.Int(1, v); return e.buf },
		func(data []byte) (int64, error) { u, err := decodeUint(data); return unzigzag(u), err }))
	must(RegisterFuncs(r, "uint64",
		func(buf []byte, v uint64) []byte { e := Encoder{buf: buf}; e.Uint(1, v); return e.buf },
		decodeUint))
	must(RegisterFuncs(r, "float64",
		func(buf []byte, v float64) []byte { e := Encoder{buf: buf}; e.Float64(1, v); return e.buf },
		decodeFloat64))
	must(RegisterFuncs(r, bytesName,
		func(buf []byte, v []byte) []byte { e := Encoder{buf: buf}; e.BytesField(1, v); return e.buf },
		decodeBytes))
	must(RegisterFuncs(r, "unit",
		func(buf []byte, _ struct{}) []byte { return buf },
		func(data []byte) (struct{}, error) {
			d := Decoder{data: data}
			for d.Next() {
				d.Skip()
			}
			return struct{}{}, d.err
		}))
	registerJSValues(r)
}

// bytesName is the name []byte messages are registered under.
const bytesName = "bytes"

// decodeString decodes a one-field message whose field 1 is a string.
func decodeString(data []byte) (v string, err error) {
	d := Decoder{data: data}
	for d.Next() {
		if d.field == 1 {
			v = d.String()
		} else {
			d.Skip()
		}
	}
	return v, d.err
}

// decodeFloat64 decodes a one-field message whose field 1 is a float64.
func decodeFloat64(data []byte) (v float64, err error) {
	d := Decoder{data: data}
	for d.Next() {
		if d.field == 1 {
			v = d.Float64()
		} else {
			d.Skip()
		}
	}
	return v, d.err
}

// decodeBytes decodes a one-field message whose field 1 is bytes, copied:
// the frame is not the message's to keep.
func decodeBytes(data []byte) (v []byte, err error) {
	d := Decoder{data: data}
	for d.Next() {
		if d.field == 1 {
			b := d.Bytes()
			v = make([]byte, len(b))
			copy(v, b)
		} else {
			d.Skip()
		}
	}
	return v, d.err
}

// decodeUint decodes a one-field message whose field 1 is a varint.
func decodeUint(data []byte) (v uint64, err error) {
	d := Decoder{data: data}
	for d.Next() {
		if d.field == 1 {
			v = d.Uint()
		} else {
			d.Skip()
		}
	}
	return v, d.err
}

// unzigzag undoes the zigzag encoding of signed integers.
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// must panics on an error registering a builtin: a bug in the list above.
func must(err error) {
	if err != nil {
		panic(err)
	}
}
