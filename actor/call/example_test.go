package call_test

import (
	"fmt"

	"github.com/troupe-go/troupe/actor/call"
)

// A call as a JavaScript actor sends it: numbers arrive as float64 (or
// int64), objects as maps. Generated actors decode each argument into
// its parameter's type like this.
func ExampleArg() {
	type Line struct {
		Item string `json:"item"`
		Qty  int    `json:"qty"`
	}
	c := call.Call{Method: "order", Args: []any{map[string]any{"item": "tea", "qty": 2.0}, 1.5}}
	if err := call.Arity(c, 2, false); err != nil {
		fmt.Println(err)
		return
	}
	line, err := call.Arg[Line](c, 0, "line")
	fmt.Printf("%+v %v\n", line, err)
	_, err = call.Arg[int](c, 1, "count")
	fmt.Println(err)
	// Output:
	// {Item:tea Qty:2} <nil>
	// call: bad argument: order argument 2 (count): got float64 1.5, want int
}
