package actortest_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/jsactor"
)

const tickerJS = `
let n = 0;
module.exports = {
  start(to) {
    const t0 = performance.now();
    setInterval(() => {
      n++;
      console.log("tick %d at %dms", n, performance.now() - t0);
      to.tell("tick", n);
    }, 100);
    setTimeout(() => to.send("timeout"), 250);
  },
};
`

// TestJSActorOnVirtualTime: a JS actor's setInterval, setTimeout and
// performance.now run on the kit's virtual time, exactly, and its console
// output reaches t.Log.
func TestJSActorOnVirtualTime(t *testing.T) {
	f := &fakeTB{TB: t}
	f.run(func() {
		s := actortest.NewSystem(f)
		p := s.NewProbe("p")
		js, err := jsactor.Spawn(s.System, "ticker", "js", jsactor.MustCompile("ticker.js", tickerJS))
		if err != nil {
			f.Fatal(err)
		}
		if err := jsactor.Tell(s.System, js, "start", p.Ref()); err != nil {
			f.Fatal(err)
		}
		p.ExpectNoMessage(99 * time.Millisecond)
		s.Advance(time.Millisecond)
		p.ExpectMessage(tickCall(1))
		s.Advance(200 * time.Millisecond)
		got := p.ReceiveN(3)
		want := []any{tickCall(2), "timeout", tickCall(3)}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				f.Errorf("message %d = %T %v, want %T %v", i, got[i], got[i], want[i], want[i])
			}
		}
	})
	f.finish()
	if f.Failed() {
		t.Fatalf("failed: %s", f.output())
	}
	for _, line := range []string{"tick 1 at 100ms", "tick 3 at 300ms"} {
		if !strings.Contains(f.logged(), line) {
			t.Errorf("t.Log lacks %q:\n%s", line, f.logged())
		}
	}
}

func tickCall(n int64) jsactor.Call { return jsactor.Call{Method: "tick", Args: []any{n}} }
