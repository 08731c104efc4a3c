package explorer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/gravf-tui/gravf-tui/design"
	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/internal/diskcache"
	"github.com/gravf-tui/gravf-tui/model"
)

// Progress reports a running cell.
type Progress struct {
	// Cell is the 0-based index of the cell being evaluated (which may be
	// a dependency of the cell asked for).
	Cell int
	Kind Kind
	// Done and Total count work units (sweep points, simulated cycles,
	// ...); Total is 0 when unknown.
	Done, Total int64
	Text        string
	// Log is one line of an external tool's output (make sim), "" for
	// none: a front end shows the last few.
	Log string
}

// Fraction is Done/Total, or 0 when Total is unknown.
func (p Progress) Fraction() float64 {
	if p.Total <= 0 {
		return 0
	}
	return min(1, float64(p.Done)/float64(p.Total))
}

// CellError is an evaluation failure of one cell; it names the notebook
// file, the cell's line and its number.
type CellError struct {
	File string
	Line int
	Cell int // 1-based
	Kind Kind
	Err  error
}

// Error implements error.
func (e *CellError) Error() string {
	loc := e.File
	if loc == "" {
		loc = "notebook"
	}
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, e.Line)
	}
	return fmt.Sprintf("%s: cell %d (%s): %v", loc, e.Cell, e.Kind, e.Err)
}

// Unwrap returns the cause.
func (e *CellError) Unwrap() error { return e.Err }

// cache holds results by input hash. It is shared by a notebook and the
// jobs it hands out, so it locks. The least recently used entries are
// evicted once it holds more than limit results (graphs are large).
type cache struct {
	mu    sync.Mutex
	items map[string]entry
	order []string
	limit int
}

type entry struct {
	out Output
	err error
}

func newCache() *cache { return &cache{items: map[string]entry{}, limit: 256} }

func (c *cache) get(key string) (entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if ok {
		c.touch(key)
	}
	return e, ok
}

// touch moves key to the young end, so that what is read often (the
// graph, the reference run) outlives a stream of edits.
func (c *cache) touch(key string) {
	if i := slices.Index(c.order, key); i >= 0 && i < len(c.order)-1 {
		c.order = append(append(c.order[:i:i], c.order[i+1:]...), key)
	}
}

func (c *cache) put(key string, e entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[key]; !ok {
		c.order = append(c.order, key)
	}
	c.items[key] = e
	for len(c.order) > c.limit {
		delete(c.items, c.order[0])
		c.order = c.order[1:]
	}
}

// memo returns the cached value of key or computes and caches it; errors
// other than cancellation are cached too.
func memo[T any](c *cache, key string, f func() (T, error)) (T, error) {
	if e, ok := c.get(key); ok {
		v, _ := e.out.(memoValue[T])
		return v.v, e.err
	}
	v, err := f()
	if err == nil || !isCancel(err) {
		c.put(key, entry{out: memoValue[T]{v}, err: err})
	}
	return v, err
}

type memoValue[T any] struct{ v T }

func (memoValue[T]) Text() string { return "" }

