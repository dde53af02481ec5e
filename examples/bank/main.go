// Command bank keeps bank accounts that survive kill -9. Each account is
// an event-sourced actor (package persist): a deposit or withdrawal is
// stored as an event in JetStream (an embedded nats-server, file storage
// in -dir) before the reply, and an account started again replays its
// events (from its latest snapshot).
//
//	go run ./examples/bank -dir /tmp/bank deposit alice 100
//	go run ./examples/bank -dir /tmp/bank withdraw alice 30
//	go run ./examples/bank -dir /tmp/bank balance alice
//	go run ./examples/bank -dir /tmp/bank storm alice    # deposits 1 until killed: kill -9 it
//	go run ./examples/bank -dir /tmp/bank balance alice  # at least the last balance storm printed
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/persist/jetstream"
)

func main() {
	dir := flag.String("dir", "bank-data", "directory of the JetStream store")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *dir, flag.Args()); err != nil {
		log.Fatal(err)
	}
}

// run carries out one command: deposit NAME AMOUNT, withdraw NAME AMOUNT,
// balance NAME, or storm NAME (deposits of 1 until ctx ends), printing the
// balance after each.
func run(ctx context.Context, out io.Writer, dir string, args []string) error {
	if len(args) < 2 {
		return errors.New("usage: bank [-dir DIR] deposit|withdraw NAME AMOUNT | balance NAME | storm NAME")
	}
	store, err := jetstream.Open(dir)
	if err != nil {
		return err
	}
	defer store.Close()
	factory, err := accounts(store)
	if err != nil {
		return err
	}
	sys, err := actor.NewSystem("bank")
	if err != nil {
		return err
	}
	defer sys.Shutdown(context.Background())
	acct, err := sys.Spawn("account", args[1], factory)
	if err != nil {
		return err
	}
	cmd, err := parse(args)
	if err != nil {
		return err
	}
	for {
		b, err := ask(ctx, sys, acct, cmd)
		if ctx.Err() != nil {
			return nil // the storm was told to end
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: balance %d\n", args[1], b)
		if args[0] != "storm" {
			return nil
		}
	}
}

// parse turns the command line into a command.
func parse(args []string) (any, error) {
	switch args[0] {
	case "balance":
		return Balance{}, nil
	case "storm":
		return Deposit{Amount: 1}, nil
	case "deposit", "withdraw":
		if len(args) != 3 {
			return nil, fmt.Errorf("%s needs NAME AMOUNT", args[0])
		}
		n, err := strconv.ParseInt(args[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("amount: %w", err)
		}
		if args[0] == "deposit" {
			return Deposit{Amount: n}, nil
		}
		return Withdraw{Amount: n}, nil
	}
	return nil, fmt.Errorf("unknown command %q", args[0])
}

func ask(ctx context.Context, sys *actor.System, acct actor.Ref, cmd any) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return actor.Ask[int64](ctx, sys, acct, cmd)
}
