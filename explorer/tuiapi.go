package explorer

import (
	"context"
	"errors"
)

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
		return nb.modelInputsCached(i, in.Latency) && (!in.Latency || nb.predictionCached(i))
	}
	return false
}

// modelInputsCached reports whether model cell i's dependencies have
// results and the graph-sized work it needs (the kernel bound to the
// graph, the degree histogram and, with latency, the reference run) is
// cached.
func (nb *Notebook) modelInputsCached(i int, latency bool) bool {
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
	if latency {
		keys = append(keys, "ref:"+kd)
	}
	for _, key := range keys {
		if _, ok := nb.cache.get(key); !ok {
			return false
		}
	}
	return true
}

// Bound evaluates model cell i without its prediction, at once: the four
// limits, T_sys and what binds for the current inputs, with nF x nP chosen
// on T_sys where the cell leaves them to the optimiser. A front end shows
// it while the prediction (which may need new profiles of the reference
// run, seconds on a large graph) is computed in the background, so that
// the bound follows every edit. It returns nil and no error when the cell
// is not a model cell with a prediction or its inputs are not evaluated
// yet, and the evaluation's error when it fails. The output is not the
// cell's result and is not cached.
func (nb *Notebook) Bound(i int) (*ModelOutput, error) {
	if i < 0 || i >= len(nb.Cells) {
		return nil, nil
	}
	if in, ok := nb.Cells[i].In.(*Model); !ok || !in.Latency || !nb.modelInputsCached(i, false) {
		return nil, nil
	}
	job, err := nb.Plan(i)
	if err != nil {
		return nil, err
	}
	job.boundOnly = true
	out, err := job.Run(context.Background(), nil)
	if err != nil {
		return nil, err
	}
	mo, _ := out.(*ModelOutput)
	return mo, nil
}

// FieldError is an evaluation error that one field of one cell caused:
// an input a board does not allow (more FPGAs than it has, a bandwidth of
// 0), a graph file that is not there, a width the kernel cannot use. A
// front end shows Msg next to that field rather than in every cell that
// failed because of it; Error is the full message the command line
// prints.
type FieldError struct {
	// Kind is the kind of the cell whose field is at fault: a model cell
	// can fail because of a platform cell's pes.
	Kind Kind
	// Key is the field's key: fpgas, set.memory.peak_gib_s,
	// widths.vertex.label, params.root, graph, ...
	Key string
	// Msg is the problem in the field's own terms ("must be positive,
	// got 0"); empty when Err says it well enough.
	Msg string
	Err error
}

// Error implements error.
func (e *FieldError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *FieldError) Unwrap() error { return e.Err }

// Text is what to show next to the field.
func (e *FieldError) Text() string {
	if e.Msg != "" {
		return e.Msg
	}
	return e.Err.Error()
}

// fieldErr wraps err as caused by field key of a cell of kind k (nil
// stays nil, and an error that already names its field keeps it).
func fieldErr(k Kind, key string, err error) error {
	if err == nil {
		return nil
	}
	var fe *FieldError
	if errors.As(err, &fe) {
		return err
	}
	return &FieldError{Kind: k, Key: key, Err: err}
}

// Blame locates the cause of cell i's evaluation error: the cell (i
// itself, or a cell it depends on that failed first) and, when the error
// names one, the field. It returns cell -1 for a nil error.
func (nb *Notebook) Blame(i int, err error) (cell int, fe *FieldError) {
	if err == nil || i < 0 || i >= len(nb.Cells) {
		return -1, nil
	}
	cell = i
	var ce *CellError
	if errors.As(err, &ce) && ce.Cell-1 >= 0 && ce.Cell-1 < len(nb.Cells) {
		cell = ce.Cell - 1
	}
	if !errors.As(err, &fe) {
		return cell, nil
	}
	if k := nb.Cells[cell].In.Kind(); k != fe.Kind {
		// A model cell's error about its platform's pes.
		if j, ok := nb.depCells(cell)[fe.Kind]; ok {
			cell = j
		}
	}
	return cell, fe
}

// Dependents returns the cells that read cell i, directly or through
// other cells, in notebook order.
func (nb *Notebook) Dependents(i int) []int {
	if i < 0 || i >= len(nb.Cells) {
		return nil
	}
	reads := map[int]bool{i: true}
	var out []int
	for j := i + 1; j < len(nb.Cells); j++ {
		for _, d := range nb.Deps(j) {
			if reads[d] {
				reads[j] = true
				out = append(out, j)
				break
			}
		}
	}
	return out
}

// ModelFor returns the model cell whose answer matters while cell i is
// focused: i itself when it is a model cell, else the first model cell
// below that reads it, else the nearest model cell above it, else the
// first one; -1 when the notebook has none.
func (nb *Notebook) ModelFor(i int) int {
	if i >= 0 && i < len(nb.Cells) && nb.Cells[i].In.Kind() == KindModel {
		return i
	}
	for _, j := range nb.Dependents(i) {
		if nb.Cells[j].In.Kind() == KindModel {
			return j
		}
	}
	first := -1
	for j := len(nb.Cells) - 1; j >= 0; j-- {
		if nb.Cells[j].In.Kind() != KindModel {
			continue
		}
		first = j
		if j < i {
			return j
		}
	}
	return first
}

// SimulationFor returns the simulate cell that simulates the design of
// model cell m (it reads the same platform, kernel and dataset cells), or
// -1.
func (nb *Notebook) SimulationFor(m int) int {
	if m < 0 || m >= len(nb.Cells) {
		return -1
	}
	md := nb.depCells(m)
	for j := range nb.Cells {
		if nb.Cells[j].In.Kind() != KindSimulate {
			continue
		}
		sd := nb.depCells(j)
		same := true
		for _, k := range []Kind{KindPlatform, KindKernel, KindDataset} {
			a, ok1 := sd[k]
			b, ok2 := md[k]
			if a != b || ok1 != ok2 {
				same = false
			}
		}
		if same {
			return j
		}
	}
	return -1
}

// ExportDir returns the folder export cell i writes (resolved), or "" when
// cell i is not an export cell.
func (nb *Notebook) ExportDir(i int) string {
	if i < 0 || i >= len(nb.Cells) {
		return ""
	}
	in, ok := nb.Cells[i].In.(*Export)
	if !ok {
		return ""
	}
	return nb.Resolve(in.Out)
}

// ReplaceExisting makes the job's export replace an existing project
// folder, as force = true does, for this run only: a front end asks the
// user first, and the cell keeps its setting (and its input hash).
func (j *Job) ReplaceExisting() {
	for i := range j.steps {
		if e, ok := j.steps[i].in.(*Export); ok {
			e.Force = true
		}
	}
}
