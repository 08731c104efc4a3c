package kernel

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/gravf-tui/gravf-tui/graph"
)

// RunOptions controls the BSP reference engine.
type RunOptions struct {
	// MaxSupersteps stops a run that has not converged; 0 means
	// DefaultMaxSupersteps. Reaching it is an error (*LimitError), returned
	// with the partial result.
	MaxSupersteps int
	// Progress, when set, is called after every superstep.
	Progress func(s Superstep)
	// Senders, when set, is called after every apply sweep with the
	// vertices that issued an update, in ascending order (the slice is
	// reused: copy what you keep). Timing models hang their per-superstep
	// accounting on it.
	Senders func(superstep int, senders []uint32)
}

// DefaultMaxSupersteps is the superstep limit of a run that sets none:
// max(1000, V+2), enough for any monotone kernel (BFS, WCC, SSSP on a line
// of V vertices needs V+1 supersteps), so that only a kernel that never
// stops sending reaches it. The reference engine, both simulators and the
// notebooks share it.
func DefaultMaxSupersteps(vertices int) int { return max(1000, vertices+2) }

// LimitError is the error of a run that reached its superstep limit before
// the kernel converged (some vertex still sent an update in the last
// superstep allowed). The run's partial result comes with it.
type LimitError struct {
	Limit int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("the kernel did not converge within the superstep limit of %d (vertices still send updates in superstep %d)", e.Limit, e.Limit-1)
}

// Superstep is what one superstep did.
type Superstep struct {
	Index int `json:"superstep"`
	// Active counts the vertices that issued an update (at most one each).
	Active int `json:"active"`
	// Messages counts the messages produced by scatter: the traversed edges.
	Messages int64 `json:"messages"`
}

// Result is the outcome of a reference run.
type Result struct {
	Kernel *Kernel
	Graph  *graph.Graph
	// States holds Fields values per vertex, vertex after vertex, in the
	// order of the vertex layout. f32 fields hold their IEEE bits.
	States []uint64
	Fields int
	// Supersteps lists every superstep, including the last one, in which no
	// vertex sent an update (unless the run stopped at MaxSupersteps).
	Supersteps []Superstep
	// Messages is the total of traversed edges, the numerator of TEPS.
	Messages int64
	// Converged is false when the run stopped at MaxSupersteps (Run then
	// returns a *LimitError too).
	Converged bool
	// Saturated counts the satadd sums that did not fit their width (see
	// the package doc): a field too narrow for the values it would hold.
	Saturated int64
}

// State returns the state of vertex v; it aliases Result.States.
func (r *Result) State(v uint32) []uint64 {
	return r.States[int(v)*r.Fields : int(v)*r.Fields+r.Fields]
}

// EdgeData checks that a graph's weights can fill the edge fields of a
// kernel: the first edge field gets the weight, others 0. Integer fields
// take integer weights that fit them, f32 fields float weights
// (graph.ReadOptions.FloatWeights; Spec.Weights says which a kernel needs).
func EdgeData(k *Kernel, g *graph.Graph) error {
	if len(k.Checked.EdgeT) == 0 || g.Weights == nil {
		return nil
	}
	t := k.Checked.EdgeT[0]
	f := k.Spec.Edge[0].Name
	switch {
	case t.Float && !g.FloatWeights:
		return fmt.Errorf("kernel %s: edge field %s is f32 but the graph's weights are integers; read the graph with float weights", k.Spec.Name, f)
	case !t.Float && g.FloatWeights:
		return fmt.Errorf("kernel %s: edge field %s is %s but the graph's weights are f32; read the graph with integer weights", k.Spec.Name, f, t)
	case t.Float:
		return nil
	}
	m := t.Mask()
	for _, w := range g.Weights {
		if uint64(w) > m {
			return fmt.Errorf("kernel %s: edge weight %d does not fit edge field %s (%s); widen it (for example --param weightsize=32)",
				k.Spec.Name, w, f, t)
		}
	}
	return nil
}

// UnitEdge returns the value of the first edge field for an edge of an
// unweighted graph: weight 1, as an integer or as f32.
func UnitEdge(k *Kernel) uint64 {
	if len(k.Checked.EdgeT) > 0 && k.Checked.EdgeT[0].Float {
		return uint64(math.Float32bits(1))
	}
	return 1
}

