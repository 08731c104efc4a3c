package explorer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/design"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
	"github.com/gravf-tui/gravf-tui/teps"
)

// The cost axes of a sweep's Pareto front.
const (
	CostFPGAs = "fpgas"
	CostPEs   = "pes"
	CostPrice = "price"
)

func parseCost(s string) (string, error) {
	switch s {
	case "", CostFPGAs:
		return CostFPGAs, nil
	case CostPEs, CostPrice:
		return s, nil
	}
	return "", fmt.Errorf("cost %q: want fpgas, pes or price", s)
}

// DesignPoint is one point of a sweep, every axis resolved.
type DesignPoint struct {
	Board       string            `json:"board"`
	Kernel      string            `json:"kernel"`
	Dataset     string            `json:"dataset"`
	Partitioner graph.Partitioner `json:"partitioner"`
	Arch        model.Arch        `json:"arch"`
	Mem         model.MemKind     `json:"mem"`
	PE          model.PEDesign    `json:"pe"`
	Packing     bool              `json:"packing"`
	Filter      bool              `json:"filter"`
	// FPGAs and PEs are the design's; 0 in the request means the
	// optimiser chose them.
	FPGAs int `json:"fpgas"`
	PEs   int `json:"pes"`
}

// PointResult is what a sweep found at one point.
type PointResult struct {
	Index int         `json:"index"`
	Point DesignPoint `json:"point"`
	// Fits is false when the design does not fit the platform (Problem
	// says why); such points have no throughput.
	Fits    bool         `json:"fits"`
	Problem string       `json:"problem,omitempty"`
	TSys    float64      `json:"tsys"`
	Binding string       `json:"binding,omitempty"`
	Limits  model.Limits `json:"limits"`
	Cost    float64      `json:"cost"`
	// Sim is the simulation of the point, when the sweep simulates.
	Sim *SimPoint `json:"sim,omitempty"`
}

// SimPoint is the simulator's figure for a point.
type SimPoint struct {
	TEPS       float64 `json:"teps"`
	Cycles     int64   `json:"cycles"`
	Supersteps int     `json:"supersteps"`
	// Efficiency is sim TEPS / model T_sys.
	Efficiency float64 `json:"efficiency"`
	Error      string  `json:"error,omitempty"`
}

// Throughput is the point's figure of merit: the simulated TEPS when there
// is one, else the model's T_sys.
func (p *PointResult) Throughput() float64 {
	if p.Sim != nil && p.Sim.Error == "" {
		return p.Sim.TEPS
	}
	return p.TSys
}

// SweepOutput is a sweep's result. Merging the outputs of all shards of a
// sweep gives the unsharded output exactly.
type SweepOutput struct {
	// Key identifies the sweep's inputs (the cells above, the grid and the
	// options); only parts with equal keys merge.
	Key      string `json:"key"`
	Grid     string `json:"grid"`
	Simulate bool   `json:"simulate"`
	Detail   string `json:"detail,omitempty"`
	Cost     string `json:"cost"`
	// Total is the number of points of the whole grid; Shard the slice
	// this output holds ("" when whole).
	Total  int           `json:"total"`
	Shard  string        `json:"shard,omitempty"`
	Points []PointResult `json:"points"`
	// Complete is false when the sweep was cancelled; Points then hold
	// what was finished.
	Complete bool `json:"complete"`
	Summary
}

// Summary is what a sweep concludes, computed from its points.
type Summary struct {
	// Best is the index of the point with the highest throughput (ties:
	// the lower cost, then the lower index); -1 when none fits.
	Best int `json:"best"`
	// Pareto lists the indices of the points no other point beats on both
	// throughput and cost, by rising cost.
	Pareto []int `json:"pareto"`
	// Disagree lists up to five simulated points whose efficiency is
	// farthest from 1, worst first.
	Disagree []int `json:"disagree,omitempty"`
	// MeanEfficiency is the mean sim/model over simulated points.
	MeanEfficiency float64 `json:"mean_efficiency,omitempty"`
}

// Point returns the result with index i.
func (o *SweepOutput) Point(i int) *PointResult {
	j, ok := slices.BinarySearchFunc(o.Points, i, func(p PointResult, i int) int { return p.Index - i })
	if !ok {
		return nil
	}
	return &o.Points[j]
}

