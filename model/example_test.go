package model_test

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
)

// ExampleEvaluate evaluates WCC on the paper's 4 x AC-510 platform with 9
// PEs per FPGA and prints every limit.
func ExampleEvaluate() {
	b, _ := boards.Get("ac510")
	p, _ := model.FromBoard(b, "")
	g, _ := graph.Load("uniform:v=65536,d=32,seed=1", graph.ReadOptions{})
	spec, _ := samples.Kernel("wcc")
	k, _ := spec.Bind(kernel.Env{Vertices: g.NumVertices()})
	cpe, src := p.KernelCPE("wcc")
	w := model.NewWorkload(k, g, cpe, src, nil)

	r, err := model.Evaluate(p, w, model.Config{FPGAs: 4, PEs: 9, Filter: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	r.Limits.Each(func(name string, teps float64) {
		fmt.Printf("%-3s %6.0f MTEPS\n", name, teps/1e6)
	})
	fmt.Printf("T_sys %.0f MTEPS, bound by %s\n", r.TSys/1e6, model.LimitTitle(r.Binding))
	// Output:
	// pe    6429 MTEPS
	// mem   8234 MTEPS
	// if   16752 MTEPS
	// T_sys 6429 MTEPS, bound by the PEs
}

// ExampleOptimise lets the optimiser choose nF and nP for a sparse graph,
// where the network interface binds.
func ExampleOptimise() {
	b, _ := boards.Get("ac510")
	p, _ := model.FromBoard(b, "")
	g, _ := graph.Load("uniform:v=65536,d=2,seed=1", graph.ReadOptions{})
	spec, _ := samples.Kernel("wcc")
	k, _ := spec.Bind(kernel.Env{Vertices: g.NumVertices()})
	cpe, src := p.KernelCPE("wcc")
	ch, _ := model.Optimise(p, model.NewWorkload(k, g, cpe, src, nil), model.Config{})
	for _, pt := range ch.Curve {
		fmt.Printf("%d FPGAs: %5.0f MTEPS (%s)\n", pt.FPGAs, pt.TSys/1e6, pt.Binding)
	}
	fmt.Printf("chosen: %d x %d\n", ch.Best.FPGAs, ch.Best.PEs)
	// Output:
	// 1 FPGAs:  1600 MTEPS (mem)
	// 2 FPGAs:   750 MTEPS (if)
	// 3 FPGAs:  1125 MTEPS (if)
	// 4 FPGAs:  1047 MTEPS (if)
	// chosen: 1 x 9
}
