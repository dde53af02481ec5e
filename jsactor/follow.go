package jsactor

import (
	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// followShim follows a promise without looking up Promise or its then:
// await of a genuine promise attaches its reactions with the intrinsic
// PerformPromiseThen, so a script that replaced Promise.prototype.then
// does not change how the host learns of a reply. (A promise whose
// constructor property was tampered with is resolved through its then,
// as await does; if that throws, the reply is rejected with the error.)
var followShim = shim("follow", true)

// follow attaches onOK and onErr to p through followShim (built on first
// use). An error is one goja reports synchronously: an uncatchable one
// also becomes the turn's failure.
func (in *instance) follow(p *goja.Object, onOK, onErr goja.Value) error {
	c := in.cached()
	if c.follow == nil {
		c.follow, _ = goja.AssertFunction(sandbox.RunShim(in.rt, followShim()))
	}
	_, err := c.follow(goja.Undefined(), p, onOK, onErr)
	if err != nil && isUncatchable(err) {
		in.failure = err
	}
	return err
}
