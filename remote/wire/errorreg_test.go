package wire_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/troupe-go/troupe/remote/wire"
)

var errInsufficient = errors.New("bank: insufficient funds")

// limitError is a typed error with exported fields: it travels as CBOR.
type limitError struct {
	Limit, Asked int64
}

func (e *limitError) Error() string { return fmt.Sprintf("limit %d, asked %d", e.Limit, e.Asked) }

// codeError is a typed error with a binary codec given as functions.
type codeError struct{ Code int }

func (e codeError) Error() string { return fmt.Sprintf("code %d", e.Code) }

// sliceError is not comparable: errors.Is never matches a value of it.
type sliceError []string

func (e sliceError) Error() string { return fmt.Sprint([]string(e)) }

func errorRegistry(t *testing.T) *wire.Registry {
	t.Helper()
	r := wire.NewRegistry()
	for _, err := range []error{
		r.RegisterError("bank.ErrInsufficient", errInsufficient),
		r.RegisterError("io.EOF", io.EOF),
		wire.RegisterCBOR[*limitError](r, "bank.LimitError"),
		wire.RegisterFuncs(r, "bank.CodeError",
			func(buf []byte, v codeError) []byte {
				e := wire.NewEncoder(buf)
				e.Int(1, int64(v.Code))
				return e.Bytes()
			},
			func(data []byte) (codeError, error) {
				d := wire.NewDecoder(data)
				var v codeError
				for d.Next() {
					if d.Field() == 1 {
						v.Code = int(d.Int())
					} else {
						d.Skip()
					}
				}
				return v, d.Err()
			}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// TestErrorCausesRoundTrip: registered errors in a chain come back as
// themselves, however they were wrapped; others are not invented.
func TestErrorCausesRoundTrip(t *testing.T) {
	r := errorRegistry(t)
	limit := &limitError{Limit: 10, Asked: 12}
	tests := []struct {
		name  string
		err   error
		is    []error
		isNot []error
		limit *limitError
		code  int
	}{
		{"sentinel", errInsufficient, []error{errInsufficient}, []error{io.EOF}, nil, 0},
		{"wrapped sentinel", fmt.Errorf("withdraw 5: %w", errInsufficient), []error{errInsufficient}, []error{io.EOF}, nil, 0},
		{"typed, wrapped", fmt.Errorf("withdraw: %w", limit), nil, []error{errInsufficient}, limit, 0},
		{"value type", fmt.Errorf("x: %w", codeError{Code: 7}), nil, nil, nil, 7},
		{"joined", errors.Join(io.EOF, fmt.Errorf("a: %w", limit), errInsufficient), []error{io.EOF, errInsufficient}, nil, limit, 0},
		{"two %w", fmt.Errorf("%w and %w", errInsufficient, codeError{Code: 3}), []error{errInsufficient}, nil, nil, 3},
		{"unregistered", errors.New("bank: closed"), nil, []error{errInsufficient, io.EOF}, nil, 0},
		{"not comparable", sliceError{"a"}, nil, []error{errInsufficient}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Through the wire form, as an envelope carries it.
			in := wire.Envelope{Kind: wire.KindReply, Node: "n", Err: &wire.Error{Message: tt.err.Error(), Causes: r.ErrorCauses(tt.err)}}
			var out wire.Envelope
			if err := wire.ReadFrame(wire.AppendFrame(nil, &in), 0, func(e *wire.Envelope) error { out = *e; return nil }); err != nil {
				t.Fatal(err)
			}
			errs, skipped := r.DecodeCauses(out.Err.Causes)
			if len(skipped) != 0 {
				t.Fatalf("skipped %v", skipped)
			}
			got := errors.Join(errs...)
			for _, want := range tt.is {
				if !errors.Is(got, want) {
					t.Errorf("%v: not %v", got, want)
				}
			}
			for _, not := range tt.isNot {
				if errors.Is(got, not) {
					t.Errorf("%v: is %v", got, not)
				}
			}
			var le *limitError
			if ok := errors.As(got, &le); ok != (tt.limit != nil) || ok && *le != *tt.limit {
				t.Errorf("As *limitError = %v, %+v; want %+v", ok, le, tt.limit)
			}
			var ce codeError
			if ok := errors.As(got, &ce); ok != (tt.code != 0) || ce.Code != tt.code {
				t.Errorf("As codeError = %v, %+v; want code %d", ok, ce, tt.code)
			}
		})
	}
}

// TestDecodeCausesSkips: causes this registry cannot turn back into
// errors are reported, never invented.
func TestDecodeCausesSkips(t *testing.T) {
	r := errorRegistry(t)
	for _, c := range []wire.Cause{
		{Name: "other.ErrGone"},                       // not registered here
		{Name: "bank.CodeError", Body: []byte{0xff}},  // malformed
		{Name: "string", Body: []byte{0x0a, 1, 'x'}},  // not an error type
		{Name: "bank.LimitError", Body: []byte{0x1f}}, // bad CBOR
	} {
		errs, skipped := r.DecodeCauses([]wire.Cause{c})
		if len(errs) != 0 || len(skipped) != 1 {
			t.Errorf("%+v: errors %v, skipped %v; want one skipped", c, errs, skipped)
		}
	}
}

func TestRegisterErrorRefuses(t *testing.T) {
	r := errorRegistry(t)
	tests := []struct {
		name string
		reg  func() error
		want error
	}{
		{"empty name", func() error { return r.RegisterError("", io.ErrClosedPipe) }, wire.ErrUnsupported},
		{"nil error", func() error { return r.RegisterError("x", nil) }, wire.ErrUnsupported},
		{"value twice", func() error { return r.RegisterError("io.EOF2", io.EOF) }, wire.ErrDuplicate},
		{"sentinel name twice", func() error { return r.RegisterError("io.EOF", io.ErrUnexpectedEOF) }, wire.ErrDuplicate},
		{"a type's name", func() error { return r.RegisterError("bank.LimitError", io.ErrUnexpectedEOF) }, wire.ErrDuplicate},
		{"a sentinel's name for a type", func() error { return wire.Register[sliceError](r, "io.EOF") }, wire.ErrDuplicate},
		{"not comparable", func() error { return r.RegisterError("bank.slice", sliceError{"a"}) }, wire.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.reg(); !errors.Is(err, tt.want) {
				t.Fatalf("= %v, want %v", err, tt.want)
			}
		})
	}
}
