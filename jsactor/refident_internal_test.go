package jsactor

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
)

// Ref objects are recognised by identity only, and the table forgets the
// ones the script dropped, so it does not grow with every ref handed out.
func TestRefTableIdentityAndSweep(t *testing.T) {
	in := bare()
	r := actor.NewRef("s", "k", "i")
	kept, _ := in.refJS(r).(*goja.Object)
	if got, ok := in.refOf(kept); !ok || got != r {
		t.Fatalf("refOf(own ref) = %v %v", got, ok)
	}
	forged := in.rt.CreateObject(in.cache.refProto)
	if _, ok := in.refOf(forged); ok {
		t.Fatal("an object on the ref prototype was taken for a ref")
	}
	for i := range 10_000 {
		in.refJS(actor.NewRef("s", "k", strconv.Itoa(i)))
		if i%1000 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	in.cache.refs.sweep()
	if n := len(in.cache.refs.m); n > 2000 {
		t.Fatalf("%d refs remembered after the script dropped them", n)
	}
	if got, ok := in.refOf(kept); !ok || got != r {
		t.Fatal("a live ref was forgotten")
	}
	runtime.KeepAlive(kept)
}
