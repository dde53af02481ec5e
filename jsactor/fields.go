package jsactor

import (
	"reflect"
	"strings"
	"sync"
)

// field is one JSON-visible field of a struct type.
type field struct {
	name      string
	index     []int
	omitEmpty bool
}

var fieldCache sync.Map // reflect.Type -> []field

// fieldsOf lists the fields encoding/json would marshal, by the same
// rules for names, "-", omitempty and untagged embedded structs (a name
// defined at a shallower depth wins; ties at one depth drop the name).
func fieldsOf(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	var out []field
	byName := map[string]int{}
	depthOf := map[string]int{}
	dropped := map[string]bool{}
	var walk func(t reflect.Type, index []int, depth int)
	walk = func(t reflect.Type, index []int, depth int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
				if depth < 8 {
					walk(ft, idx, depth+1)
				}
				continue
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			f := field{name: name, index: idx, omitEmpty: strings.Contains(","+opts+",", ",omitempty,")}
			if j, seen := byName[name]; seen {
				switch {
				case depthOf[name] < depth:
					continue
				case depthOf[name] == depth:
					dropped[name] = true
					continue
				}
				out[j] = f
				depthOf[name] = depth
				dropped[name] = false
				continue
			}
			byName[name], depthOf[name] = len(out), depth
			out = append(out, f)
		}
	}
	walk(t, nil, 0)
	kept := out[:0]
	for _, f := range out {
		if !dropped[f.name] {
			kept = append(kept, f)
		}
	}
	fieldCache.Store(t, kept)
	return kept
}

// fieldNamed finds the field a JSON key sets: an exact name first, then a
// case-insensitive match, as encoding/json does.
func fieldNamed(fs []field, key string) (field, bool) {
	for _, f := range fs {
		if f.name == key {
			return f, true
		}
	}
	for _, f := range fs {
		if strings.EqualFold(f.name, key) {
			return f, true
		}
	}
	return field{}, false
}
