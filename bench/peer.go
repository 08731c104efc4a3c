package bench

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gravf-tui/gravf-tui/graph"
)

//go:embed peer.py
var peerScript []byte

// python runs one command of peer.py and decodes the JSON it prints.
func (e *env) python(ctx context.Context, out any, args ...string) error {
	script := filepath.Join(e.work, "peer.py")
	if _, err := os.Stat(script); err != nil {
		if err := os.WriteFile(script, peerScript, 0o644); err != nil {
			return err
		}
	}
	p, err := runProc(ctx, e.work, e.opt.Python, append([]string{script}, args...)...)
	if err != nil {
		return fmt.Errorf("the scipy peer (install Debian's python3-scipy): %w", err)
	}
	if err := json.Unmarshal(p.stdout, out); err != nil {
		return fmt.Errorf("peer.py %v: %w: %q", args, err, p.stdout)
	}
	return nil
}

// peerTime is what every peer command reports.
type peerTime struct {
	Seconds float64 `json:"seconds"`
	Scipy   string  `json:"scipy"`
	Numpy   string  `json:"numpy"`
}

// writeCSR writes g's offsets and arcs as little-endian uint32 arrays,
// PREFIX.offsets and PREFIX.adj, the format peer.py reads.
func writeCSR(prefix string, g *graph.Graph) error {
	if err := writeUint32s(prefix+".offsets", g.Offsets); err != nil {
		return err
	}
	return writeUint32s(prefix+".adj", g.Adj)
}

func writeUint32s(path string, xs []uint32) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var b [4]byte
	for _, x := range xs {
		binary.LittleEndian.PutUint32(b[:], x)
		w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeEdgeList writes every edge of an undirected g once ("u v" with
// u < v), the way SNAP files list them.
func writeEdgeList(path string, g *graph.Graph) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	buf := make([]byte, 0, 32)
	for u := range g.NumVertices() {
		for _, v := range g.Neighbors(uint32(u)) {
			if uint32(u) < v {
				buf = strconv.AppendUint(buf[:0], uint64(u), 10)
				buf = append(buf, ' ')
				buf = strconv.AppendUint(buf, uint64(v), 10)
				buf = append(buf, '\n')
				w.Write(buf)
			}
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
