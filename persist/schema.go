package persist

import (
	"errors"
	"fmt"

	"github.com/troupe-go/troupe/remote/wire"
)

// Codec turns values into bytes and back by registered type name. A
// *wire.Registry is one: types with generated binary codecs (troupegen)
// use them, other registered types travel as CBOR. JSONCodec is another.
type Codec interface {
	// Marshal appends v's encoding to buf and returns v's type name.
	Marshal(buf []byte, v any) (name string, out []byte, err error)
	// Unmarshal decodes data as the type registered under name.
	Unmarshal(name string, data []byte) (any, error)
}

// Upcaster turns a stored payload of an old version into a newer one (a
// newer version of the same type, or another type): it runs on replay,
// before decoding, so an old type need not exist as a Go type any more.
type Upcaster func(old Payload) (Payload, error)

// maxUpcasts bounds a chain of upcasters, which would loop forever if two
// of them turned a version into each other.
const maxUpcasts = 64

// Schema is the set of event and state types an actor stores: a Codec,
// the current version of each type (1 unless set) and the upcasters that
// bring old versions up to date. Configure it before the actors using it
// start; from then on it is safe from any goroutine.
type Schema struct {
	codec     Codec
	versions  map[string]uint32
	upcasters map[typeVersion]Upcaster
}

type typeVersion struct {
	name    string
	version uint32
}

// NewSchema returns a schema encoding with codec; every type is at
// version 1 until SetVersion says otherwise.
func NewSchema(codec Codec) *Schema {
	return &Schema{codec: codec, versions: map[string]uint32{}, upcasters: map[typeVersion]Upcaster{}}
}

// SetVersion sets the version new records of the type named name are
// written with; records of older versions need an upcaster to be read.
func (s *Schema) SetVersion(name string, version uint32) error {
	if version < 1 {
		return fmt.Errorf("persist: version of %q must be at least 1", name)
	}
	s.versions[name] = version
	return nil
}

// Upcast registers fn to turn records of type name at version from into
// something newer. It fails for a pair that already has one.
func (s *Schema) Upcast(name string, from uint32, fn Upcaster) error {
	k := typeVersion{name, from}
	if _, dup := s.upcasters[k]; dup {
		return fmt.Errorf("persist: an upcaster from %q v%d is already registered", name, from)
	}
	if fn == nil {
		return errors.New("persist: nil upcaster")
	}
	s.upcasters[k] = fn
	return nil
}

// version is the current version of the type named name.
func (s *Schema) version(name string) uint32 {
	if v := s.versions[name]; v != 0 {
		return v
	}
	return 1
}

// Encode encodes v as a payload at its type's current version.
func (s *Schema) Encode(v any) (Payload, error) {
	name, data, err := s.codec.Marshal(nil, v)
	if err != nil {
		return Payload{}, fmt.Errorf("persist: encode %T: %w", v, err)
	}
	return Payload{Type: name, Version: s.version(name), Data: data}, nil
}

// Decode upcasts p to its type's current version and decodes it. An
// unknown type or version fails with an error wrapping ErrUnknownType,
// bytes that do not decode with one wrapping ErrCorrupt.
func (s *Schema) Decode(p Payload) (any, error) {
	p, err := s.upcast(p)
	if err != nil {
		return nil, err
	}
	v, err := s.codec.Unmarshal(p.Type, p.Data)
	switch {
	case err == nil:
		return v, nil
	case errors.Is(err, wire.ErrUnknownType), errors.Is(err, ErrUnknownType):
		return nil, fmt.Errorf("%w: %q: %w", ErrUnknownType, p.Type, err)
	default:
		return nil, fmt.Errorf("%w: %q v%d: %w", ErrCorrupt, p.Type, p.Version, err)
	}
}

// upcast applies upcasters until p is at its type's current version.
func (s *Schema) upcast(p Payload) (Payload, error) {
	for range maxUpcasts {
		current := s.version(p.Type)
		if p.Version == current {
			return p, nil
		}
		fn := s.upcasters[typeVersion{p.Type, p.Version}]
		if fn == nil {
			return p, fmt.Errorf("%w: %q v%d (this program writes v%d and has no upcaster from v%d)",
				ErrUnknownType, p.Type, p.Version, current, p.Version)
		}
		next, err := fn(p)
		if err != nil {
			return p, fmt.Errorf("persist: upcasting %q v%d: %w", p.Type, p.Version, err)
		}
		p = next
	}
	return p, fmt.Errorf("persist: upcasting %q v%d: more than %d steps (a cycle?)", p.Type, p.Version, maxUpcasts)
}