func isCancel(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// depCells returns, for cell i, the index of the latest cell above it of
// every kind its result depends on.
func (nb *Notebook) depCells(i int) map[Kind]int {
	return nb.cellsAbove(i, deps[nb.Cells[i].In.Kind()])
}

// readCells returns, for cell i, the latest cell above it of every kind
// whose input it reads (see reads).
func (nb *Notebook) readCells(i int) map[Kind]int {
	return nb.cellsAbove(i, reads[nb.Cells[i].In.Kind()])
}

// cellsAbove returns the latest cell above i of each kind in want.
func (nb *Notebook) cellsAbove(i int, want []Kind) map[Kind]int {
	out := map[Kind]int{}
	for j := i - 1; j >= 0 && len(out) < len(want); j-- {
		k := nb.Cells[j].In.Kind()
		if _, seen := out[k]; !seen && slices.Contains(want, k) {
			out[k] = j
		}
	}
	return out
}

// Hash is the hash of cell i's inputs: its own fields, the hashes of the
// cells it depends on, and the size and time of any file it names. Two
// cells with equal hashes have equal results.
func (nb *Notebook) Hash(i int) string {
	memo := map[int]string{}
	return nb.hash(i, memo)
}

func (nb *Notebook) hash(i int, memo map[int]string) string {
	if h, ok := memo[i]; ok {
		return h
	}
	in := nb.Cells[i].In
	h := sha256.New()
	io.WriteString(h, encodeCell(in))
	for _, p := range nb.files(in) {
		if st, err := os.Stat(p); err == nil {
			fmt.Fprintf(h, "file %s %d %d\n", p, st.Size(), st.ModTime().UnixNano())
		} else {
			fmt.Fprintf(h, "file %s missing\n", p)
		}
	}
	dc := nb.depCells(i)
	for _, k := range Kinds {
		if j, ok := dc[k]; ok {
			fmt.Fprintf(h, "dep %s %s\n", k, nb.depHash(in, k, j, memo))
		}
	}
	rc := nb.readCells(i)
	for _, k := range Kinds {
		if j, ok := rc[k]; ok {
			fmt.Fprintf(h, "reads %s %s\n", k, encodeCell(nb.Cells[j].In))
		}
	}
	if usesDesign(in.Kind()) {
		// The model's nP max may come from a synthesised PE cost (see
		// peCost): a new estimate changes the folder's time.
		if st, err := os.Stat(filepath.Dir(gen.PECostFile("b", "k", 1))); err == nil {
			fmt.Fprintf(h, "pe-cost %d\n", st.ModTime().UnixNano())
		}
	}
	if in.Kind() == KindExport || in.Kind() == KindSimulate || in.Kind() == KindTrace {
		// Their results depend on where the notebook lives (absolute, so
		// that results kept beside the notebook are found again from any
		// working directory).
		dir := nb.Dir()
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		fmt.Fprintf(h, "dir %s\n", dir)
	}
	s := hex.EncodeToString(h.Sum(nil))[:32]
	memo[i] = s
	return s
}

// depHash is what cell j, of kind k, puts into the hash of a cell whose
// input is in: its own hash, but for a dataset's kernel, of which the
// graph reads only whether the edges carry weights and of which type
// (kernel.Spec.Weights). Another kernel with the same edge data therefore
// finds the graph loaded (on a large file, seconds per change of kernel).
// A kernel that does not load gives its hash, as its cell fails anyway.
// The edge data is kept in the notebook's cache by the kernel's hash, as
// loading the spec costs more than the rest of a hash.
func (nb *Notebook) depHash(in Input, k Kind, j int, hashes map[int]string) string {
	h := nb.hash(j, hashes)
	kin, ok := nb.Cells[j].In.(*Kernel)
	if !ok || in.Kind() != KindDataset || k != KindKernel {
		return h
	}
	edges, err := memo(nb.cache, "edges:"+h, func() (string, error) {
		spec, _, err := kin.Choice().Load(nb.Dir())
		if err != nil {
			return "", err
		}
		weighted, float := spec.Weights()
		return fmt.Sprintf("edges weighted=%v float=%v", weighted, float), nil
	})
	if err != nil {
		return h
	}
	return edges
}

// usesDesign reports whether a cell kind evaluates a design point (and so
// the model's platform).
func usesDesign(k Kind) bool {
	return slices.Contains(required[k], KindPlatform)
}

// files lists the files a cell reads, resolved.
func (nb *Notebook) files(in Input) []string {
	var out []string
	switch c := in.(type) {
	case *Platform:
		if design.IsPath(c.Board) {
			out = append(out, nb.Resolve(c.Board))
		}
	case *Kernel:
		if design.IsPath(c.Kernel) {
			out = append(out, nb.Resolve(c.Kernel)+"/kernel.toml")
		}
	case *Dataset:
		if p := nb.datasetPath(c.Graph); p != "" {
			out = append(out, p)
		}
	case *Trace:
		if c.File != "" {
			out = append(out, nb.Resolve(c.File))
		}
	}
	return out
}

// Result returns cell i's cached result for its current inputs; ok is
// false when the cell is stale (never run, or edited since).
func (nb *Notebook) Result(i int) (out Output, err error, ok bool) {
	if i < 0 || i >= len(nb.Cells) {
		return nil, nil, false
	}
	e, ok := nb.cache.get("cell:" + nb.Hash(i))
	return e.out, e.err, ok
}

// Stale reports whether cell i has no result for its current inputs.
func (nb *Notebook) Stale(i int) bool {
	if nb.Cells[i].In.Kind() == KindNotes {
		return false
	}
	_, _, ok := nb.Result(i)
	return !ok
}

// Job is the evaluation of one cell and of the stale cells it depends on,
// detached from the notebook: it holds copies of the inputs and shares only
// the result cache, so it may run on another goroutine while the notebook
// is edited. Its results land in the cache under the input hashes they
// were planned with; an edit made meanwhile simply leaves the edited cell
// stale.
type Job struct {
	// Cell is the cell asked for.
	Cell  int
	steps []step
	cache *cache
	file  string
	dir   string
	// cachedOnly runs the job only if the prediction's profiles it needs
	// are computed already (see Notebook.Ready).
	cachedOnly bool
	// boundOnly evaluates the asked model cell without its prediction and
	// keeps the output out of the cache (see Notebook.Bound).
	boundOnly bool
	// keep is the folder results are kept in ("" for none), keepErr the
	// first failure to write one there.
	keep    string
	keepErr error
	// disk is the persistent cache of the prediction's reference run and
	// profiles (nil: off).
	disk *diskcache.Store
}

type step struct {
	cell int
	line int
	in   Input
	hash string
	deps map[Kind]int // kind -> index into Job.steps
	// reads holds copies of the inputs of the cells above whose input
	// (not result) this cell reads.
	reads map[Kind]Input
}

// Plan prepares the evaluation of cell i. It fails at once when a cell
// the result needs is missing (a model cell with no platform cell above).
func (nb *Notebook) Plan(i int) (*Job, error) {
	if i < 0 || i >= len(nb.Cells) {
		return nil, fmt.Errorf("no cell %d", i+1)
	}
	j := &Job{Cell: i, cache: nb.cache, file: nb.Path, dir: nb.Dir(), disk: nb.diskCache()}
	if nb.keep {
		j.keep = nb.ResultsDir()
	}
	index := map[int]int{}
	memo := map[int]string{}
	var add func(c int) (int, error)
	add = func(c int) (int, error) {
		if s, ok := index[c]; ok {
			return s, nil
		}
		in := nb.Cells[c].In
		dc := nb.depCells(c)
		for _, k := range required[in.Kind()] {
			if _, ok := dc[k]; !ok {
				return 0, nb.cellError(c, fmt.Errorf("needs a %s cell above it", k))
			}
		}
		st := step{cell: c, line: nb.Cells[c].Line, in: cloneInput(in), hash: nb.hash(c, memo), deps: map[Kind]int{}, reads: map[Kind]Input{}}
		for k, r := range nb.readCells(c) {
			st.reads[k] = cloneInput(nb.Cells[r].In)
		}
		for _, k := range Kinds {
			if d, ok := dc[k]; ok {
				s, err := add(d)
				if err != nil {
					return 0, err
				}
				st.deps[k] = s
			}
		}
		j.steps = append(j.steps, st)
		index[c] = len(j.steps) - 1
		return index[c], nil
	}
	if _, err := add(i); err != nil {
		return nil, err
	}
	return j, nil
}

func (nb *Notebook) cellError(i int, err error) error {
	return &CellError{File: nb.Path, Line: nb.Cells[i].Line, Cell: i + 1, Kind: nb.Cells[i].In.Kind(), Err: err}
}

// Run evaluates the job's cells in dependency order, using cached results
// where there are any, and returns the asked cell's output. Cancelling ctx
// stops expensive cells (simulations, sweeps, exports) promptly; what they
// finished before stays cached.
func (j *Job) Run(ctx context.Context, progress func(Progress)) (Output, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	outs := make([]Output, len(j.steps))
	for si, st := range j.steps {
		key := "cell:" + st.hash
		if j.boundOnly && si == len(j.steps)-1 {
			// Not the cell's result: computed each time, never cached.
			e := &evaluator{ctx: ctx, job: j, st: st, outs: outs, boundOnly: true, progress: func(Progress) {}}
			return e.run()
		}
		if e, ok := j.cache.get(key); ok {
			if e.err != nil {
				return nil, j.wrap(st, e.err)
			}
			outs[si] = e.out
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e := &evaluator{ctx: ctx, job: j, st: st, outs: outs, cachedOnly: j.cachedOnly, progress: func(p Progress) {
			p.Cell, p.Kind = st.cell, st.in.Kind()
			progress(p)
		}}
		out, err := e.run()
		if err != nil && (isCancel(err) || errors.Is(err, model.ErrNotCached)) {
			return out, err
		}
		j.cache.put(key, entry{out: out, err: err})
		if err != nil {
			return nil, j.wrap(st, err)
		}
		if err := keepResult(j.keep, j.dir, st.in.Kind(), st.hash, out, time.Now()); err != nil && j.keepErr == nil {
			j.keepErr = err
		}
		outs[si] = out
	}
	return outs[len(outs)-1], nil
}

// KeepError is the first failure to keep a result beside the notebook
// (the cell's result itself is not affected); nil when there was none.
func (j *Job) KeepError() error { return j.keepErr }

// PlannedHash returns the input hash cell i had when the job was planned,
// or "" when the job does not evaluate it; a front end compares it with
// the cell's hash now to see whether the work is still wanted.
func (j *Job) PlannedHash(i int) string {
	for _, st := range j.steps {
		if st.cell == i {
			return st.hash
		}
	}
	return ""
}

func (j *Job) wrap(st step, err error) error {
	var ce *CellError
	if errors.As(err, &ce) {
		return err
	}
	return &CellError{File: j.file, Line: st.line, Cell: st.cell + 1, Kind: st.in.Kind(), Err: err}
}

// Eval plans and runs cell i.
func (nb *Notebook) Eval(ctx context.Context, i int, progress func(Progress)) (Output, error) {
	j, err := nb.Plan(i)
	if err != nil {
		return nil, err
	}
	return j.Run(ctx, progress)
}

// CellResult is one cell of a headless evaluation.
type CellResult struct {
	Kind   Kind   `json:"kind"`
	Inputs Input  `json:"inputs"`
	Output Output `json:"output"`
	Error  string `json:"error,omitempty"`
}

// RunAll evaluates every cell in order, as `gravf-tui run` does. It stops
// at the first failing cell and returns the results so far with the error.
func (nb *Notebook) RunAll(ctx context.Context, progress func(Progress)) ([]CellResult, error) {
	var out []CellResult
	for i, c := range nb.Cells {
		r := CellResult{Kind: c.In.Kind(), Inputs: c.In}
		if c.In.Kind() != KindNotes {
			o, err := nb.Eval(ctx, i, progress)
			if err != nil {
				r.Error = err.Error()
				return append(out, r), err
			}
			r.Output = o
		} else {
			r.Output = &NotesOutput{Notes: c.In.(*Notes).Text}
		}
		out = append(out, r)
	}
	return out, nil
}
