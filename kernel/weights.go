package kernel

// Weights tells how a graph must be read for this kernel: with edge weights
// when the kernel has edge data, and as float32 (graph.ReadOptions
// FloatWeights) when its first edge field is f32, so that real weights
// keep their values.
func (s *Spec) Weights() (weighted, float bool) {
	if len(s.Edge) == 0 {
		return false, false
	}
	switch s.Edge[0].Width {
	case "floatsize", "f32":
		return true, true
	}
	return true, false
}
