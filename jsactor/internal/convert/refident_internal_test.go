package convert

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
	rt := goja.New()
	proto := rt.NewObject()
	var refs RefTable
	refJS := func(r actor.Ref) *goja.Object {
		o := rt.CreateObject(proto)
		_ = o.Set("id", r.ID())
		refs.Add(o, r)
		return o
	}
	r := actor.NewRef("s", "k", "i")
	kept := refJS(r)
	if got, ok := refs.Lookup(kept); !ok || got != r {
		t.Fatalf("Lookup(own ref) = %v %v", got, ok)
	}
	forged := rt.CreateObject(proto)
	_ = forged.Set("id", "i")
	if _, ok := refs.Lookup(forged); ok {
		t.Fatal("an object on the ref prototype was taken for a ref")
	}
	for i := range 10_000 {
		refJS(actor.NewRef("s", "k", strconv.Itoa(i)))
		if i%1000 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	refs.sweep()
	if n := len(refs.m); n > 2000 {
		t.Fatalf("%d refs remembered after the script dropped them", n)
	}
	if got, ok := refs.Lookup(kept); !ok || got != r {
		t.Fatal("a live ref was forgotten")
	}
	runtime.KeepAlive(kept)
}
