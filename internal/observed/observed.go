// Package observed lets packages above actor (sharding, persistence) show
// their state in the observer (package observe) without either importing
// the other: such a package adds a section to a system, and the observer
// reads every section of the system it shows, as JSON, each interval.
// Nothing else may use it.
package observed

import (
	"slices"
	"strings"
	"sync"
)

// Section is one package's part of the observer's summary.
type Section struct {
	// Name keys the section in the summary's "sections" object; the
	// observer's page knows how to show the names it knows.
	Name string
	// Read returns the section's state, a value encoding/json encodes.
	// It is called from the observer's goroutine, and must be safe there
	// and cheap (at most once per observer interval).
	Read func() any
}

var (
	mu       sync.Mutex
	sections = map[any][]*Section{} // by system
)

// Add adds s to the sections of sys (an *actor.System); remove takes it
// away again (call it when what it reads is gone).
func Add(sys any, s Section) (remove func()) {
	p := &s
	mu.Lock()
	sections[sys] = append(sections[sys], p)
	mu.Unlock()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		list := slices.DeleteFunc(sections[sys], func(q *Section) bool { return q == p })
		if len(list) == 0 {
			delete(sections, sys)
		} else {
			sections[sys] = list
		}
	}
}

// Of returns the sections of sys, sorted by name.
func Of(sys any) []Section {
	mu.Lock()
	out := make([]Section, 0, len(sections[sys]))
	for _, p := range sections[sys] {
		out = append(out, *p)
	}
	mu.Unlock()
	slices.SortFunc(out, func(a, b Section) int { return strings.Compare(a.Name, b.Name) })
	return out
}
