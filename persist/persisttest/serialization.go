package persisttest

import (
	"fmt"
	"reflect"

	"github.com/troupe-go/troupe/persist"
)

// checkRoundTrip fails the test unless v, encoded with the Schema and
// decoded, equals v (what: "event" or "state").
func (k *Kit[S, C, E]) checkRoundTrip(what string, v any) {
	k.t.Helper()
	if err := RoundTrip(k.def.Schema, v); err != nil {
		k.t.Errorf("persisttest: %v: the %s does not survive its Schema: %v", k.ref, what, err)
	}
}

// RoundTrip encodes v with schema, decodes it, and returns an error unless
// the result equals v (reflect.DeepEqual): the serialization check the
// kit makes of every event and state, for values a test builds itself.
func RoundTrip(schema *persist.Schema, v any) error {
	p, err := schema.Encode(v)
	if err != nil {
		return err
	}
	back, err := schema.Decode(p)
	if err != nil {
		return fmt.Errorf("%T encodes (type %q v%d) but does not decode: %w", v, p.Type, p.Version, err)
	}
	if !reflect.DeepEqual(back, v) {
		return fmt.Errorf("%T changes through the codec (type %q v%d):\n  before: %#v\n  after:  %#v", v, p.Type, p.Version, v, back)
	}
	return nil
}

// decode decodes p as a T.
func decode[T any](schema *persist.Schema, p persist.Payload) (T, error) {
	var zero T
	v, err := schema.Decode(p)
	if err != nil {
		return zero, err
	}
	t, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("%q decodes as %T, not %T", p.Type, v, zero)
	}
	return t, nil
}
