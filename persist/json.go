package persist

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
)

// JSONCodec encodes registered types as JSON: readable in the store, for
// types without a generated binary codec. Register types with RegisterJSON.
// Safe for concurrent use.
type JSONCodec struct {
	mu     sync.RWMutex
	byType map[reflect.Type]string
	byName map[string]reflect.Type
}

// NewJSONCodec returns a JSONCodec with no types.
func NewJSONCodec() *JSONCodec {
	return &JSONCodec{byType: map[reflect.Type]string{}, byName: map[string]reflect.Type{}}
}

// RegisterJSON registers T under name in c; values decode as T.
func RegisterJSON[T any](c *JSONCodec, name string) error {
	t := reflect.TypeFor[T]()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.byName[name]; dup {
		return fmt.Errorf("persist: JSON type name %q registered twice", name)
	}
	if _, dup := c.byType[t]; dup {
		return fmt.Errorf("persist: JSON type %v registered twice", t)
	}
	c.byType[t], c.byName[name] = name, t
	return nil
}

// Marshal appends v's JSON to buf.
func (c *JSONCodec) Marshal(buf []byte, v any) (string, []byte, error) {
	c.mu.RLock()
	name, ok := c.byType[reflect.TypeOf(v)]
	c.mu.RUnlock()
	if !ok {
		return "", buf, fmt.Errorf("%w: %T is not registered", ErrUnknownType, v)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return "", buf, err
	}
	return name, append(buf, data...), nil
}

// Unmarshal decodes data as the type registered under name.
func (c *JSONCodec) Unmarshal(name string, data []byte) (any, error) {
	c.mu.RLock()
	t, ok := c.byName[name]
	c.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w: %q is not registered", ErrUnknownType, name)
	}
	p := reflect.New(t)
	if err := json.Unmarshal(data, p.Interface()); err != nil {
		return nil, err
	}
	return p.Elem().Interface(), nil
}
