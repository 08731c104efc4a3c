package bench

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gravf-tui/gravf-tui/graph"
)

// exportRows runs `gravf-tui export` of WCC on R-MAT scale 18 for 4 x 9
// with edges off-chip (generation included, as a user runs it) against
// writing the same number of bytes to the same disk through a buffered
// writer: the limit an exporter of that size approaches.
func exportRows(ctx context.Context, e *env) ([]Row, error) {
	if err := e.needSelf(); err != nil {
		return nil, err
	}
	g, err := e.graph(simGraph)
	if err != nil {
		return nil, err
	}
	csr := csrBytes(g.NumVertices(), g.NumArcs())
	gen, err := timed(func() error { _, err := graph.Load(simGraph, graph.ReadOptions{}); return err })
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(e.work, "export")
	args := []string{"export", "--kernel", "wcc", "--graph", simGraph, "--fpgas", "4", "--pes", "9", "--mem", "offchip", "--out", dir, "--force"}
	var peak, written int64
	var cpu, load []float64
	e.logf("export: gravf-tui %v against the disk", args)
	n := max(1, min(e.opt.Repeats, 3))
	samples, err := alternate(ctx, n,
		func(ctx context.Context) (float64, error) {
			p, err := runProc(ctx, e.work, e.opt.Self, args...)
			if err != nil {
				return 0, err
			}
			// The child's own peak: getrusage's includes this process's
			// when the export started (a graph loaded by an earlier group).
			if p.ownPeak > 0 {
				peak = max(peak, p.ownPeak)
			} else {
				peak = max(peak, p.peak)
			}
			cpu, load = append(cpu, p.cpu), append(load, loadAverage())
			written, err = dirBytes(dir)
			return p.wall, err
		},
		func(context.Context) (float64, error) {
			return timed(func() error { return writeBytes(filepath.Join(e.work, "disk.bin"), written) })
		})
	os.Remove(filepath.Join(e.work, "disk.bin"))
	if err != nil {
		return nil, err
	}
	t := pairRow("export/rmat18-4x9", "export of "+simGraph+", 4 x 9 off-chip (generation included)", "the same bytes written to disk", samples,
		func(ours, _ float64) *Target { return &Target{Text: "< 5 s", Met: ours < 5} })
	t.Notes = []string{fmt.Sprintf("%.0f MB written; %.2f s of CPU (user and system, median) at load %.1f; generating the graph alone takes %.1f s",
		float64(written)/1e6, median(cpu), median(load), gen)}
	ratio := float64(peak) / float64(csr)
	m := Row{ID: "export/rmat18-4x9-peak", What: "peak memory of that export, over the graph's CSR", Value: ratio, Unit: "x CSR",
		Target: &Target{Text: "< 2x the CSR", Met: ratio < 2},
		Notes:  []string{fmt.Sprintf("peak %.0f MiB, CSR %.0f MiB", mib(peak), mib(csr))}}
	return []Row{t, m}, nil
}

// dirBytes adds the sizes of every file under dir.
func dirBytes(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	return n, err
}

// writeBytes writes n bytes of hex digits to path through a buffered
// writer and closes it, as an exporter's memory images are written.
func writeBytes(path string, n int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	line := []byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n")
	for ; n > 0; n -= int64(len(line)) {
		w.Write(line[:min(int64(len(line)), n)])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
