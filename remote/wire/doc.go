// Package wire is the byte format of troupe's remote actors: a compact,
// evolvable binary encoding of messages, the envelope every message
// travels in, the frames that batch envelopes, and a [Registry] that maps
// message types to names and codecs.
//
// # Message encoding
//
// A message is a sequence of fields, each a key (field number << 3 | wire
// type, as a uvarint) and a value: a varint, a fixed 64-bit word, or a
// length-delimited run of bytes (strings, byte slices, nested messages).
// Field numbers come from an explicit struct tag (`wire:"3"`), never from
// field order, so fields may be added, reordered and removed as a schema
// evolves: a decoder skips the fields it does not know, and a field that
// is absent decodes as its zero value (encoders omit zero values).
//
// Generated codecs implement [Marshaler] on the message type and
// [Unmarshaler] on its pointer, writing with an [Encoder] and reading with
// a [Decoder]. [Register] uses them through those interfaces; generated
// registration functions use [RegisterFuncs] instead, with functions that
// call the methods directly, which keeps the Encoder and Decoder off the
// heap: about a third less time per round trip. A type registered without them falls back to CBOR
// (github.com/fxamacker/cbor/v2): slower and larger, but any Go value
// CBOR can carry travels.
//
// # JS values
//
// Every registry also knows the values a JavaScript actor (package
// jsactor) sends and accepts, so JS actors talk across nodes with no
// registration: objects (map[string]any, registered as "js.object"),
// arrays ([]any, "js.array"), dates (time.Time, "js.date"), refs
// (actor.Ref, "js.ref") and typed arrays ([]int8 "js.int8array", []int16
// "js.int16array", []int32 "js.int32array", []int64 "js.bigint64array",
// []uint16 "js.uint16array", []uint32 "js.uint32array", []uint64
// "js.biguint64array", []float32 "js.float32array", []float64
// "js.float64array"); strings, numbers, booleans and byte slices are
// built-ins already. They travel as CBOR: nested dates as tag 0, refs as
// tag 27 ["actor.Ref", system, kind, id] (a child's ref with its
// parent's path as a fifth element), typed arrays with their RFC
// 8746 tags, so each decodes as the Go type it was. Integers decode as
// int64 (uint64 above MaxInt64), floats as float64, maps as
// map[string]any: the types jsactor converts to JavaScript. A value
// nested in them that is not a JS value (a struct, a channel, a function,
// a cycle) fails with [ErrNotJSValue]. [RegisterJS] registers a struct of
// JS values, such as jsactor.Call, the message of a JS actor's ref.tell
// and ref.ask: register it on every node as "jsactor.Call".
//
// # Errors
//
// A registry also names errors, so that a handler's error crosses nodes
// as itself: [Registry.RegisterError] registers an error value (a
// sentinel), and a registered message type that implements error (a
// typed error) travels as one too. [Registry.ErrorCauses] finds them in
// an error's chain and [Registry.DecodeCauses] turns them back; see
// package remote for what a caller sees.
//
// # Envelope and frames
//
// An [Envelope] carries one message with its routing: kind (tell, ask,
// reply, notice, watch...), the origin node, target and sender refs, a
// correlation id, the message's registered type name, its body, an error,
// and headers. A frame is what one NATS message carries: a version byte,
// then one or more length-prefixed envelopes ([AppendFrame],
// [ReadFrame]). Decoding never panics on bad input: malformed, truncated
// or oversized input returns an error wrapping [ErrMalformed] or
// [ErrTooLarge].
package wire
