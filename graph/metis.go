package graph

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/gravf-tui/gravf-tui/internal/procgroup"
)

// metisAssign fills p.PE for the METIS method: gpmetis splits the vertices
// over the FPGAs, balanced by out-degree (the scatter work), and the greedy
// edge rule then spreads each FPGA's vertices over its PEs.
//
// gpmetis only sees undirected graphs, so a directed graph is symmetrised
// for it; an edge then weighs the number of arcs it stands for (1 or 2), so
// that METIS minimises cut arcs, the messages that cross FPGAs. Vertex
// weights are out-degrees; gpmetis accepts weight 0 (isolated vertices, or
// sinks of a directed graph), which leaves those vertices free to go where
// the cut is smallest.
func metisAssign(ctx context.Context, g *Graph, p *Partition, opt PartitionOptions) error {
	n := g.NumVertices()
	nF := p.FPGAs
	fpga := make([]int32, n)
	if nF > 1 && n > 0 {
		if err := runGPMetis(ctx, g, nF, opt, fpga); err != nil {
			return err
		}
		if empty := emptyParts(fpga, nF); empty > 0 {
			return optionErrorf("metis partitioning: gpmetis left %d of %d FPGAs without a vertex (%d vertices); use fewer FPGAs or another partitioner", empty, nF, n)
		}
	}
	return greedyAssign(ctx, g, p.PE, fpga, nF, p.PEs, nil)
}

// emptyParts counts the parts in 0..n-1 that no vertex was given.
func emptyParts(part []int32, n int) int {
	used := make([]bool, n)
	for _, f := range part {
		used[f] = true
	}
	empty := 0
	for _, u := range used {
		if !u {
			empty++
		}
	}
	return empty
}

// runGPMetis writes g for gpmetis, runs it and reads the FPGA of every
// vertex into fpga.
func runGPMetis(ctx context.Context, g *Graph, nF int, opt PartitionOptions, fpga []int32) error {
	bin := opt.GPMetis
	if bin == "" {
		bin = "gpmetis"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNoGPMetis, err)
	}
	n := g.NumVertices()
	if n > math.MaxInt32 || len(g.Adj) > math.MaxInt32 {
		return fmt.Errorf("metis partitioning: graph %s (%d vertices, %d arcs) exceeds the 32-bit range of gpmetis", g.Name, n, len(g.Adj))
	}
	dir, err := os.MkdirTemp("", "gravf-metis-")
	if err != nil {
		return fmt.Errorf("metis partitioning: %w", err)
	}
	defer os.RemoveAll(dir)

	const name = "graph.metis"
	edges, err := writeMETIS(filepath.Join(dir, name), g)
	if err != nil {
		return fmt.Errorf("metis partitioning: writing the graph for gpmetis: %w", err)
	}
	if edges == 0 {
		// gpmetis refuses a graph without edges; with nothing to cut,
		// spreading the vertices round-robin is as good as any split.
		for v := range fpga {
			fpga[v] = int32(v % nF)
		}
		return nil
	}

	ufactor := opt.UFactor
	if ufactor == 0 {
		ufactor = 1
	}
	logPath := filepath.Join(dir, "gpmetis.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return fmt.Errorf("metis partitioning: %w", err)
	}
	// A group of its own, so that a cancel ends whatever gpmetis started
	// (a wrapper script's children too), as make sim's group does.
	cmd := procgroup.Command(ctx, path,
		"-ufactor="+strconv.Itoa(ufactor),
		"-seed="+strconv.FormatUint(opt.Seed&math.MaxInt32, 10),
		name, strconv.Itoa(nF))
	cmd.Dir = dir
	// A file, not a pipe: no copying goroutine can keep Wait from
	// returning after ctx kills gpmetis.
	cmd.Stdout, cmd.Stderr = logFile, logFile
	runErr := cmd.Run()
	logFile.Close()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("metis partitioning cancelled: %w", err)
	}
	if runErr != nil {
		return fmt.Errorf("gpmetis %s %d failed: %w%s", name, nF, runErr, logTail(logPath))
	}
	partPath := filepath.Join(dir, name+".part."+strconv.Itoa(nF))
	if err := readMETISPart(partPath, nF, fpga); err != nil {
		return fmt.Errorf("gpmetis %s %d: %w%s", name, nF, err, logTail(logPath))
	}
	return nil
}

