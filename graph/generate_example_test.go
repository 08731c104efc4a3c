package graph_test

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/graph"
)

func ExampleGenerate() {
	spec, err := graph.DefaultGenSpec(graph.KindRMAT)
	if err != nil {
		panic(err)
	}
	spec.Scale, spec.EdgeFactor, spec.Seed = 10, 8, 42
	g, err := graph.Generate(spec)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Name)
	fmt.Println("V", g.NumVertices(), "E", g.NumEdges(), "dropped", g.SelfLoops+g.Duplicates)
	// Output:
	// rmat:scale=10,ef=8,a=0.57,b=0.19,c=0.19,seed=42,scramble=true,maxw=0,directed=false
	// V 1024 E 6050 dropped 2142
}

func ExampleLoad() {
	for _, spec := range []string{
		"line:n=5",
		"grid:rows=3,cols=4,drop=0,diag=0",
		"uniform:v=1000,d=8,seed=1",
		"layered:w=4,d=3,extra=1",
	} {
		g, err := graph.Load(spec, graph.ReadOptions{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-34s V=%d E=%d\n", spec, g.NumVertices(), g.NumEdges())
	}
	// Output:
	// line:n=5                           V=5 E=4
	// grid:rows=3,cols=4,drop=0,diag=0   V=12 E=17
	// uniform:v=1000,d=8,seed=1          V=1000 E=3982
	// layered:w=4,d=3,extra=1            V=12 E=26
}

func ExampleParseSpec() {
	s, err := graph.ParseSpec("rmat:scale=16")
	if err != nil {
		panic(err)
	}
	fmt.Println(s)
	_, err = graph.ParseSpec("rmat:sclae=16")
	fmt.Println(err)
	// Output:
	// rmat:scale=16,ef=16,a=0.57,b=0.19,c=0.19,seed=1,scramble=true,maxw=0,directed=false
	// rmat: unknown parameter "sclae" (valid: scale, ef, a, b, c, seed, scramble, maxw, directed)
}

func ExampleComputeStats() {
	g, err := graph.Load("grid:rows=3,cols=3,drop=0,diag=0", graph.ReadOptions{})
	if err != nil {
		panic(err)
	}
	st := graph.ComputeStats(g)
	fmt.Println(st.V, st.E, st.MinDeg, st.MaxDeg, st.Components)
	// Output:
	// 9 12 2 4 1
}
