package jspersist

import (
	"encoding/json"
	"fmt"

	"github.com/troupe-go/troupe/persist"
)

// JSON is a JS actor's event or snapshot as stored: its type name and its
// JSON text. It is what an upcaster of a JS actor's schema reads and
// writes (as a persist.Payload's Type and Data).
type JSON struct {
	Type string
	Data []byte
}

// Codec stores JSON values under their own type names. Any name decodes:
// the JSON text describes itself; the schema's versions and upcasters
// decide which versions are read.
type Codec struct{}

// Marshal implements persist.Codec for JSON values.
func (Codec) Marshal(buf []byte, v any) (string, []byte, error) {
	j, ok := v.(JSON)
	if !ok {
		return "", buf, fmt.Errorf("%w: jspersist stores JSON values, not %T", persist.ErrUnknownType, v)
	}
	return j.Type, append(buf, j.Data...), nil
}

// Unmarshal implements persist.Codec: data must be JSON text.
func (Codec) Unmarshal(name string, data []byte) (any, error) {
	if !json.Valid(data) {
		return nil, fmt.Errorf("jspersist: %q is not JSON", name)
	}
	return JSON{Type: name, Data: data}, nil
}

// NewSchema returns a schema for JS actors' events and snapshots: every
// type at version 1 until SetVersion raises it, upcasters registered on it
// as on any persist.Schema.
func NewSchema() *persist.Schema { return persist.NewSchema(Codec{}) }
