package sharding_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/troupe-go/troupe/observe"
	"github.com/troupe-go/troupe/sharding"
)

// observerView is the part of the observer's summary this test reads.
type observerView struct {
	Sections struct {
		Sharding *struct {
			Node    string `json:"node"`
			Members []struct {
				Name string `json:"name"`
			} `json:"members"`
			Kinds []struct {
				Stats   sharding.KindStats `json:"stats"`
				Shards  int                `json:"shards"`
				PerNode map[string]int     `json:"perNode"`
				Served  []struct {
					Shard, Active, Buffered int
				} `json:"served"`
			} `json:"kinds"`
			Moves []struct {
				Kind     string `json:"kind"`
				Shard    int    `json:"shard"`
				From, To string
			} `json:"moves"`
		} `json:"sharding"`
	} `json:"sections"`
}

// The observer shows a node's sharding: its members, each kind's shards
// per node, the entities active on the shards it serves, and the changes
// of owner it saw; the section goes when the cluster closes.
func TestObserverShowsSharding(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 2, shards: 8})
	allOwned(t, nodes...)
	for i := range 20 {
		_ = nodes[0].kind.Get(fmt.Sprint("e", i)).Tell(1)
	}
	for i := range 20 {
		ask[int](t, nodes[0].kind.Get(fmt.Sprint("e", i)), "sum")
	}
	o, err := observe.NewObserver(nodes[0].System.System, observe.WithInterval(10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	srv := httptest.NewServer(o)
	defer srv.Close()

	var v observerView
	eventually(t, "the observer shows both members", func() bool {
		v = readObserver(t, srv.URL)
		return v.Sections.Sharding != nil && len(v.Sections.Sharding.Members) == 2
	})
	sh := v.Sections.Sharding
	if sh == nil || sh.Node != "n1" || len(sh.Members) != 2 || len(sh.Kinds) != 1 {
		t.Fatalf("sharding section = %+v", sh)
	}
	k := sh.Kinds[0]
	if k.Stats.Kind != "counter" || k.Shards != 8 || k.PerNode["n1"]+k.PerNode["n2"] != 8 {
		t.Fatalf("kind = %+v", k)
	}
	active := 0
	for _, s := range k.Served {
		active += s.Active
	}
	if active != k.Stats.Active || active == 0 {
		t.Fatalf("served shards hold %d active entities, the kind's stats %d", active, k.Stats.Active)
	}
	owners := map[int]string{}
	for _, m := range sh.Moves {
		if _, seen := owners[m.Shard]; !seen && m.Kind == "counter" {
			owners[m.Shard] = m.To // newest first
		}
	}
	if len(owners) != 8 {
		t.Fatalf("moves name %d shards, want all 8: %+v", len(owners), sh.Moves)
	}
	if err := nodes[0].c.Close(); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the sharding section goes with the cluster's Close", func() bool {
		return readObserver(t, srv.URL).Sections.Sharding == nil
	})
}

// readObserver reads the observer's summary at url (the latest reading,
// taken at most an interval ago).
func readObserver(t *testing.T, url string) observerView {
	t.Helper()
	resp, err := http.Get(url + "/api/summary")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v observerView
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The observer's page shows the sharding panel, in headless Chromium.
func TestObserverShardingPanelInBrowser(t *testing.T) {
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if os.Getenv("CI") == "" {
			t.Skip("no chromium binary found: install Debian's chromium to run this test; under CI=true its absence fails")
		}
		t.Fatal("CI is set and no chromium binary was found: .ci/run installs Debian's chromium")
	}
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 1, shards: 4})
	allOwned(t, nodes...)
	ask[int](t, nodes[0].kind.Get("a"), "sum")
	o, err := observe.NewObserver(nodes[0].System.System)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	srv := httptest.NewServer(o)
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second) // a generous bound on a loaded machine, not a timing
	defer cancelT()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!document.getElementById("sharding-panel").hidden &&
		document.querySelectorAll("#sharding-kinds tbody tr").length === 1`, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("the sharding panel never showed: %v", err)
	}
	row, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#sharding-kinds tbody tr").innerText`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"counter", "n1 4", "4 / 4"} {
		if !strings.Contains(row, want) {
			t.Errorf("the kind's row %q lacks %q", row, want)
		}
	}
}
