package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func bank(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	err := run(ctx, &out, dir, args)
	return out.String(), err
}

// Every command runs in a process of its own in real use; here each run
// opens and closes the store, as a process would.
func TestCommands(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"deposit", "alice", "100"}, "alice: balance 100\n"},
		{[]string{"withdraw", "alice", "30"}, "alice: balance 70\n"},
		{[]string{"deposit", "bob", "5"}, "bob: balance 5\n"},
		{[]string{"balance", "alice"}, "alice: balance 70\n"},
	} {
		out, err := bank(t, dir, c.args...)
		if err != nil || out != c.want {
			t.Fatalf("%v: %q, %v; want %q", c.args, out, err, c.want)
		}
	}
	if _, err := bank(t, dir, "withdraw", "alice", "300"); !errors.Is(err, ErrInsufficientFunds) {
		t.Fatalf("overdraft: %v", err)
	}
	for _, bad := range [][]string{{"balance"}, {"deposit", "a"}, {"deposit", "a", "x"}, {"deposit", "a", "-1"}, {"frobnicate", "a"}} {
		if _, err := bank(t, dir, bad...); err == nil {
			t.Fatalf("%v: no error", bad)
		}
	}
}

const stormEnv = "BANK_STORM_DIR"

// The example's promise: run a storm of deposits, kill -9 it, run again,
// and the balance holds every deposit the storm printed.
func TestSurvivesKill9(t *testing.T) {
	if dir := os.Getenv(stormEnv); dir != "" {
		if err := run(context.Background(), os.Stdout, dir, []string{"storm", "alice"}); err != nil {
			t.Fatal(err)
		}
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSurvivesKill9$", "-test.count=1")
	cmd.Env = append(os.Environ(), stormEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var printed int64
	sc := bufio.NewScanner(stdout)
	for printed < 300 && sc.Scan() {
		if b, ok := strings.CutPrefix(sc.Text(), "alice: balance "); ok {
			printed, _ = strconv.ParseInt(b, 10, 64)
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		if b, ok := strings.CutPrefix(sc.Text(), "alice: balance "); ok {
			printed, _ = strconv.ParseInt(b, 10, 64)
		}
	}
	cmd.Wait()
	if printed == 0 {
		t.Fatal("the storm printed no balance")
	}
	out, err := bank(t, dir, "balance", "alice")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(out, "alice: balance ")), 10, 64)
	// The storm may have stored a deposit whose balance it had no time to
	// print, never fewer than it printed.
	if got < printed || got > printed+1 {
		t.Fatalf("balance %d after the kill; the storm printed %d", got, printed)
	}
	t.Logf("printed %d before kill -9, recovered %d", printed, got)
}
