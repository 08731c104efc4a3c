package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
)

// csrBytes is the size of a graph's CSR arrays: V+1 offsets and the arcs,
// four bytes each.
func csrBytes(v, arcs int) int64 { return 4 * int64(v+1+arcs) }

// graphSize runs `gravf-tui graph stats --json` on a spec and returns
// its V and arcs, with the child's measurements.
func (e *env) graphSize(ctx context.Context, spec string) (v, arcs int, p *proc, err error) {
	p, err = runProc(ctx, e.work, e.opt.Self, "graph", "stats", "--json", "--graph", spec)
	if err != nil {
		return 0, 0, p, err
	}
	var st struct {
		V    int `json:"v"`
		Arcs int `json:"arcs"`
	}
	if err := json.Unmarshal(p.stdout, &st); err != nil {
		return 0, 0, p, fmt.Errorf("graph stats --json: %w", err)
	}
	return st.V, st.Arcs, p, nil
}

// memoryRows measures peak resident memory of whole commands as a user
// runs them: loading (generating) R-MAT scale 20, simulating WCC on it at
// 4 x 9, and reading a 200 MB edge list of one repeated line.
func memoryRows(ctx context.Context, e *env) ([]Row, error) {
	if err := e.needSelf(); err != nil {
		return nil, err
	}
	floor := e.shrink()
	e.logf("memory: graph stats --graph %s", refGraph)
	v, arcs, load, err := e.graphSize(ctx, refGraph)
	if err != nil {
		return nil, err
	}
	csr := csrBytes(v, arcs)
	e.logf("memory: sim --kernel wcc --graph %s --fpgas 4 --pes 9", refGraph)
	sim, err := runProc(ctx, e.work, e.opt.Self, "sim", "--kernel", "wcc", "--graph", refGraph, "--fpgas", "4", "--pes", "9", "--json")
	if err != nil {
		return nil, err
	}
	above := func(p *proc) float64 { return float64(p.peak-csr) / float64(arcs) }
	rows := []Row{
		{ID: "memory/load-rmat20", What: "peak memory, graph stats on " + refGraph + ", above the CSR", Value: above(load), Unit: "B/arc",
			Target: &Target{Text: "<= 8 B/arc above the CSR", Met: above(load) <= 8},
			Notes:  []string{fmt.Sprintf("peak %.0f MiB, CSR %.0f MiB (%.1f B/arc), %.1f s", mib(load.peak), mib(csr), float64(csr)/float64(arcs), load.wall)}},
		{ID: "memory/sim-rmat20", What: "peak memory, sim (fast, WCC, 4 x 9) on " + refGraph + ", above the CSR", Value: above(sim), Unit: "B/arc",
			Target: &Target{Text: "<= 8 B/arc above the CSR", Met: above(sim) <= 8},
			Notes:  []string{fmt.Sprintf("peak %.0f MiB = %.1f B/arc in all, %.1f s", mib(sim.peak), float64(sim.peak)/float64(arcs), sim.wall)}},
	}

	file := filepath.Join(e.work, "repeated.txt")
	if err := writeRepeated(file, "1 2\n", 200<<20); err != nil {
		return nil, err
	}
	defer os.Remove(file)
	e.logf("memory: graph stats on 200 MB of one repeated line")
	rep, err := runProc(ctx, e.work, e.opt.Self, "graph", "stats", "--json", "--graph", file)
	if err != nil {
		return nil, err
	}
	rows = append(rows, Row{ID: "memory/edgelist-repeated", What: "peak memory, edge-list reader on 200 MB of one repeated line", Value: mib(rep.peak), Unit: "MiB",
		Target: &Target{Text: "< 200 MB", Met: float64(rep.peak) < 200e6},
		Notes:  []string{fmt.Sprintf("%.1f s", rep.wall)}})
	for i := range rows {
		rows[i].Notes = append(rows[i].Notes, floor)
	}
	return rows, nil
}

// shrink drops the graphs the run holds and returns the memory to the
// system before the memory rows start their children: Go starts a child
// sharing the parent's pages until it execs, so the child's peak resident
// set is at least the parent's at that moment. It returns a note with that
// floor.
func (e *env) shrink() string {
	clear(e.graphs)
	debug.FreeOSMemory()
	return fmt.Sprintf("a child's peak is at least the bench process's own resident set when it starts, %.0f MiB here", mib(selfRSS()))
}

// selfRSS returns this process's resident set (0 where unknown).
func selfRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// writeRepeated writes line over and over until the file holds size bytes.
func writeRepeated(path, line string, size int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for n := 0; n+len(line) <= size; n += len(line) {
		w.WriteString(line)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