// logTail returns the last lines of gpmetis' output, indented under the
// error, or "" when there is none.
func logTail(path string) string {
	const maxLines, maxBytes = 12, 2000
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	b = bytes.TrimSpace(b)
	if len(b) > maxBytes {
		b = b[len(b)-maxBytes:]
	}
	lines := bytes.Split(b, []byte("\n"))
	if len(lines) > maxLines {
		lines = lines[len(lines)-maxLines:]
	}
	var out bytes.Buffer
	for _, l := range lines {
		if l = bytes.TrimSpace(l); len(l) > 0 {
			out.WriteString("\n  gpmetis: ")
			out.Write(l)
		}
	}
	return out.String()
}

// readMETISPart reads gpmetis' partition file: one part number per line,
// one line per vertex.
func readMETISPart(path string, nF int, fpga []int32) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("no partition file: %w", err)
	}
	fields := bytes.Fields(b)
	if len(fields) != len(fpga) {
		return fmt.Errorf("partition file has %d entries for %d vertices", len(fields), len(fpga))
	}
	for v, f := range fields {
		x, err := strconv.Atoi(string(f))
		if err != nil || x < 0 || x >= nF {
			return fmt.Errorf("partition file line %d: bad part %q for %d parts", v+1, f, nF)
		}
		fpga[v] = int32(x)
	}
	return nil
}

// writeMETIS writes g in METIS graph format with out-degrees as vertex
// weights, symmetrising a directed graph, and returns the number of
// undirected edges written.
func writeMETIS(path string, g *Graph) (edges int, err error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	n := g.NumVertices()
	var line []byte

	if !g.Directed {
		// Every edge is stored as two arcs already.
		edges = len(g.Adj) / 2
		line = fmt.Appendf(line, "%d %d 010\n", n, edges)
		for v := 0; v < n; v++ {
			line = strconv.AppendUint(line, uint64(g.OutDegree(uint32(v))), 10)
			for _, u := range g.Neighbors(uint32(v)) {
				line = append(line, ' ')
				line = strconv.AppendUint(line, uint64(u)+1, 10)
			}
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				return 0, err
			}
			line = line[:0]
		}
		return edges, w.Flush()
	}

	// Directed: merge each vertex's out-list with its in-list (the
	// transpose), both ascending; a pair present both ways weighs 2.
	inOff := make([]uint32, n+1)
	for _, v := range g.Adj {
		inOff[v+1]++
	}
	for v := 0; v < n; v++ {
		inOff[v+1] += inOff[v]
	}
	inAdj := make([]uint32, len(g.Adj))
	pos := make([]uint32, n)
	copy(pos, inOff[:n])
	for u := 0; u < n; u++ {
		for _, v := range g.Neighbors(uint32(u)) {
			inAdj[pos[v]] = uint32(u)
			pos[v]++
		}
	}
	pos = nil
	in := func(v int) []uint32 { return inAdj[inOff[v]:inOff[v+1]] }

	pairs := 0
	for v := 0; v < n; v++ {
		pairs += mergeSym(g.Neighbors(uint32(v)), in(v), nil)
	}
	edges = pairs / 2
	line = fmt.Appendf(line, "%d %d 011\n", n, edges)
	for v := 0; v < n; v++ {
		line = strconv.AppendUint(line, uint64(g.OutDegree(uint32(v))), 10)
		mergeSym(g.Neighbors(uint32(v)), in(v), &line)
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return 0, err
		}
		line = line[:0]
	}
	return edges, w.Flush()
}

// mergeSym walks the union of two ascending lists and returns its size;
// when line is not nil it appends " nbr weight" for each member (1-based
// neighbour, weight = how many of the two lists hold it).
func mergeSym(out, in []uint32, line *[]byte) int {
	count := 0
	emit := func(v uint32, wt uint64) {
		count++
		if line != nil {
			b := append(*line, ' ')
			b = strconv.AppendUint(b, uint64(v)+1, 10)
			b = append(b, ' ')
			*line = strconv.AppendUint(b, wt, 10)
		}
	}
	i, j := 0, 0
	for i < len(out) || j < len(in) {
		switch {
		case j == len(in) || (i < len(out) && out[i] < in[j]):
			emit(out[i], 1)
			i++
		case i == len(out) || in[j] < out[i]:
			emit(in[j], 1)
			j++
		default:
			emit(out[i], 2)
			i++
			j++
		}
	}
	return count
}