func (e *evaluator) sweep(in *Sweep) (Output, error) {
	grid, err := ParseGrid(in.Grid)
	if err != nil {
		return nil, err
	}
	shard, err := ParseShard(in.Shard)
	if err != nil {
		return nil, err
	}
	cost, err := parseCost(in.Cost)
	if err != nil {
		return nil, err
	}
	detail := in.Detail
	po, ok := e.dep(KindPlatform).(*PlatformOutput)
	ko, ok2 := e.dep(KindKernel).(*KernelOutput)
	do, ok3 := e.dep(KindDataset).(*DatasetOutput)
	if !ok || !ok2 || !ok3 {
		return nil, errors.New("needs platform, kernel and dataset cells above it")
	}
	pin := e.job.steps[e.st.deps[KindPlatform]].in.(*Platform)
	kin := e.job.steps[e.st.deps[KindKernel]].in.(*Kernel)
	din := e.job.steps[e.st.deps[KindDataset]].in.(*Dataset)
	part := e.partitionInput()
	base := DesignPoint{Board: po.Board, Kernel: ko.Name, Dataset: din.Graph, Partitioner: part.Partitioner,
		Arch: pin.Arch, Mem: pin.Mem, PE: pin.PE, Packing: pin.Packing, Filter: pin.Filter, FPGAs: pin.FPGAs, PEs: pin.PEs}
	sw := &sweeper{e: e, grid: grid, base: base, cost: cost, detail: detail, simulate: in.Simulate,
		opts: *pin.Options(), board0: po.board, spec0: ko.spec, kernel0: *kin.Choice(), graph0: do.graph, dataset0: *din.Source(), part: part,
		workers: in.Workers, envs: map[string]*sweepEnv{}}
	key := sha256.Sum256([]byte(strings.Join([]string{e.depHash(KindPlatform), e.depHash(KindKernel), e.depHash(KindDataset),
		e.depHash(KindPartition), grid.String(), strconv.FormatBool(in.Simulate), string(detail), cost}, "\n")))
	sw.key = hex.EncodeToString(key[:16])
	out := &SweepOutput{Key: sw.key, Grid: grid.String(), Simulate: in.Simulate, Cost: cost, Total: grid.Size(), Complete: true}
	if in.Simulate {
		out.Detail = string(detail)
	}
	if shard.Count > 1 {
		out.Shard = shard.String()
	}
	var idx []int
	for i := range grid.Size() {
		if shard.Owns(i) {
			idx = append(idx, i)
		}
	}
	err = sw.run(e.ctx, idx, out)
	slices.SortFunc(out.Points, func(a, b PointResult) int { return a.Index - b.Index })
	out.Summary = summarise(out.Points)
	if err != nil {
		out.Complete = false
		return out, err
	}
	return out, nil
}

// sweeper evaluates the points of one sweep.
type sweeper struct {
	e        *evaluator
	grid     Grid
	base     DesignPoint
	cost     string
	detail   sim.Detail
	simulate bool
	workers  int
	cores    int // the cores each simulation may use (sim.Setup.Cores)
	key      string

	// opts are the platform cell's options, kernel0 and dataset0 the
	// cells' choices; board0, spec0 and graph0 what they loaded.
	opts     design.Options
	board0   *boards.Board
	spec0    *kernel.Spec
	kernel0  design.Kernel
	graph0   *graph.Graph
	dataset0 design.Dataset
	part     *Partition

	mu   sync.Mutex
	envs map[string]*sweepEnv
}

// sweepEnv is what points sharing board, kernel and dataset share.
type sweepEnv struct {
	once     sync.Once
	err      error
	board    *boards.Board
	kernel   *kernel.Kernel
	graph    *graph.Graph
	platform *model.Platform
	// workloads hold one workload per PE design (their cycles per edge
	// differ).
	workloads map[model.PEDesign]*model.Workload
}

func (s *sweeper) point(i int) DesignPoint {
	p := s.base
	for a, v := range s.grid.coords(i) {
		switch a {
		case AxisBoard:
			p.Board = v
		case AxisKernel:
			p.Kernel = v
		case AxisDataset:
			p.Dataset = v
		case AxisPartitioner:
			p.Partitioner = graph.Partitioner(v) // canonical: ParseGrid parsed it
		case AxisArch:
			p.Arch = model.Arch(v)
		case AxisMem:
			p.Mem = model.MemKind(v)
		case AxisPE:
			p.PE = model.PEDesign(v)
		case AxisPacking:
			p.Packing = v == "true"
		case AxisFilter:
			p.Filter = v == "true"
		case AxisFPGAs:
			p.FPGAs, _ = strconv.Atoi(v)
		case AxisPEs:
			p.PEs, _ = strconv.Atoi(v)
		}
	}
	return p
}

