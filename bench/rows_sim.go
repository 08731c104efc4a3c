package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

// rtlGraph is the graph of the Verilator comparison: large enough that a
// run is dominated by simulation rather than by loading the memory
// images, small enough for Verilator to finish in seconds.
const rtlGraph = "rmat:scale=14,ef=16,seed=1"

// design is one simulated configuration.
type design struct {
	kernel      string
	fpgas, pes  int
	targetCycle float64 // the speedup over Verilator to reach; 0: none
	targetFast  float64
}

func (d design) name() string { return fmt.Sprintf("%s-%dx%d", d.kernel, d.fpgas, d.pes) }

// setup is the simulator's configuration of a design (edges off-chip,
// GraVF-M with the filter, the generated PE: what export builds).
func (d design) setup(b *boards.Board, k *kernel.Kernel, g *graph.Graph, detail sim.Detail) *sim.Setup {
	return &sim.Setup{Board: b, Kernel: k, Graph: g, FPGAs: d.fpgas, PEs: d.pes, Mem: model.OffChip, Filter: true, Detail: detail}
}

// simOnce runs the simulator once and returns its wall time and result.
func simOnce(ctx context.Context, s *sim.Setup) (float64, *sim.Result, error) {
	var r *sim.Result
	t, err := timed(func() (err error) {
		c := *s
		r, err = sim.Run(ctx, &c)
		return err
	})
	return t, r, err
}

// simRateRows reports simulated messages per wall-clock second on R-MAT
// scale 18, 4 x 9 off-chip, WCC and PR, at both levels of detail.
func simRateRows(ctx context.Context, e *env) ([]Row, error) {
	g, err := e.graph(simGraph)
	if err != nil {
		return nil, err
	}
	b, err := boards.Get("ac510")
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, kn := range []string{"wcc", "pr"} {
		k, err := bind(kn, g, nil)
		if err != nil {
			return nil, err
		}
		d := design{kernel: kn, fpgas: 4, pes: 9}
		var msgs [2]int64
		e.logf("simrate: %s, cycle and fast detail", d.name())
		n := max(1, min(e.opt.Repeats, 3))
		samples, err := alternate(ctx, n,
			func(ctx context.Context) (float64, error) {
				t, r, err := simOnce(ctx, d.setup(b, k, g, sim.Cycle))
				if err == nil {
					msgs[0] = r.Messages
				}
				return t, err
			},
			func(ctx context.Context) (float64, error) {
				t, r, err := simOnce(ctx, d.setup(b, k, g, sim.Fast))
				if err == nil {
					msgs[1] = r.Messages
				}
				return t, err
			})
		if err != nil {
			return nil, err
		}
		for i, det := range []struct {
			detail string
			target float64
		}{{"cycle", 10}, {"fast", 100}} {
			rate := make([]float64, len(samples[i]))
			for j, t := range samples[i] {
				rate[j] = float64(msgs[i]) / t / 1e6
			}
			m := median(rate)
			rows = append(rows, Row{ID: "simrate/" + kn + "-" + det.detail, What: fmt.Sprintf("sim --detail %s, %s 4 x 9 on %s", det.detail, kn, simGraph),
				Value: m, Unit: "M msg/s", Samples: rate, Target: &Target{Text: fmt.Sprintf(">= %.0f M msg/s", det.target), Met: m >= det.target},
				Notes: []string{fmt.Sprintf("%d messages, %.2f s per run", msgs[i], median(samples[i]))}})
		}
	}
	return rows, nil
}

var rtlResult = regexp.MustCompile(`RESULT PASS cycles=(\d+) messages=(\d+)`)

