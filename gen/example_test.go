package gen_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/troupe-go/troupe/gen"
)

func ExampleGenerate() {
	files, err := gen.Generate("testdata/counter/input")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Println(name)
		for _, line := range strings.Split(string(files[name]), "\n") {
			if strings.HasPrefix(line, "func ") && strings.Contains(line, "CounterRef)") {
				fmt.Println(line)
			}
		}
	}
	// Output:
	// counter_actor.gen.go
	// func (r CounterRef) Ref() actor.Ref {
	// func (r CounterRef) String() string {
	// func (r CounterRef) Add(by int) error {
	// func (r CounterRef) Get(ctx context.Context) (int, error) {
	// func (r CounterRef) GetAsync(c *actor.Context) *loop.Promise[int] {
}

func ExampleProblems() {
	_, err := gen.Generate("testdata/bad_directives/input")
	var probs gen.Problems
	if errors.As(err, &probs) {
		fmt.Println(probs[0])
	}
	// Output:
	// bad.go:7:6: //troupe:actor on Num, which is not a struct type
}