func (s *sweeper) env(p DesignPoint) (*sweepEnv, error) {
	key := p.Board + "\x00" + p.Kernel + "\x00" + p.Dataset
	s.mu.Lock()
	env, ok := s.envs[key]
	if !ok {
		env = &sweepEnv{}
		s.envs[key] = env
	}
	s.mu.Unlock()
	env.once.Do(func() { env.err = s.load(env, p) })
	return env, env.err
}

// load resolves what the points of one board, kernel and dataset share,
// through the same steps as the cells: the platform cell's overrides
// apply to every board, a kernel of the kernel axis takes its defaults.
func (s *sweeper) load(env *sweepEnv, p DesignPoint) error {
	dir := s.e.job.dir
	env.board = s.board0
	if p.Board != s.base.Board {
		o := s.opts
		o.Board, o.FPGAs = p.Board, 0 // the points check their own nF
		b, err := o.LoadBoard(dir)
		if err != nil {
			return err
		}
		env.board = b
	}
	kc, kspec := s.kernel0, s.spec0
	if p.Kernel != s.base.Kernel {
		kc = design.Kernel{Kernel: p.Kernel}
		sp, _, err := kc.Load(dir)
		if err != nil {
			return err
		}
		kspec = sp
	}
	env.graph = s.graph0
	if p.Dataset != s.base.Dataset {
		d := s.dataset0
		d.Graph = p.Dataset
		weighted, float := kspec.Weights()
		g, _, err := d.Load(s.e.ctx, dir, weighted, float, nil)
		if err != nil {
			return err
		}
		env.graph = g
	}
	k, err := kc.Bind(kspec, env.graph)
	if err != nil {
		return err
	}
	env.kernel = k
	pt, err := design.NewPoint(env.board, k, env.graph, s.opts)
	if err != nil {
		return err
	}
	env.platform = pt.Platform
	degrees := model.DegreeCounts(env.graph)
	env.workloads = map[model.PEDesign]*model.Workload{}
	for _, d := range []model.PEDesign{model.PEGenerated, model.PEPaper} {
		env.workloads[d] = newWorkload(env.platform, k, env.graph, d, s.opts.CPE, degrees)
	}
	return nil
}

// evaluate runs the model on point i.
func (s *sweeper) evaluate(i int) (PointResult, *sweepEnv) {
	p := s.point(i)
	r := PointResult{Index: i, Point: p}
	env, err := s.env(p)
	if err != nil {
		r.Problem = err.Error()
		return r, nil
	}
	cfg := model.Config{FPGAs: p.FPGAs, PEs: p.PEs, Arch: p.Arch, Mem: p.Mem, Packing: p.Packing, Filter: p.Filter}
	work := env.workloads[p.PE]
	pl := env.platform
	switch {
	case pl.MaxPEs > 0 && cfg.PEs > pl.MaxPEs:
		r.Problem = fmt.Sprintf("at most %d PEs fit one FPGA of %s", pl.MaxPEs, pl.Name)
		return r, env
	case pl.MaxFPGAs > 0 && cfg.FPGAs > pl.MaxFPGAs:
		r.Problem = fmt.Sprintf("%s has at most %d FPGAs", pl.Name, pl.MaxFPGAs)
		return r, env
	}
	var res model.Result
	if cfg.FPGAs == 0 || cfg.PEs == 0 {
		ch, err := model.Optimise(pl, work, cfg)
		if err != nil {
			r.Problem = err.Error()
			return r, env
		}
		res = ch.Best
	} else if res, err = model.Evaluate(pl, work, cfg); err != nil {
		r.Problem = err.Error()
		if res.Capacity.Problem != "" {
			r.Problem = res.Capacity.Problem
		}
		return r, env
	}
	r.Point.FPGAs, r.Point.PEs = res.FPGAs, res.PEs
	r.Fits, r.TSys, r.Binding, r.Limits = true, res.TSys, res.Binding, res.Limits
	switch s.cost {
	case CostPEs:
		r.Cost = float64(res.FPGAs * res.PEs)
	case CostPrice:
		r.Cost = float64(res.FPGAs) * env.board.PriceUSD
		if env.board.PriceUSD == 0 {
			r.Problem = fmt.Sprintf("board %s has no price_usd for the price axis", env.board.Name)
		}
	default:
		r.Cost = float64(res.FPGAs)
	}
	return r, env
}

