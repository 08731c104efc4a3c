package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Partitioner names a strategy for distributing vertices over the PEs of a
// multi-FPGA system. The choice decides both the load balance of the PEs
// (which bounds L_PE in practice) and how much traffic crosses FPGAs (which
// the network limits and the update filter depend on).
type Partitioner string

// The partitioners of the paper (SPEC §2, Partitioning).
const (
	// Robin places vertex v on PE v mod (FPGAs*PEs). It balances vertex
	// counts, and so the apply sweep, but ignores edges.
	Robin Partitioner = "robin"
	// Greedy walks the vertices in input order, without sorting, and puts
	// each on the PE with the lowest running edge count (out-degree sum),
	// ties going to the lowest PE index. It is the paper's default because
	// it balances scatter work in one pass.
	Greedy Partitioner = "greedy"
	// GreedySorted applies the Greedy rule to the vertices in descending
	// out-degree order (ties by id). It is not in the paper: on graphs whose
	// hubs come late in the input (scrambled R-MAT, the fpgagraphlib
	// files) input-order greedy leaves a few percent of imbalance, and
	// placing the heaviest vertices first removes it.
	GreedySorted Partitioner = "greedy-sorted"
	// METIS splits the vertices over the FPGAs with the external gpmetis
	// tool (balanced by out-degree) to cut inter-FPGA traffic, then applies
	// the Greedy rule inside each FPGA.
	METIS Partitioner = "metis"
)

// Partitioners lists the partitioners in the order menus and help text show
// them; the first is the default.
var Partitioners = []Partitioner{Greedy, GreedySorted, Robin, METIS}

// ParsePartitioner turns a user's spelling (command-line flag, notebook
// cell) into a Partitioner, so that every front end accepts the same names.
// It is case-insensitive; the empty string selects the default, Greedy.
// "round-robin", "roundrobin" and "rr" mean Robin, "greedy-edge" means
// Greedy and "gpmetis" means METIS.
func ParsePartitioner(s string) (Partitioner, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "greedy", "greedy-edge":
		return Greedy, nil
	case "robin", "round-robin", "roundrobin", "rr":
		return Robin, nil
	case "greedy-sorted", "sorted":
		return GreedySorted, nil
	case "metis", "gpmetis":
		return METIS, nil
	}
	return "", fmt.Errorf("unknown partitioner %q (want robin, greedy, greedy-sorted or metis)", s)
}

// UnmarshalText reads a notebook, JSON or flag value with
// ParsePartitioner.
func (p *Partitioner) UnmarshalText(b []byte) error {
	v, err := ParsePartitioner(string(b))
	if err == nil {
		*p = v
	}
	return err
}

// MaxPEs is the largest number of PEs in a system (FPGAs*PEs): a global PE
// index is stored in 16 bits, which is also plenty for the id field of the
// on-chip network.
const MaxPEs = math.MaxUint16

// PartitionOptions describes the target system and the partitioning method.
type PartitionOptions struct {
	// FPGAs is nF, the number of FPGAs (at least 1).
	FPGAs int
	// PEs is nP, the number of PEs per FPGA (at least 1).
	PEs int
	// Method selects the partitioner; empty means Greedy.
	Method Partitioner
	// UFactor is gpmetis' allowed load imbalance in thousandths (the
	// partition may exceed the ideal weight by UFactor/1000). 0 selects the
	// paper's value, 1. Only METIS uses it.
	UFactor int
	// Seed seeds gpmetis, so that a METIS partition is reproducible; only
	// its low 31 bits are passed, as METIS takes a C int. Robin and Greedy
	// are deterministic and ignore it.
	Seed uint64
	// GPMetis is the gpmetis executable: a path, or a name looked up in
	// PATH. Empty means "gpmetis".
	GPMetis string
}

// Partition assigns every vertex to a PE of a system of FPGAs*PEs PEs, and
// numbers the vertices inside each PE. Global PE index = fpga*PEs + local
// PE, so that PE ranges of one FPGA are contiguous, as the crossbar and the
// generated tops expect.
type Partition struct {
	// FPGAs and PEs are nF and nP.
	FPGAs, PEs int
	// Method is the partitioner that produced the assignment.
	Method Partitioner
	// PE holds the global PE of each vertex.
	PE []uint16
	// Local holds the index of each vertex within its PE, its rank among
	// that PE's vertices by id. The hardware addresses vertex state by this
	// index (the original code base packs pe and local index into one id).
	Local []uint32
	// Members lists the vertices of each global PE, ascending by Local
	// (which is also ascending by vertex id). Members[pe][Local[v]] == v.
	Members [][]uint32
}

// NumPEs returns FPGAs*PEs, the number of global PEs: the range of PE values
// and the length of Members.
func (p *Partition) NumPEs() int { return p.FPGAs * p.PEs }

// FPGA returns the FPGA that holds vertex v; the network and the update
// filter reason in FPGAs, not PEs.
func (p *Partition) FPGA(v uint32) int { return int(p.PE[v]) / p.PEs }

// FPGAOfPE returns the FPGA of a global PE index.
func (p *Partition) FPGAOfPE(pe int) int { return pe / p.PEs }

