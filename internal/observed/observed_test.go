package observed_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/troupe-go/troupe/internal/observed"
)

func names(sys any) []string {
	var out []string
	for _, s := range observed.Of(sys) {
		out = append(out, s.Name)
	}
	return out
}

func TestAddReadRemove(t *testing.T) {
	a, b := new(int), new(int)
	rmB := observed.Add(a, observed.Section{Name: "b", Read: func() any { return 2 }})
	rmA := observed.Add(a, observed.Section{Name: "a", Read: func() any { return 1 }})
	rmOther := observed.Add(b, observed.Section{Name: "x", Read: func() any { return 3 }})
	if got := fmt.Sprint(names(a)); got != "[a b]" {
		t.Fatalf("sections of a = %s, want [a b]", got)
	}
	if got := observed.Of(a)[0].Read(); got != 1 {
		t.Fatalf("a's first section reads %v", got)
	}
	rmB()
	rmB() // twice is harmless
	if got := fmt.Sprint(names(a)); got != "[a]" {
		t.Fatalf("after removing b: %s", got)
	}
	rmA()
	rmOther()
	if len(observed.Of(a)) != 0 || len(observed.Of(b)) != 0 {
		t.Fatal("sections left after removal")
	}
}

// Sections are added, read and removed from many goroutines at once.
func TestConcurrent(t *testing.T) {
	sys := new(int)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 200 {
				rm := observed.Add(sys, observed.Section{Name: fmt.Sprint(i, "-", j), Read: func() any { return j }})
				for _, s := range observed.Of(sys) {
					_ = s.Read()
				}
				rm()
			}
		}()
	}
	wg.Wait()
	if n := len(observed.Of(sys)); n != 0 {
		t.Fatalf("%d sections left", n)
	}
}