// Run executes the kernel on g in supersteps, exactly as the programming
// model defines them: init every vertex; then, in superstep s, apply sweeps
// every vertex (superstep = s), and the updates it issues are scattered
// along every out-edge and gathered at the destinations (superstep = s+1,
// the superstep that receives them). The run ends after the first
// superstep in which no vertex sends; a run that reaches
// opt.MaxSupersteps first returns its partial result with a *LimitError.
//
// Senders are processed in ascending id order and their edges in adjacency
// order, which fixes the summation order of f32 kernels.
//
// The programs run in batch form (vector.go) on up to GOMAXPROCS workers:
// apply sweeps a range of vertices per worker, which keeps its senders;
// scatter and gather split the destinations into the same ranges, and
// every worker walks all senders in ascending order (range after range),
// taking only its own part of each (sorted) neighbour list. Every vertex
// therefore receives its messages in exactly the order above, whatever the
// number of workers, and the result is the same bit for bit.
func Run(ctx context.Context, k *Kernel, g *graph.Graph, opt RunOptions) (*Result, error) {
	if k.Vertices != g.NumVertices() {
		return nil, fmt.Errorf("kernel %s was bound to %d vertices but the graph has %d", k.Spec.Name, k.Vertices, g.NumVertices())
	}
	if err := EdgeData(k, g); err != nil {
		return nil, err
	}
	n := g.NumVertices()
	res := &Result{Kernel: k, Graph: g, Fields: len(k.Checked.VertexT)}
	maxSteps := opt.MaxSupersteps
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSupersteps(n)
	}
	e := newEngine(k, g)
	e.parallel(func(w *worker) { w.init(e) })
	var senders []uint32
	for s := 0; s < maxSteps; s++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e.parallel(func(w *worker) { w.apply(e, s) })
		var msgs int64
		active := 0
		for _, w := range e.workers {
			msgs += w.msgs
			active += len(w.senders)
		}
		// Pull and push read every worker's own senders, updates and
		// messages (the workers' ranges in order are the ids in order);
		// only the caller reads the senders concatenated.
		pull := e.fold != nil && float64(msgs) >= pullFraction*float64(g.NumArcs())
		if opt.Senders != nil {
			senders = senders[:0]
			for _, w := range e.workers {
				senders = append(senders, w.senders...)
			}
		}
		e.foldGlobals()
		if opt.Senders != nil {
			opt.Senders(s, senders)
		}
		st := Superstep{Index: s, Active: active, Messages: msgs}
		res.Supersteps = append(res.Supersteps, st)
		res.Messages += msgs
		if opt.Progress != nil {
			opt.Progress(st)
		}
		if active == 0 {
			res.Converged = true
			e.result(res)
			return res, nil
		}
		if pull {
			e.pull()
		} else {
			e.parallel(func(w *worker) {
				for _, from := range e.workers {
					w.scatterGather(e, s+1, from.senders, from.updates, from.messages)
				}
			})
		}
	}
	e.result(res)
	return res, &LimitError{Limit: maxSteps}
}

// result gives res the final states, allocated only once the run is over
// and the workers' last senders are dropped: while it runs the engine's
// fields are the only copy (at a million vertices of two fields, 16 MB
// that a caller running beside the engine, as fast detail does, would
// hold twice).
func (e *engine) result(res *Result) {
	for _, w := range e.workers {
		w.senders, w.updates, w.messages = nil, nil, nil
	}
	res.States = make([]uint64, e.g.NumVertices()*res.Fields)
	e.states(res.States)
	res.Saturated = e.saturated()
}

// WriteTSV writes the final states as the `ref` command prints them: a
// header "vertex<TAB><field>...", then one row per vertex under the input's
// labels. Vertex-id fields print labels, "none" values print '-', and f32
// fields print with %.9g.
func (r *Result) WriteTSV(w io.Writer) error {
	s := r.Kernel.Spec
	ts := r.Kernel.Checked.VertexT
	buf := make([]byte, 0, 1<<16)
	buf = append(buf, "vertex"...)
	for _, f := range s.Vertex {
		buf = append(buf, '\t')
		buf = append(buf, f.Name...)
	}
	buf = append(buf, '\n')
	n := r.Graph.NumVertices()
	for v := 0; v < n; v++ {
		buf = strconv.AppendUint(buf, r.Graph.Label(uint32(v)), 10)
		st := r.State(uint32(v))
		for i, t := range ts {
			buf = append(buf, '\t')
			buf = AppendValue(buf, st[i], t, s.Vertex[i].None, r.Graph)
		}
		buf = append(buf, '\n')
		if len(buf) > 1<<15 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

// AppendValue formats one field value for reports: vertex ids as the
// graph's labels ('-' when not a vertex), f32 with %.9g, other integers in
// decimal, and the all-ones value of a "none" field as '-'.
func AppendValue(buf []byte, v uint64, t Type, none bool, g *graph.Graph) []byte {
	switch {
	case t.Float:
		return strconv.AppendFloat(buf, float64(math.Float32frombits(uint32(v))), 'g', 9, 32)
	case t.VID:
		if g == nil {
			return strconv.AppendUint(buf, v, 10)
		}
		if v >= uint64(g.NumVertices()) {
			return append(buf, '-')
		}
		return strconv.AppendUint(buf, g.Label(uint32(v)), 10)
	case none && v == t.Mask():
		return append(buf, '-')
	}
	return strconv.AppendUint(buf, v, 10)
}