// run evaluates the points idx into out: the model inline, the simulator
// on a bounded pool of workers. On cancellation it keeps every point that
// finished.
func (s *sweeper) run(ctx context.Context, idx []int, out *SweepOutput) error {
	total := int64(len(idx))
	results := make([]PointResult, len(idx))
	envs := make([]*sweepEnv, len(idx))
	for j, i := range idx {
		if j%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			s.e.progress(Progress{Done: int64(j), Total: total, Text: fmt.Sprintf("model: point %d of %d", j, total)})
		}
		results[j], envs[j] = s.evaluate(i)
	}
	if !s.simulate {
		out.Points = results
		return nil
	}
	workers := s.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > 1 {
		s.cores = 1 // the points run side by side, a core each
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int64
		next = make(chan int)
		have = make([]bool, len(idx))
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				sp, err := s.simulatePoint(ctx, &results[j], envs[j])
				mu.Lock()
				if err == nil || !isCancel(err) {
					results[j].Sim = sp
					have[j] = true
					done++
					s.e.progress(Progress{Done: done, Total: total, Text: fmt.Sprintf("simulated %d of %d points", done, total)})
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for j := range idx {
		if !results[j].Fits {
			mu.Lock()
			have[j] = true
			mu.Unlock()
			continue
		}
		select {
		case next <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	for j := range idx {
		if have[j] {
			out.Points = append(out.Points, results[j])
		}
	}
	return ctx.Err()
}

// simulatePoint runs (or finds in the cache) the simulation of a point.
func (s *sweeper) simulatePoint(ctx context.Context, r *PointResult, env *sweepEnv) (*SimPoint, error) {
	p := r.Point
	key := fmt.Sprintf("simpt:%s:%+v:%s", s.key, p, s.detail)
	return memo(s.e.job.cache, key, func() (*SimPoint, error) {
		res, err := sim.Run(ctx, &sim.Setup{Board: env.board, Kernel: env.kernel, Graph: env.graph, FPGAs: p.FPGAs, PEs: p.PEs,
			Arch: p.Arch, Mem: p.Mem, PE: p.PE, Partitioner: p.Partitioner, UFactor: s.part.UFactor, Packing: p.Packing, Filter: p.Filter,
			Seed: s.part.Seed, Detail: s.detail, Cores: s.cores})
		if err != nil {
			if isCancel(err) {
				return nil, err
			}
			return &SimPoint{Error: err.Error()}, nil
		}
		sp := &SimPoint{TEPS: res.TEPS, Cycles: res.Cycles, Supersteps: res.Supersteps}
		if r.TSys > 0 {
			sp.Efficiency = res.TEPS / r.TSys
		}
		return sp, nil
	})
}

// summarise computes the best point, the Pareto front and the largest
// disagreements from points sorted by index.
func summarise(points []PointResult) Summary {
	s := Summary{Best: -1, Pareto: []int{}}
	var fit []*PointResult
	for i := range points {
		if points[i].Fits && points[i].Throughput() > 0 && points[i].Problem == "" {
			fit = append(fit, &points[i])
		}
	}
	better := func(a, b *PointResult) bool {
		if a.Throughput() != b.Throughput() {
			return a.Throughput() > b.Throughput()
		}
		if a.Cost != b.Cost {
			return a.Cost < b.Cost
		}
		return a.Index < b.Index
	}
	var best *PointResult
	for _, p := range fit {
		if best == nil || better(p, best) {
			best = p
		}
	}
	if best != nil {
		s.Best = best.Index
	}
	byCost := slices.Clone(fit)
	slices.SortStableFunc(byCost, func(a, b *PointResult) int {
		switch {
		case a.Cost != b.Cost:
			return cmpFloat(a.Cost, b.Cost)
		case a.Throughput() != b.Throughput():
			return cmpFloat(b.Throughput(), a.Throughput())
		}
		return a.Index - b.Index
	})
	top := math.Inf(-1)
	for _, p := range byCost {
		if p.Throughput() > top {
			s.Pareto = append(s.Pareto, p.Index)
			top = p.Throughput()
		}
	}
	var sims []*PointResult
	sum := 0.0
	for _, p := range fit {
		if p.Sim != nil && p.Sim.Error == "" && p.Sim.Efficiency > 0 {
			sims = append(sims, p)
			sum += p.Sim.Efficiency
		}
	}
	if len(sims) > 0 {
		s.MeanEfficiency = sum / float64(len(sims))
		slices.SortStableFunc(sims, func(a, b *PointResult) int {
			if d := cmpFloat(math.Abs(1-b.Sim.Efficiency), math.Abs(1-a.Sim.Efficiency)); d != 0 {
				return d
			}
			return a.Index - b.Index
		})
		for _, p := range sims[:min(5, len(sims))] {
			s.Disagree = append(s.Disagree, p.Index)
		}
	}
	return s
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Merge joins the outputs of the shards of one sweep into the output of the
// unsharded sweep. Every part must come from the same sweep (equal keys)
// and every point must be present exactly once.
func Merge(parts []*SweepOutput) (*SweepOutput, error) {
	if len(parts) == 0 {
		return nil, errors.New("merge: no parts")
	}
	first := parts[0]
	out := &SweepOutput{Key: first.Key, Grid: first.Grid, Simulate: first.Simulate, Detail: first.Detail, Cost: first.Cost, Total: first.Total, Complete: true}
	seen := map[int]int{}
	for pi, p := range parts {
		if p.Key != first.Key || p.Grid != first.Grid || p.Total != first.Total {
			return nil, fmt.Errorf("merge: part %d is from another sweep (grid %q, key %s; want %q, %s)", pi+1, p.Grid, p.Key, first.Grid, first.Key)
		}
		if !p.Complete {
			return nil, fmt.Errorf("merge: part %d (shard %s) was cancelled before it finished", pi+1, p.Shard)
		}
		for _, pt := range p.Points {
			if prev, dup := seen[pt.Index]; dup {
				return nil, fmt.Errorf("merge: point %d is in parts %d and %d", pt.Index, prev+1, pi+1)
			}
			seen[pt.Index] = pi
			out.Points = append(out.Points, pt)
		}
	}
	if len(out.Points) != out.Total {
		var missing []string
		for i := 0; i < out.Total && len(missing) < 5; i++ {
			if _, ok := seen[i]; !ok {
				missing = append(missing, strconv.Itoa(i))
			}
		}
		return nil, fmt.Errorf("merge: %d of %d points present; missing %s...: is a shard absent?", len(out.Points), out.Total, strings.Join(missing, ", "))
	}
	slices.SortFunc(out.Points, func(a, b PointResult) int { return a.Index - b.Index })
	out.Summary = summarise(out.Points)
	return out, nil
}

// Text implements Output: the best point, the Pareto front, the largest
// disagreements of model and simulation, and the first points.
func (o *SweepOutput) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sweep %s: %d points", o.Grid, o.Total)
	if o.Shard != "" {
		fmt.Fprintf(&b, " (shard %s: %d)", o.Shard, len(o.Points))
	}
	if o.Simulate {
		fmt.Fprintf(&b, ", simulated at %s detail", o.Detail)
	}
	if !o.Complete {
		fmt.Fprintf(&b, ", cancelled after %d", len(o.Points))
	}
	fmt.Fprintf(&b, " (%s)\n", teps.GraVF.Label())
	if p := o.Point(o.Best); p != nil {
		fmt.Fprintf(&b, "best: %s\n", o.describe(p))
	}
	if len(o.Pareto) > 0 {
		fmt.Fprintf(&b, "Pareto front (throughput against %s):\n", o.Cost)
		for _, i := range o.Pareto {
			fmt.Fprintf(&b, "  %s\n", o.describe(o.Point(i)))
		}
	}
	if len(o.Disagree) > 0 {
		fmt.Fprintf(&b, "model against simulation: mean efficiency %.3f; farthest from 1:\n", o.MeanEfficiency)
		for _, i := range o.Disagree {
			p := o.Point(i)
			fmt.Fprintf(&b, "  %s: sim/model %.3f\n", o.describe(p), p.Sim.Efficiency)
		}
	}
	return b.String()
}

func (o *SweepOutput) describe(p *PointResult) string {
	var axes []string
	g, _ := ParseGrid(o.Grid)
	for _, a := range Axes {
		if !g.Has(a) || a == AxisFPGAs || a == AxisPEs {
			continue
		}
		v := map[string]string{AxisBoard: p.Point.Board, AxisKernel: p.Point.Kernel, AxisDataset: p.Point.Dataset, AxisPartitioner: string(p.Point.Partitioner),
			AxisArch: string(p.Point.Arch), AxisMem: string(p.Point.Mem), AxisPE: string(p.Point.PE), AxisPacking: strconv.FormatBool(p.Point.Packing), AxisFilter: strconv.FormatBool(p.Point.Filter)}[a]
		axes = append(axes, a+"="+v)
	}
	s := fmt.Sprintf("#%d %dx%d", p.Index, p.Point.FPGAs, p.Point.PEs)
	if len(axes) > 0 {
		s += " " + strings.Join(axes, " ")
	}
	s += fmt.Sprintf(": model %s (%s)", TEPS(p.TSys), p.Binding)
	if p.Sim != nil {
		if p.Sim.Error != "" {
			s += ", sim failed: " + p.Sim.Error
		} else {
			s += ", sim " + TEPS(p.Sim.TEPS)
		}
	}
	return s + fmt.Sprintf(", cost %g", p.Cost)
}
