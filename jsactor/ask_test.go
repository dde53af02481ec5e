package jsactor_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// goBank is a Go actor that JavaScript talks to with Call messages and raw
// values.
func goBank() actor.Actor {
	balance := 0
	return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
		switch m := msg.(type) {
		case jsactor.Call:
			switch m.Method {
			case "deposit":
				var n int
				if err := jsactor.Decode(m.Args[0], &n); err != nil {
					return nil, err
				}
				balance += n
				return balance, nil
			case "fail":
				return nil, errors.New("bank says no")
			case "account":
				return account{Owner: "ada", Balance: balance, Tags: []string{"gold"}}, nil
			}
		case string:
			return "raw:" + m, nil
		}
		return nil, fmt.Errorf("bank: unexpected %#v", msg)
	})
}

type account struct {
	Owner   string   `json:"owner"`
	Balance int      `json:"balance"`
	Tags    []string `json:"tags,omitempty"`
	Secret  string   `json:"-"`
}

// JS asks and tells Go; Go asks JS; JS asks JS.
func TestAskBothWays(t *testing.T) {
	r := newRig(t)
	bank, err := r.sys.Spawn("bank", "main", goBank)
	if err != nil {
		t.Fatal(err)
	}
	client := r.spawn("client", `
		module.exports = {
			async deposit(bank, n) { return await bank.ask("deposit", n) },
			async account(bank) { const a = await bank.ask("account"); return a.owner + ":" + a.balance + ":" + a.tags.join() },
			async raw(bank) { return await bank.request("hello") },
			async fails(bank) { try { await bank.ask("fail") } catch (e) { return "caught " + e.message } },
			tellTwice(bank) { bank.tell("deposit", 1); bank.tell("deposit", 1) },
			async viaPeer(peer, x) { return await peer.ask("double", x) },
			double(x) { return x * 2 },
			refString(ref) { return String(ref) + "|" + ref.kind + "|" + ref.id },
			self() { return self },
		};`)
	peer := r.spawn("peer", `module.exports = { double(x) { return new Promise(res => { setTimeout(() => res(x * 2), 5); emit("armed") }) } };`)

	if v, err := jsactor.Ask[int](r.ctx(), r.sys, client, "deposit", bank, 40); err != nil || v != 40 {
		t.Fatalf("deposit: %v %v", v, err)
	}
	if v := r.call(client, "account", bank); v != "ada:40:gold" {
		t.Fatalf("account: %v", v)
	}
	if v := r.call(client, "raw", bank); v != "raw:hello" {
		t.Fatalf("raw: %v", v)
	}
	if v, _ := r.call(client, "fails", bank).(string); !strings.HasPrefix(v, "caught ") || !strings.Contains(v, "bank says no") {
		t.Fatalf("fails: %v", v)
	}
	r.call(client, "tellTwice", bank)
	if v, err := actor.Ask[any](r.ctx(), r.sys, bank, jsactor.Call{Method: "deposit", Args: []any{0}}); err != nil || v != 42 {
		t.Fatalf("after two tells the balance is %v (%v), want 42", v, err)
	}
	done := make(chan any, 1)
	go func() { done <- r.call(client, "viaPeer", peer, 21) }()
	r.expect(1) // the peer's timer is set
	r.advance(5 * time.Millisecond)
	if v := r.await(done); v != int64(42) {
		t.Fatalf("JS to JS ask: %v", v)
	}
	if v := r.call(client, "refString", bank); v != "troupe://test/bank/main|bank|main" {
		t.Fatalf("ref in JS: %v", v)
	}
	if v := r.call(client, "self"); v != client {
		t.Fatalf("self crossed back as %#v, want %v", v, client)
	}
}

// Typed asks decode replies into Go types.
func TestTypedAsk(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("typed", `
		module.exports = {
			account() { return { owner: "bob", balance: 7, tags: ["a", "b"], extra: true } },
			list() { return [1, 2, 3] },
			float() { return 1.5 },
			str() { return "s" },
		};`)
	a, err := jsactor.Ask[account](r.ctx(), r.sys, ref, "account")
	if err != nil || a.Owner != "bob" || a.Balance != 7 || strings.Join(a.Tags, ",") != "a,b" {
		t.Fatalf("account: %+v %v", a, err)
	}
	if l, err := jsactor.Ask[[]int](r.ctx(), r.sys, ref, "list"); err != nil || fmt.Sprint(l) != "[1 2 3]" {
		t.Fatalf("list: %v %v", l, err)
	}
	if _, err := jsactor.Ask[int](r.ctx(), r.sys, ref, "float"); !errors.Is(err, jsactor.ErrDecode) {
		t.Fatalf("1.5 into int: %v, want ErrDecode", err)
	}
	if _, err := jsactor.Ask[int](r.ctx(), r.sys, ref, "str"); !errors.Is(err, jsactor.ErrDecode) {
		t.Fatalf("string into int: %v, want ErrDecode", err)
	}
}

