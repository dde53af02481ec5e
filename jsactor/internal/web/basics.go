package web

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/url"

	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// TextEncoder/TextDecoder (UTF-8 only, as the Encoding standard's
// TextEncoder is), atob/btoa (forgiving base64 over binary strings),
// crypto.getRandomValues/randomUUID (crypto/rand), and URL/URLSearchParams
// (goja_nodejs's url module, loaded directly, without its require
// registry).

// URL defines URL and URLSearchParams.
func (e *Env) URL() goja.Value {
	module := e.RT.NewObject()
	exports := e.RT.NewObject()
	_ = module.Set("exports", exports)
	url.Require(e.RT, module)
	e.Define("URL", exports.Get("URL"))
	e.Define("URLSearchParams", exports.Get("URLSearchParams"))
	return nil
}

var textShim = shim("text")

// Text defines TextEncoder and TextDecoder, per the Encoding
// standard for UTF-8: encodeInto writes whole sequences only, decode
// replaces each maximal ill-formed subsequence with one U+FFFD (or throws
// a TypeError when fatal) and supports {stream: true}, carrying an
// incomplete sequence over to the next call.
func (e *Env) Text() goja.Value {
	encode := func(call goja.FunctionCall) goja.Value {
		v, err := e.Bytes([]byte(call.Argument(0).String()))
		if err != nil {
			panic(e.RT.NewGoError(err))
		}
		return v
	}
	define := func(call goja.FunctionCall) goja.Value {
		e.Define(call.Argument(0).String(), call.Argument(1))
		return goja.Undefined()
	}
	sandbox.RunShim(e.RT, textShim(), encode, e.textEncodeInto, e.textDecode, define)
	return nil
}

// textEncodeInto(string, dest) implements TextEncoder.encodeInto.
func (e *Env) textEncodeInto(call goja.FunctionCall) goja.Value {
	dest, ok := call.Argument(1).(*goja.Object)
	var buf []byte
	if ok {
		buf, ok = dest.Export().([]byte)
	}
	if !ok {
		panic(e.RT.NewTypeError("TextEncoder.encodeInto: destination is not a Uint8Array"))
	}
	read, written, b := encodeInto(call.Argument(0).String(), len(buf))
	copy(buf, b) // buf is the array's own memory
	o := e.RT.NewObject()
	_ = o.Set("read", read)
	_ = o.Set("written", written)
	return o
}

// textDecode(input, pending, fatal, keepBOM, stream) implements
// TextDecoder.decode; it returns [string, pending bytes or null, whether
// the BOM check is done].
func (e *Env) textDecode(call goja.FunctionCall) goja.Value {
	var b []byte
	if arg := call.Argument(0); !goja.IsUndefined(arg) {
		var ok bool
		if b, ok = bufferBytes(arg); !ok {
			panic(e.RT.NewTypeError("TextDecoder.decode: not an ArrayBuffer or view"))
		}
	}
	if p, ok := bufferBytes(call.Argument(1)); ok && len(p) > 0 {
		b = append(append([]byte(nil), p...), b...)
	}
	if !call.Argument(3).ToBoolean() {
		b = trimBOM(b)
	}
	stream := call.Argument(4).ToBoolean()
	s, pending, ok := decodeUTF8(b, call.Argument(2).ToBoolean(), stream)
	if !ok {
		panic(e.RT.NewTypeError("TextDecoder.decode: invalid UTF-8"))
	}
	var p goja.Value = goja.Null()
	if pending != nil {
		p = e.RT.ToValue(e.RT.NewArrayBuffer(pending))
	}
	return e.RT.NewArray(s, p, len(s) > 0 || len(b) >= 3) // past where a BOM could be
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// bufferBytes returns the bytes of an ArrayBuffer or typed array, without
// copying (the caller only reads them).
func bufferBytes(v goja.Value) ([]byte, bool) {
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	switch x := o.Export().(type) {
	case goja.ArrayBuffer:
		return x.Bytes(), true
	case []byte:
		return x, true
	}
	var b []byte
	if rt := o.Get("buffer"); rt != nil { // other views: read their bytes
		if ab, ok := rt.Export().(goja.ArrayBuffer); ok {
			off, n := o.Get("byteOffset").ToInteger(), o.Get("byteLength").ToInteger()
			all := ab.Bytes()
			if off >= 0 && n >= 0 && off+n <= int64(len(all)) {
				b = all[off : off+n]
				return b, true
			}
		}
	}
	return nil, false
}

// Btoa is btoa: it encodes a binary string (every code unit ≤ 0xFF) as base64.
func (e *Env) Btoa(call goja.FunctionCall) goja.Value {
	s := call.Argument(0).String()
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			panic(e.domException("btoa: the string contains characters outside of the Latin1 range", "InvalidCharacterError"))
		}
		b = append(b, byte(r))
	}
	return e.RT.ToValue(base64.StdEncoding.EncodeToString(b))
}

// Atob is atob: it decodes base64 (forgiving: ASCII whitespace ignored, padding
// optional) into a binary string.
func (e *Env) Atob(call goja.FunctionCall) goja.Value {
	s := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\f', '\r':
			return -1
		}
		return r
	}, call.Argument(0).String())
	if len(s)%4 == 0 && strings.HasSuffix(s, "=") {
		s = strings.TrimRight(s, "=")
		if len(s)%4 == 1 || strings.Count(call.Argument(0).String(), "=") > 2 {
			panic(e.domException("atob: invalid base64", "InvalidCharacterError"))
		}
	}
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		panic(e.domException("atob: invalid base64", "InvalidCharacterError"))
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return e.RT.ToValue(string(r))
}

// domException makes a DOMException (building the events globals if
// needed).
func (e *Env) domException(msg, name string) goja.Value {
	ctor := e.RT.GlobalObject().Get("DOMException").ToObject(e.RT)
	o, err := e.RT.New(ctor, e.RT.ToValue(msg), e.RT.ToValue(name))
	if err != nil {
		return e.RT.NewTypeError(msg)
	}
	return o
}

// maxRandomBytes is getRandomValues' quota, as in the Web Crypto spec.
const maxRandomBytes = 65536

// Crypto makes the crypto global.
func (e *Env) Crypto() goja.Value {
	o := e.RT.NewObject()
	_ = o.Set("getRandomValues", func(call goja.FunctionCall) goja.Value {
		arg := call.Argument(0)
		b, ok := bufferBytes(arg)
		if obj, isObj := arg.(*goja.Object); !ok || !isObj || !isIntegerArray(obj) {
			panic(e.domException("getRandomValues: not an integer typed array", "TypeMismatchError"))
		}
		if len(b) > maxRandomBytes {
			panic(e.domException(fmt.Sprintf("getRandomValues: %d bytes exceeds %d", len(b), maxRandomBytes), "QuotaExceededError"))
		}
		_, _ = rand.Read(b)
		return arg
	})
	_ = o.Set("randomUUID", func(goja.FunctionCall) goja.Value {
		return e.RT.ToValue(uuid4())
	})
	return o
}

func isIntegerArray(o *goja.Object) bool {
	switch o.Export().(type) {
	case []byte, []int8, []uint16, []int16, []uint32, []int32, []int64, []uint64:
		return true
	}
	return false
}

func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
