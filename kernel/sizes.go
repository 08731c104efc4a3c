package kernel

// Sizes returns the bit sizes of the spec's layouts for a vertex id width
// (see VertexIDBits), with parameters at their defaults.
func (s *Spec) Sizes(vertexIDBits int) (Sizes, error) {
	c, err := s.check(nil, vertexIDBits, nil)
	if err != nil {
		return Sizes{}, err
	}
	return c.Sizes(), nil
}

// Sizes returns the bit sizes of a bound kernel's layouts.
func (c *Checked) Sizes() Sizes {
	sum := func(ts []Type) int {
		n := 0
		for _, t := range ts {
			n += t.Width
		}
		return n
	}
	s := Sizes{
		VertexIDBits: c.VertexIDBits,
		Vertex:       sum(c.VertexT),
		Update:       sum(c.UpdateT),
		Message:      sum(c.MessageT),
		EdgeData:     sum(c.EdgeT),
	}
	s.Edge = c.VertexIDBits + s.EdgeData
	return s
}

// Sizes returns the bit sizes of the kernel's layouts at its bound vertex
// id width.
func (k *Kernel) Sizes() Sizes { return k.Checked.Sizes() }
