package call

import (
	"reflect"
	"sync"

	"github.com/troupe-go/troupe/internal/jsonfields"
)

var fieldCache sync.Map // reflect.Type -> map[string][]int

// fieldsOf maps the names encoding/json would use for the fields of
// struct type t to their index paths (see [jsonfields.Of]: json tags, "-",
// untagged embedded structs promoted, a shallower name winning and two at
// the same depth cancelling out).
func fieldsOf(t reflect.Type) map[string][]int {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.(map[string][]int)
	}
	fs := jsonfields.Of(t)
	byName := make(map[string][]int, len(fs))
	for _, f := range fs {
		byName[f.Name] = f.Index
	}
	fieldCache.Store(t, byName)
	return byName
}
