package jetstream_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/jetstream"
	"github.com/troupe-go/troupe/remote/wire"
)

// The kill -9 test's child: TestKill9 runs this test binary again with
// PERSIST_KILL_DIR set, and this test then writes until it is killed.
const killDirEnv = "PERSIST_KILL_DIR"

const killEntities = 8

// kill9Writer persists added{1}, added{2}... to each of killEntities
// counters at once, printing "ack <entity> <n>" once the n-th is stored.
func kill9Writer(t *testing.T, dir string) {
	store, err := jetstream.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := actor.NewSystem("writer")
	if err != nil {
		t.Fatal(err)
	}
	f := counter(t, store)
	out := bufio.NewWriter(os.Stdout)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for e := range killEntities {
		ref, err := sys.Spawn("counter", strconv.Itoa(e), f)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := int64(1); ; n++ {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				_, err := actor.Ask[int64](ctx, sys, ref, n)
				cancel()
				if err != nil {
					fmt.Fprintln(os.Stderr, "child:", err)
					os.Exit(2)
				}
				mu.Lock()
				fmt.Fprintf(out, "ack counter/%d %d\n", e, n)
				out.Flush()
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// kill -9 of a process during a write storm: every event whose persist was
// acknowledged is there after a restart, in write order, with no gap and
// no partial write, and the actors recover their state from them.
func TestKill9(t *testing.T) {
	if dir := os.Getenv(killDirEnv); dir != "" {
		kill9Writer(t, dir)
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKill9$", "-test.count=1")
	cmd.Env = append(os.Environ(), killDirEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[string]int64{}
	sc := bufio.NewScanner(stdout)
	for total := 0; total < 400 && sc.Scan(); {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || f[0] != "ack" {
			continue
		}
		n, _ := strconv.ParseInt(f[2], 10, 64)
		acked[f[1]] = n
		total++
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no clean-up runs
		t.Fatal(err)
	}
	for sc.Scan() { // what it printed before it died was acknowledged too
		if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == "ack" {
			n, _ := strconv.ParseInt(f[2], 10, 64)
			acked[f[1]] = n
		}
	}
	cmd.Wait()
	if len(acked) == 0 {
		t.Fatal("the child acknowledged nothing")
	}

	sys := actortest.NewSystem(t)
	store := open(t, dir)
	f := counter(t, store)
	for e := range killEntities {
		entity := fmt.Sprintf("counter/%d", e)
		stored := checkJournal(t, store, entity)
		if stored < acked[entity] {
			t.Fatalf("%s: %d events stored, %d acknowledged", entity, stored, acked[entity])
		}
		ref, err := sys.Spawn("counter", strconv.Itoa(e), f)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := askSum(t, sys, ref, "sum")
		if want := stored * (stored + 1) / 2; err != nil || sum != want {
			t.Fatalf("%s recovered %d, %v; want %d (the sum of 1..%d)", entity, sum, err, want, stored)
		}
	}
	t.Logf("acknowledged before the kill: %v", acked)
}

// checkJournal checks that entity's events are added{1}, added{2}... with
// sequence numbers 1, 2... and returns how many there are.
func checkJournal(t *testing.T, store *jetstream.Store, entity string) int64 {
	reg := wire.NewRegistry()
	if err := wire.Register[added](reg, "added"); err != nil {
		t.Fatal(err)
	}
	var n int64
	_, err := store.Read(ctx(t), entity, persist.Cursor{}, func(e persist.Event) error {
		n++
		v, err := reg.Unmarshal(e.Type, e.Data)
		if err != nil {
			return err
		}
		if a, ok := v.(added); !ok || e.Seq != uint64(n) || a.N != n {
			return fmt.Errorf("event %d is %+v at sequence %d", n, v, e.Seq)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", entity, err)
	}
	return n
}
