// Package jsonfields lists the fields of a Go struct type as
// encoding/json sees them, for troupe's packages that turn structs into
// maps and back (actor/call, jsactor) without encoding/json itself.
package jsonfields

import (
	"reflect"
	"strings"
	"sync"
)

// Field is one JSON-visible field of a struct type.
type Field struct {
	Name      string
	Index     []int // for reflect.Value.FieldByIndex; may pass embedded pointers
	OmitEmpty bool
}

var cache sync.Map // reflect.Type -> []Field

// Of lists the fields encoding/json would marshal for struct type t, in
// declaration order, by the same rules for names, "-", omitempty and
// untagged embedded structs (a name defined at a shallower depth wins;
// ties at one depth drop the name). The result is cached and shared: do
// not modify it. Safe from any goroutine.
func Of(t reflect.Type) []Field {
	if fs, ok := cache.Load(t); ok {
		return fs.([]Field)
	}
	var fl fieldList
	fl.walk(t, nil, 0)
	kept := fl.kept()
	cache.Store(t, kept)
	return kept
}

// fieldList collects the fields of a struct type and its embedded ones.
type fieldList struct {
	out     []Field
	byName  map[string]int // index in out
	depthOf map[string]int
	dropped map[string]bool
}

// walk adds the fields of t, found at index path index and embedding
// depth depth.
func (fl *fieldList) walk(t reflect.Type, index []int, depth int) {
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
				fl.walk(ft, idx, depth+1)
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		fl.add(Field{Name: name, Index: idx, OmitEmpty: strings.Contains(","+opts+",", ",omitempty,")}, depth)
	}
}

// add records f found at depth: a shallower name wins, a tie drops it.
func (fl *fieldList) add(f Field, depth int) {
	if fl.byName == nil {
		fl.byName, fl.depthOf, fl.dropped = map[string]int{}, map[string]int{}, map[string]bool{}
	}
	j, seen := fl.byName[f.Name]
	if !seen {
		fl.byName[f.Name], fl.depthOf[f.Name] = len(fl.out), depth
		fl.out = append(fl.out, f)
		return
	}
	switch {
	case fl.depthOf[f.Name] < depth:
	case fl.depthOf[f.Name] == depth:
		fl.dropped[f.Name] = true
	default:
		fl.out[j] = f
		fl.depthOf[f.Name] = depth
		fl.dropped[f.Name] = false
	}
}

// kept returns the fields whose names were not dropped.
func (fl *fieldList) kept() []Field {
	kept := fl.out[:0]
	for _, f := range fl.out {
		if !fl.dropped[f.Name] {
			kept = append(kept, f)
		}
	}
	return kept
}
