package explorer

// This file holds what an interactive front end needs beyond Plan and
// Result: which cells a cell reads, and whether a cell can be evaluated
// at once in a UI's update loop.

// Deps returns the indices of the cells that cell i reads directly (the
// latest cell above it of every kind it depends on), in the order of
// Kinds. It returns nil for an index out of range.
func (nb *Notebook) Deps(i int) []int {
	if i < 0 || i >= len(nb.Cells) {
		return nil
	}
	dc := nb.depCells(i)
	var out []int
	for _, k := range Kinds {
		if j, ok := dc[k]; ok {
			out = append(out, j)
		}
	}
	return out
}

// Ready reports whether cell i can be evaluated in well under a
// millisecond or so: it is a platform, kernel or notes cell, or a model
// cell whose dependencies have results and whose graph-sized work (the
// kernel bound to the graph, the degree histogram and, with latency, the
// reference run) is cached. A front end evaluates ready cells right in
// its update loop and hands the others to a background Job.
func (nb *Notebook) Ready(i int) bool {
	if i < 0 || i >= len(nb.Cells) {
		return false
	}
	switch in := nb.Cells[i].In.(type) {
	case *Platform, *Kernel, *Notes:
		return true
	case *Model:
		dc := nb.depCells(i)
		for _, k := range required[KindModel] {
			j, ok := dc[k]
			if !ok {
				return false
			}
			if _, _, ok := nb.Result(j); !ok {
				return false
			}
		}
		memo := map[int]string{}
		kd := nb.hash(dc[KindKernel], memo) + "/" + nb.hash(dc[KindDataset], memo)
		keys := []string{"bind:" + kd, "deg:" + nb.hash(dc[KindDataset], memo)}
		if in.Latency {
			keys = append(keys, "ref:"+kd)
		}
		for _, key := range keys {
			if _, ok := nb.cache.get(key); !ok {
				return false
			}
		}
		return !in.Latency || nb.predictionCached(i)
	}
	return false
}
