package graph_test

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gravf-tui/gravf-tui/graph"
)

// ExampleReadFile reads a small METIS file, whose format is detected from its
// content, and prints every vertex under the file's own 1-based ids.
func ExampleReadFile() {
	g, err := graph.ReadFile(filepath.Join("testdata", "read", "example.graph"), graph.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: V=%d E=%d directed=%v\n", g.Name, g.NumVertices(), g.NumEdges(), g.Directed)
	for v := range uint32(g.NumVertices()) {
		fmt.Printf("%d:", g.Label(v))
		for _, u := range g.Neighbors(v) {
			fmt.Printf(" %d", g.Label(u))
		}
		fmt.Println()
	}
	// Output:
	// example.graph: V=5 E=4 directed=false
	// 1: 2 3
	// 2: 1 3
	// 3: 1 2 4
	// 4: 3
	// 5:
}

// ExampleRead shows the error for a file that breaks its own header: it names
// the file and line, and, the format having been detected, how to force
// another.
func ExampleRead() {
	in := "% 3 vertices, 2 edges\n3 2\n2\n1 3\n4\n"
	_, err := graph.Read(strings.NewReader(in), "broken.graph", graph.ReadOptions{})
	fmt.Println(err)
	// Output:
	// broken.graph:5: neighbour 4 out of range 1..3 (read as metis, detected from the content; if the file is in another format, force it with --format edgelist|mtx|dimacs|adj)
}

// ExampleDetectFormat shows that the content decides, not the extension:
// both files end in .graph, as in the public repositories, but only the
// first is METIS.
func ExampleDetectFormat() {
	metis := "4 3\n2 3 4\n1\n1\n1\n" // header "n m", then one adjacency line per vertex
	edges := "258 1\n108 1\n406 1\n" // plain "u v" lines
	for _, head := range []string{metis, edges} {
		f, err := graph.DetectFormat("data.graph", []byte(head))
		fmt.Println(f, err)
	}
	// Output:
	// metis <nil>
	// edgelist <nil>
}
