package kernel

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// GraphalyticsNone is how LDBC Graphalytics writes an integer value that
// does not exist (the depth of an unreachable vertex): int64's maximum.
const GraphalyticsNone = "9223372036854775807"

// WriteGraphalytics writes one vertex field of the final states in the
// output format of LDBC Graphalytics: a line "vertex value" per vertex, in
// ascending order of the input's labels, separated by a space. Vertex-id
// fields print labels; the "none" value of an integer field (and of a
// vertex-id field) prints 9223372036854775807, the benchmark's unreachable
// depth; f32 values print in the shortest form that reads back to the same
// float32, +inf as Infinity (the benchmark's unreachable distance) and NaN
// as NaN. field indexes the vertex layout.
func (r *Result) WriteGraphalytics(w io.Writer, field int) error {
	s := r.Kernel.Spec
	if field < 0 || field >= len(s.Vertex) {
		return fmt.Errorf("kernel %s has no vertex field %d", s.Name, field)
	}
	t := r.Kernel.Checked.VertexT[field]
	none := s.Vertex[field].None || t.VID
	buf := make([]byte, 0, 1<<16)
	n := r.Graph.NumVertices()
	for v := 0; v < n; v++ {
		buf = strconv.AppendUint(buf, r.Graph.Label(uint32(v)), 10)
		buf = append(buf, ' ')
		x := r.State(uint32(v))[field]
		switch {
		case t.Float:
			f := math.Float32frombits(uint32(x))
			switch {
			case math.IsInf(float64(f), 1):
				buf = append(buf, "Infinity"...)
			case math.IsInf(float64(f), -1):
				buf = append(buf, "-Infinity"...)
			default:
				buf = strconv.AppendFloat(buf, float64(f), 'g', -1, 32)
			}
		case none && x == t.Mask():
			buf = append(buf, GraphalyticsNone...)
		case t.VID:
			buf = strconv.AppendUint(buf, r.Graph.Label(uint32(x)), 10)
		default:
			buf = strconv.AppendUint(buf, x, 10)
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