// AskAsync from a Go handler.
func TestAskAsyncFromGoActor(t *testing.T) {
	r := newRig(t)
	js := r.spawn("callee", `module.exports = { inc(n) { return n + 1 } };`)
	asker, _ := r.sys.Spawn("asker", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			return jsactor.AskAsync[int](c, js, "inc", msg.(int)), nil
		})
	})
	if v, err := actor.Ask[int](r.ctx(), r.sys, asker, 41); err != nil || v != 42 {
		t.Fatalf("got %v %v", v, err)
	}
}

// Values that cannot cross fail the send in JavaScript with a TypeError;
// nothing is delivered.
func TestSendUncrossable(t *testing.T) {
	r := newRig(t)
	bank, _ := r.sys.Spawn("bank", "main", goBank)
	ref := r.spawn("sender", `
		module.exports = {
			try(bank, what) {
				const values = {
					fn: () => 1,
					cyclic: (() => { const o = {}; o.o = o; return o })(),
					weakmap: new WeakMap(),
					huge: new Array(1 << 22),
					symbol: Symbol("s"),
					map: new Map(),
					promise: Promise.resolve(),
					classInstance: new (class Foo {})(),
				};
				try { bank.tell("deposit", values[what]); return "sent" } catch (e) { return e.name + ": " + e.message }
			},
		};`)
	for _, what := range []string{"fn", "cyclic", "weakmap", "huge", "symbol", "map", "promise", "classInstance"} {
		v, _ := r.call(ref, "try", bank, what).(string)
		if !strings.HasPrefix(v, "TypeError") || !strings.Contains(v, "cannot cross") {
			t.Errorf("%s: %q, want a TypeError saying it cannot cross", what, v)
		}
	}
	if r.sys.DeadLetters() != 0 {
		t.Fatalf("%d dead letters", r.sys.DeadLetters())
	}
}

// spawn, watch and stop from JavaScript.
func TestSpawnWatchStop(t *testing.T) {
	r := newRig(t)
	child := jsactor.MustCompile("child.js", `module.exports = { hi(x) { return "hi " + x + " from " + self.id + " child of " + self.parent.id } };`)
	ref := r.spawn("parent", `
		let kid;
		module.exports = {
			async start() { kid = spawn("kid", "k1", "child"); watch(kid); return await kid.ask("hi", "there") },
			kill() { stop(kid) },
			receive(msg) { if (msg.terminated) emit("terminated " + msg.terminated.id + " " + msg.reason) },
		};`, jsactor.WithScript("child", child))
	if v := r.call(ref, "start"); v != "hi there from k1 child of parent" {
		t.Fatalf("start: %v", v)
	}
	r.call(ref, "kill")
	if v := r.expect(1)[0]; v != "terminated k1 null" {
		t.Fatalf("watch: %v", v)
	}
}

// Keyed message timers: replacing and cancelling keys.
func TestKeyedTimers(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("keyed", `
		module.exports = {
			go() {
				self.timers.startSingle("a", 10, "fired", "first");
				self.timers.startSingle("a", 20, "fired", "second");
				self.timers.startSingle("b", 5, "fired", "cancelled");
				self.timers.cancel("b");
				self.timers.startFixedRate("r", 10, "fired", "rate");
				return [self.timers.isActive("a"), self.timers.isActive("b")];
			},
			fired(what) { emit(what); if (what === "rate") self.timers.cancel("r"); },
		};`)
	if v := fmt.Sprint(r.call(ref, "go")); v != "[true false]" {
		t.Fatalf("isActive: %v", v)
	}
	for range 2 {
		r.advance(10 * time.Millisecond)
	}
	if got := fmt.Sprint(r.expect(2)); got != "[rate second]" {
		t.Fatalf("timers delivered %v", got)
	}
	r.quiet(ref)
}

// A script may export a single function: it receives every non-Call
// message.
func TestExportsFunction(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("fn", `module.exports = (msg) => "got " + msg.k;`)
	if v, err := actor.Ask[any](r.ctx(), r.sys, ref, map[string]any{"k": "v"}); err != nil || v != "got v" {
		t.Fatalf("got %v %v", v, err)
	}
}
