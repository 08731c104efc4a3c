package kernel_test

import (
	"context"
	"fmt"
	"os"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// ExampleParse parses a small kernel and prints the sizes the performance
// model uses for a graph of a million vertices.
func ExampleParse() {
	src := `
name = "hops"
[layout]
vertex = [["hops", 16, "none"]]
update = [["hops", 16]]
[code]
init    = "hops = id == 0 ? 0 : none"
gather  = "hops = min(state.hops, msg.hops + 1)"
apply   = '''
send        = superstep == 0 ? id == 0 : 0
update.hops = state.hops
'''
`
	s, err := kernel.Parse("hops.toml", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	sz, _ := s.Sizes(kernel.VertexIDBits(1 << 20))
	fmt.Printf("m_vertex=%d m_update=%d m_edge=%d\n", sz.Vertex, sz.Update, sz.Edge)
	// Output: m_vertex=16 m_update=16 m_edge=21
}

// ExampleRun runs the built-in WCC kernel on a small graph with two
// components and prints the final states.
func ExampleRun() {
	b := graph.NewBuilder(5, false, false)
	b.AddEdge(0, 1, 0)
	b.AddEdge(1, 2, 0)
	b.AddEdge(3, 4, 0)
	g, _ := b.Build("two components")
	spec, _ := samples.Kernel("wcc")
	k, _ := spec.Bind(kernel.Env{Vertices: g.NumVertices()})
	res, _ := kernel.Run(context.Background(), k, g, kernel.RunOptions{})
	_ = res.WriteTSV(os.Stdout)
	fmt.Println("supersteps:", len(res.Supersteps), "messages:", res.Messages)
	// Output:
	// vertex	label	active
	// 0	0	0
	// 1	0	0
	// 2	0	0
	// 3	3	0
	// 4	3	0
	// supersteps: 4 messages: 11
}

// ExampleParse_error shows an error message: every error names the file,
// line and column.
func ExampleParse_error() {
	src := "name = \"bad\"\n[layout]\nvertex = [[\"x\", 8]]\nupdate = [[\"x\", 8]]\n[code]\ninit = \"x = 1\"\ngather = \"x = state.x + msg.y\"\napply = \"send = 1\\nupdate.x = state.x\"\n"
	_, err := kernel.Parse("bad.toml", []byte(src))
	fmt.Println(err)
	// Output: bad.toml:7:25: msg has no field y (fields: x)
}

// ExampleLoadDir loads a kernel folder from any fs.FS, here the embedded
// samples, and lists its parameters.
func ExampleLoadDir() {
	s, err := kernel.LoadDir(samples.FS(), "kernels/sssp")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range s.Params {
		fmt.Printf("%s (%s) = %s\n", p.Name, p.Kind, p.Default)
	}
	// Output:
	// root (vertex) = 0
	// weightsize (width) = 16
}
