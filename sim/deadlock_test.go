package sim

import (
	"context"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// TestDeadlockDiagnostic breaks a configuration on purpose (links that
// carry nothing) and checks that the run ends with a diagnostic naming
// the stuck units instead of hanging.
func TestDeadlockDiagnostic(t *testing.T) {
	g, err := graph.Load("uniform:v=200,d=6,seed=1", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := samples.Kernel("wcc")
	k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices()})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := boards.Get("ac510")
	for _, tc := range []struct {
		name string
		arch string
	}{{"gravf-m", "gravf-m"}, {"gravf", "gravf"}} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Setup{Board: b, Kernel: k, Graph: g, FPGAs: 2, PEs: 2, Mem: MemBRAM, Filter: true, Detail: Cycle}
			part, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 2, PEs: 2, Method: graph.Greedy})
			if err != nil {
				t.Fatal(err)
			}
			s.partition = part
			d, err := s.design()
			if err != nil {
				t.Fatal(err)
			}
			p := NewParams(d)
			p.PairWordsPerCycle = 0 // nothing ever crosses a link
			var runErr error
			if tc.arch == "gravf-m" {
				runErr = newMachine(s, p).run(context.Background())
			} else {
				runErr = newBaseline(s, p).run(context.Background())
			}
			if runErr == nil {
				t.Fatal("the run finished although no update can cross a link")
			}
			msg := runErr.Error()
			for _, want := range []string{"deadlock", "PE 3", "barriers counted"} {
				if !strings.Contains(msg, want) {
					t.Errorf("diagnostic lacks %q:\n%s", want, msg)
				}
			}
			if tc.arch == "gravf-m" && !strings.Contains(msg, "link 0->1: send") {
				t.Errorf("diagnostic does not name the links:\n%s", msg)
			}
		})
	}
}