// NewPartition partitions g for the system opt describes. Robin and Greedy
// are pure functions of g and the sizes. METIS runs the external gpmetis
// tool, which ctx can cancel; it is the only method that can fail for a
// reason other than invalid options.
func NewPartition(ctx context.Context, g *Graph, opt PartitionOptions) (*Partition, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	method := opt.Method
	if method == "" {
		method = Greedy
	}
	p := &Partition{FPGAs: opt.FPGAs, PEs: opt.PEs, Method: method}
	n := g.NumVertices()
	if n > 0 && opt.FPGAs > n {
		return nil, optionErrorf("partition: %d FPGAs for %d vertices: %d FPGAs would hold no vertex; use at most %d", opt.FPGAs, n, opt.FPGAs-n, n)
	}
	p.PE = make([]uint16, n)
	switch method {
	case Robin:
		total := uint32(p.NumPEs())
		for v := range p.PE {
			p.PE[v] = uint16(uint32(v) % total)
		}
	case Greedy:
		if err := greedyAssign(ctx, g, p.PE, nil, 1, p.NumPEs(), nil); err != nil {
			return nil, err
		}
	case GreedySorted:
		order := make([]uint32, n)
		for v := range order {
			order[v] = uint32(v)
		}
		slices.SortStableFunc(order, func(a, b uint32) int { return g.OutDegree(b) - g.OutDegree(a) })
		if err := greedyAssign(ctx, g, p.PE, nil, 1, p.NumPEs(), order); err != nil {
			return nil, err
		}
	case METIS:
		if err := metisAssign(ctx, g, p, opt); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("partition: unknown method %q (want robin, greedy, greedy-sorted or metis)", method)
	}
	p.number()
	return p, nil
}

// OptionError is an error in what a partition was asked for (sizes that
// cannot work), as opposed to a failure of gpmetis or a cancellation.
type OptionError struct{ Msg string }

func (e *OptionError) Error() string { return e.Msg }

func optionErrorf(format string, args ...any) error {
	return &OptionError{fmt.Sprintf(format, args...)}
}

// validate checks the system size before any work is done.
func (opt PartitionOptions) validate() error {
	if opt.FPGAs < 1 {
		return optionErrorf("partition: need at least 1 FPGA, got %d", opt.FPGAs)
	}
	if opt.PEs < 1 {
		return optionErrorf("partition: need at least 1 PE per FPGA, got %d", opt.PEs)
	}
	if opt.FPGAs > MaxPEs || opt.PEs > MaxPEs || opt.FPGAs*opt.PEs > MaxPEs {
		return optionErrorf("partition: %d FPGAs x %d PEs exceed the limit of %d PEs in total", opt.FPGAs, opt.PEs, MaxPEs)
	}
	if opt.UFactor < 0 {
		return optionErrorf("partition: ufactor must be >= 0, got %d", opt.UFactor)
	}
	return nil
}

// number fills Local and Members from PE, numbering each PE's vertices in
// id order.
func (p *Partition) number() {
	count := make([]uint32, p.NumPEs())
	p.Local = make([]uint32, len(p.PE))
	for v, pe := range p.PE {
		p.Local[v] = count[pe]
		count[pe]++
	}
	backing := make([]uint32, len(p.PE))
	p.Members = make([][]uint32, len(count))
	start := 0
	for pe, c := range count {
		p.Members[pe] = backing[start : start : start+int(c)]
		start += int(c)
	}
	for v, pe := range p.PE {
		p.Members[pe] = append(p.Members[pe], uint32(v))
	}
}

// errCheckEvery is how many vertices the partitioners handle between two
// looks at ctx, so that a huge graph can be cancelled without slowing the
// loop down.
const errCheckEvery = 1 << 20

// greedyAssign applies the greedy edge rule. With fpga == nil it chooses
// among all groups*per PEs; otherwise vertex v may only go to one of the per
// PEs of group fpga[v] (the METIS second stage). Vertices are taken in id
// order, or in the given order.
func greedyAssign(ctx context.Context, g *Graph, pe []uint16, fpga []int32, groups, per int, order []uint32) error {
	heaps := make([]loadHeap, groups)
	for f := range heaps {
		h := make(loadHeap, per)
		for i := range h {
			// Equal loads in ascending PE order already form a heap.
			h[i] = peLoad{pe: uint16(f*per + i)}
		}
		heaps[f] = h
	}
	for i := range pe {
		v := i
		if order != nil {
			v = int(order[i])
		}
		if i%errCheckEvery == errCheckEvery-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		h := heaps[0]
		if fpga != nil {
			h = heaps[fpga[v]]
		}
		pe[v] = h[0].pe
		if d := uint64(g.Offsets[v+1] - g.Offsets[v]); d > 0 {
			h[0].load += d
			h.down(0)
		}
	}
	return nil
}

// peLoad is one PE's running edge count.
type peLoad struct {
	load uint64
	pe   uint16
}

// loadHeap is a binary min-heap of PEs keyed (load, pe), so the top is the
// least loaded PE and, among equals, the lowest index.
type loadHeap []peLoad

func (h loadHeap) less(i, j int) bool {
	if h[i].load != h[j].load {
		return h[i].load < h[j].load
	}
	return h[i].pe < h[j].pe
}

// down restores the heap after h[i] grew.
func (h loadHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// ErrNoGPMetis is returned (wrapped, together with the exec error) by
// NewPartition with Method METIS when the gpmetis executable cannot be found,
// so that front ends can test for it with errors.Is and offer another
// partitioner instead of showing a raw exec error.
var ErrNoGPMetis = errors.New("metis partitioning needs gpmetis (Debian package metis)")
