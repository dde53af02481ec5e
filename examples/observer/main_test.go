package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// startApp runs the example on a free port for the test.
func startApp(t *testing.T, actions bool) *app {
	t.Helper()
	a, err := start("127.0.0.1:0", actions)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

func TestServesSummary(t *testing.T) {
	a := startApp(t, false)
	resp, err := http.Get(a.URL + "api/summary")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s struct {
		System string `json:"system"`
		Actors int    `json:"actors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	if s.System != "shop" || s.Actors < clerks {
		t.Fatalf("summary %+v", s)
	}
}

// chromium finds a Chromium or Chrome binary.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestObserverInBrowser loads the example's page in headless Chromium,
// as a person would, and checks that the tree, a live counter and the
// dead letters render; that a page of another origin cannot stop an
// actor through the browser; it saves a screenshot (set OBSERVER_SCREENSHOT to
// choose where, or run with -artifacts to keep it).
func TestObserverInBrowser(t *testing.T) {
	bin := chromium()
	if bin == "" {
		if os.Getenv("CI") == "" {
			t.Skip("no chromium binary found: install Debian's chromium (apt-get install chromium) to run this test; under CI=true its absence fails")
		}
		t.Fatal("CI is set and no chromium binary was found: .ci/run installs Debian's chromium")
	}
	a := startApp(t, true)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1600, 1150))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second) // a generous bound on a loaded machine, not a timing
	defer cancelT()

	if err := chromedp.Do(ctx); err != nil { // start the browser on ctx, not on a step's shorter context
		t.Fatal(err)
	}
	shot := func() {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		png, err := chromedp.Run(sctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Errorf("screenshot: %v", err)
			return
		}
		path := os.Getenv("OBSERVER_SCREENSHOT")
		if path == "" {
			path = filepath.Join(t.ArtifactDir(), "observer.png")
		}
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Error(err)
			return
		}
		t.Logf("screenshot of the observer: %s", path)
	}
	step := func(name string, a chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, a); err != nil {
			shot()
			t.Fatalf("%s: %v", name, err)
		}
	}
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	// Another site's page (localhost is another origin than 127.0.0.1)
	// tries to stop a clerk through the user's browser.
	victim := actor.NewRef("shop", "desk", "front").Child("clerk", "3")
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>evil</title><script>
fetch(%s + "api/actor/stop?ref=" + encodeURIComponent(%s), {method: "POST", mode: "no-cors"})
  .then(() => { document.title = "sent"; }, (e) => { document.title = "failed: " + e; });
</script>`, jsString(a.URL), jsString(victim.Path()))
	}))
	defer evil.Close()
	evilURL := strings.Replace(evil.URL, "127.0.0.1", "localhost", 1)
	step("another origin's page", chromedp.Navigate(evilURL))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.title !== "evil"`, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("the other origin's fetch never settled: %v", err)
	}
	if title := eval(`document.title`); title != "sent" {
		t.Fatalf("the other origin's fetch: %s", title)
	}
	// The request has been answered: had it stopped the clerk, the stop
	// would be queued ahead of this ask, which would fail.
	if _, err := actor.Ask[any](ctx, a.sys, victim, order{1}); err != nil {
		t.Fatalf("%s after another origin's stop request: %v", victim.Path(), err)
	}

	// waitRows waits until the rows sel selects name exactly the refs
	// (space-separated), in order.
	waitRows := func(sel, refs string) {
		t.Helper()
		expr := `Array.from(document.querySelectorAll(` + jsString(sel) + `)).map(r => r.dataset.ref).join(" ")`
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if _, err := chromedp.Run(sctx, chromedp.Poll[bool](expr+` === `+jsString(refs), chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
			shot()
			t.Fatalf("rows %s: %q, want %q: %v", sel, eval(expr), refs, err)
		}
	}
	// setFilter sets a filter control and tells the page as typing would.
	setFilter := func(sel, value, event string) {
		t.Helper()
		eval(`(() => { const e = document.querySelector(` + jsString(sel) + `); e.value = ` + jsString(value) +
			`; e.dispatchEvent(new Event(` + jsString(event) + `)); return ""; })()`)
	}

	step("load", chromedp.Navigate(a.URL))
	step("tree", chromedp.WaitVisible(chromedp.CSS(`#tree .row`)))
	step("live", chromedp.WaitVisible(chromedp.CSS(`#live.on`)))
	first := eval(`document.getElementById("stat-handled").textContent`)
	// The counter moves: wait for the page to show another value.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("stat-handled").textContent !== `+jsString(first),
		chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		t.Fatalf("the handled counter stays at %s: %v", first, err)
	}
	// The tree is sorted by kind, then id; numbers in ids as numbers.
	topLevel := `desk/front feeder/main flaky/printer pricer/js sessions/all slow/archive`
	waitRows(`#tree > .rows > .row`, topLevel)
	// Expand the desk: its clerks load as children, in order.
	step("expand", chromedp.Click(chromedp.CSS(`#tree .row[data-ref="desk/front"] .caret`)))
	waitRows(`#tree .kids .row`, clerkRefs(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11))
	// The sessions' level groups them, so the janitor among them shows.
	step("expand the sessions", chromedp.Click(chromedp.CSS(`#tree .row[data-ref="sessions/all"] .caret`)))
	step("the sessions' group", chromedp.WaitVisible(chromedp.CSS(`#tree .kids .group[data-kind="session"]`)))
	waitRows(`#tree .row[data-ref="sessions/all"] + .kids .row`, `sessions/all/janitor/main`)
	step("open the group", chromedp.Click(chromedp.CSS(`#tree .kids .group[data-kind="session"]`)))
	step("its first page", chromedp.WaitVisible(chromedp.CSS(`#tree .row[data-ref="sessions/all/session/s099"]`)))
	if n := eval(`String(document.querySelectorAll('#tree .row[data-ref^="sessions/all/session/"]').length)`); n != "100" {
		t.Fatalf("%s sessions on the group's first page, want 100", n)
	}
	// Filter by name: matches from anywhere in the tree, sorted.
	setFilter(`#tree-q`, "CLERK/1", "input")
	waitRows(`#tree > .row`, clerkRefs(1, 10, 11))
	if got := eval(`document.getElementById("tree-count").textContent`); got != "3 matches" {
		t.Fatalf("filter count %q", got)
	}
	// By kind.
	setFilter(`#tree-q`, "", "input")
	setFilter(`#tree-kind`, "janitor", "change")
	waitRows(`#tree > .row`, `sessions/all/janitor/main`)
	// No filter: the tree again, with the desk expanded for the picture.
	setFilter(`#tree-kind`, "", "change")
	waitRows(`#tree > .rows > .row`, topLevel)
	step("expand again", chromedp.Click(chromedp.CSS(`#tree .row[data-ref="desk/front"] .caret`)))
	waitRows(`#tree .kids .row`, clerkRefs(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11))
	// Dead letters arrive with their reasons.
	step("dead letters", chromedp.WaitVisible(chromedp.CSS(`#dead-list .dead`)))
	reasons := eval(`Array.from(document.querySelectorAll("#dead-list .dead .r")).map(e => e.textContent).join(",")`)
	if !strings.Contains(reasons, "not_found") && !strings.Contains(reasons, "unhandled") && !strings.Contains(reasons, "mailbox_full") {
		t.Fatalf("dead letter reasons %q", reasons)
	}
	// The page's own actions pass the cross-origin check: restart the
	// janitor (idle: it restarts only when asked) from its inspector.
	janitor := actor.NewRef("shop", "sessions", "all").Child("janitor", "main")
	restarted := make(chan struct{}, 1)
	defer a.sys.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Restarted && e.Actor == janitor {
			select {
			case restarted <- struct{}{}:
			default:
			}
		}
	})()
	eval(`window.confirm = () => true; inspect(` + jsString(janitor.Path()) + `, true); ""`)
	step("the janitor's actions", chromedp.WaitVisible(chromedp.Search(`//div[@id="inspect"]//button[text()="restart"]`)))
	step("restart", chromedp.Click(chromedp.Search(`//div[@id="inspect"]//button[text()="restart"]`)))
	select {
	case <-restarted:
	case <-ctx.Done():
		t.Fatalf("the page's restart of %s: no restart", janitor.Path())
	}
	// Inspect the pricer: the figures it reports itself show.
	step("inspect", chromedp.Click(chromedp.CSS(`#tree .row[data-ref="pricer/js"] a`)))
	step("own stats", chromedp.WaitVisible(chromedp.Search(`//div[@id="inspect"]//dt[text()="cache_bytes"]`)))
	step("plot", chromedp.WaitVisible(chromedp.CSS(`#rates svg polyline`)))
	shot()
}

// clerkRefs names the desk's clerks.
func clerkRefs(ids ...int) string {
	refs := make([]string, len(ids))
	for i, id := range ids {
		refs[i] = fmt.Sprintf("desk/front/clerk/%d", id)
	}
	return strings.Join(refs, " ")
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
