package bench

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/gravf-tui/gravf-tui/graph"
)

const (
	// refGraph is the graph of the reference-engine and generation rows.
	refGraph = "rmat:scale=20,ef=16,seed=1"
	// simGraph is the graph of the simulator-rate and export rows.
	simGraph = "rmat:scale=18,ef=16,seed=1"
)

// graphRows times R-MAT generation with the CSR build (scale 20) against
// numpy reading the same CSR from disk, and the edge-list reader on R-MAT
// scale 18 written as a SNAP file against numpy parsing it and scipy
// building the same symmetric, deduplicated CSR.
func graphRows(ctx context.Context, e *env) ([]Row, error) {
	g, err := e.graph(refGraph)
	if err != nil {
		return nil, err
	}
	prefix, err := e.csr(refGraph)
	if err != nil {
		return nil, err
	}
	arcs := g.NumArcs()
	e.logf("graph: generation against numpy reading the CSR")
	gen, err := alternate(ctx, e.opt.Repeats,
		func(context.Context) (float64, error) {
			return timed(func() error {
				h, err := graph.Load(refGraph, graph.ReadOptions{})
				if err == nil && h.NumArcs() != arcs {
					err = fmt.Errorf("generated %d arcs, then %d", arcs, h.NumArcs())
				}
				return err
			})
		},
		func(ctx context.Context) (float64, error) {
			var r peerTime
			err := e.python(ctx, &r, "csr", prefix)
			return r.Seconds, err
		})
	if err != nil {
		return nil, err
	}
	rows := []Row{pairRow("graph/rmat20", "R-MAT generation + CSR, "+refGraph, "numpy reads the CSR from disk", gen,
		func(ours, _ float64) *Target { return &Target{Text: "< 2 s", Met: ours < 2} })}

	small, err := e.graph(simGraph)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(e.work, "rmat18.txt")
	if err := writeEdgeList(file, small); err != nil {
		return nil, err
	}
	want := small.NumArcs()
	e.logf("graph: reading %s against numpy and scipy", file)
	read, err := alternate(ctx, e.opt.Repeats,
		func(context.Context) (float64, error) {
			return timed(func() error {
				h, err := graph.ReadFile(file, graph.ReadOptions{})
				if err == nil && h.NumArcs() != want {
					err = fmt.Errorf("read %d arcs, wrote %d", h.NumArcs(), want)
				}
				return err
			})
		},
		func(ctx context.Context) (float64, error) {
			var r struct {
				peerTime
				Arcs int `json:"arcs"`
			}
			err := e.python(ctx, &r, "read", file)
			if err == nil && r.Arcs != want {
				err = fmt.Errorf("scipy built %d arcs, the graph has %d", r.Arcs, want)
			}
			return r.Seconds, err
		})
	if err != nil {
		return nil, err
	}
	rows = append(rows, pairRow("graph/read-edgelist", "edge-list reader, "+simGraph+" as a SNAP file", "numpy parses, scipy builds the CSR", read, nil))
	return rows, nil
}

// pairRow makes the row of a timed comparison: samples[0] are ours,
// samples[1] the peer's, in seconds.
func pairRow(id, what, peer string, samples [][]float64, target func(ours, peer float64) *Target) Row {
	ours, theirs := median(samples[0]), median(samples[1])
	r := Row{ID: id, What: what, Value: ours, Unit: "s", Samples: samples[0],
		Peer: &Peer{Name: peer, Value: theirs, Unit: "s", Samples: samples[1], Speedup: theirs / ours}}
	if target != nil {
		r.Target = target(ours, theirs)
	}
	return r
}
