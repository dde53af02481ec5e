package shardmetrics_test

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/troupe-go/troupe/sharding/shardmetrics"
)

// Serve a node's sharding figures at /metrics, beside whatever else the
// program's registry holds.
func ExampleNewCollector() {
	c, stop, err := startNode("metrics-3") // a node whose "cart" has 2 active entities
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()
	reg := prometheus.NewRegistry()
	reg.MustRegister(shardmetrics.NewCollector(c))
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "troupe_sharding_entities{") {
			fmt.Println(lines.Text())
		}
	}
	// Output: troupe_sharding_entities{kind="cart",node="metrics-3"} 2
}