// verilatorRows exports each design, builds it with Verilator (the
// compile time is reported apart) and times the compiled testbench, cycle
// detail and fast detail alternately.
func verilatorRows(ctx context.Context, e *env) ([]Row, error) {
	g, err := e.graph(rtlGraph)
	if err != nil {
		return nil, err
	}
	b, err := boards.Get("ac510")
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, d := range []design{
		{kernel: "wcc", fpgas: 2, pes: 2},
		{kernel: "wcc", fpgas: 4, pes: 9, targetCycle: 10, targetFast: 100},
		{kernel: "pr", fpgas: 4, pes: 9, targetCycle: 10, targetFast: 100},
	} {
		r, err := e.verilatorDesign(ctx, b, g, d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.name(), err)
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

func (e *env) verilatorDesign(ctx context.Context, b *boards.Board, g *graph.Graph, d design) ([]Row, error) {
	k, err := bind(d.kernel, g, nil)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(e.work, "rtl-"+d.name())
	e.logf("verilator: exporting %s on %s", d.name(), rtlGraph)
	if _, err := gen.Export(ctx, gen.ExportOptions{Board: b, Kernel: k, Graph: g, FPGAs: d.fpgas, PEs: d.pes, Filter: true, Mem: model.OffChip, Dir: dir, Force: true}); err != nil {
		return nil, err
	}
	e.logf("verilator: building %s (make sim-verilator)", d.name())
	build, err := runProc(ctx, dir, "make", "-s", "sim-verilator")
	if err != nil {
		return nil, err
	}
	var rtlCycles, simCycles int64
	tb := filepath.Join(dir, "build", "verilator", "tb_system")
	e.logf("verilator: timing %s: Verilator, cycle, fast", d.name())
	samples, err := alternate(ctx, e.opt.Repeats,
		func(ctx context.Context) (float64, error) {
			p, err := runProc(ctx, dir, tb)
			if err != nil {
				return 0, err
			}
			m := rtlResult.FindSubmatch(p.stdout)
			if m == nil {
				return 0, fmt.Errorf("no RESULT PASS from %s:\n%s", tb, tail(p.stdout, 10))
			}
			rtlCycles, _ = strconv.ParseInt(string(m[1]), 10, 64)
			return p.wall, nil
		},
		func(ctx context.Context) (float64, error) {
			t, r, err := simOnce(ctx, d.setup(b, k, g, sim.Cycle))
			if err == nil {
				simCycles = r.Cycles
			}
			return t, err
		},
		func(ctx context.Context) (float64, error) {
			t, _, err := simOnce(ctx, d.setup(b, k, g, sim.Fast))
			return t, err
		})
	if err != nil {
		return nil, err
	}
	veri := median(samples[0])
	notes := []string{
		fmt.Sprintf("Verilator: build %.0f s (make sim-verilator, one run included), run %.2f s", build.wall-veri, veri),
		fmt.Sprintf("RTL %d cycles, cycle detail %d (%+.2f %%)", rtlCycles, simCycles, 100*(float64(simCycles)/float64(rtlCycles)-1)),
	}
	row := func(detail string, s []float64, target float64) Row {
		r := pairRow("verilator/"+detail+"-"+d.name(), fmt.Sprintf("sim --detail %s against Verilator, %s %d x %d on %s (run only)", detail, d.kernel, d.fpgas, d.pes, rtlGraph),
			"Verilator, the same export", [][]float64{s, samples[0]}, nil)
		if target > 0 {
			r.Target = &Target{Text: fmt.Sprintf(">= %.0fx Verilator", target), Met: r.Peer.Speedup >= target}
		}
		r.Notes = notes
		return r
	}
	return []Row{row("cycle", samples[1], d.targetCycle), row("fast", samples[2], d.targetFast)}, nil
}

// largeRows runs fast detail on R-MAT scale 24 (about 537 M arcs) as a
// child process: it must fit the machine and finish; the row reports its
// time and peak memory. The design could not be built: 16 M vertices'
// states need 33 FPGAs' on-chip memory, so the run forces it; the
// simulator's memory and time are what is measured.
func largeRows(ctx context.Context, e *env) ([]Row, error) {
	if err := e.needSelf(); err != nil {
		return nil, err
	}
	spec := "rmat:scale=24,ef=16,seed=1"
	e.logf("large: sim --detail fast on %s", spec)
	p, err := runProc(ctx, e.work, e.opt.Self, "sim", "--detail", "fast", "--kernel", "wcc", "--graph", spec, "--fpgas", "4", "--pes", "9", "--force-unbuildable", "--json")
	if err != nil {
		return nil, err
	}
	return []Row{{ID: "large/fast-rmat24", What: "sim --detail fast, WCC 4 x 9 on " + spec + " (whole command)", Value: p.wall, Unit: "s",
		Target: &Target{Text: "fits 24 GB and finishes", Met: true},
		Notes:  []string{fmt.Sprintf("peak %.1f GiB, %.0f s of CPU", float64(p.peak)/(1<<30), p.cpu)}}}, nil
}
