package jsactor

import (
	"errors"
	"reflect"
	"testing"
)

// decodeAs takes shortcuts for common replies; it must answer exactly as
// Decode does, for the shortcut's types and the others.
func TestDecodeAsMatchesDecode(t *testing.T) {
	values := []any{nil, int64(0), int64(300), int64(-7), 1.5, float64(2), "s", true, []any{int64(1)}, map[string]any{"n": int64(1)}, uint64(1 << 63)}
	for _, v := range values {
		checkDecodeAs(t, v, decodeAs[int])
		checkDecodeAs(t, v, decodeAs[int64])
		checkDecodeAs(t, v, decodeAs[int8])
		checkDecodeAs(t, v, decodeAs[float64])
		checkDecodeAs(t, v, decodeAs[string])
		checkDecodeAs(t, v, decodeAs[bool])
		checkDecodeAs(t, v, decodeAs[any])
		checkDecodeAs(t, v, decodeAs[[]int])
		checkDecodeAs(t, v, decodeAs[inner])
	}
}

func checkDecodeAs[R any](t *testing.T, v any, fast func(any) (R, error)) {
	t.Helper()
	got, gotErr := fast(v)
	var want R
	wantErr := Decode(v, &want)
	if !reflect.DeepEqual(got, want) || (gotErr == nil) != (wantErr == nil) || (wantErr != nil && !errors.Is(gotErr, ErrDecode)) {
		t.Errorf("decodeAs[%T](%#v) = %#v, %v; Decode gives %#v, %v", want, v, got, gotErr, want, wantErr)
	}
}
