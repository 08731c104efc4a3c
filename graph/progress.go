package graph

import (
	"context"
	"math"
	"os"
	"time"
)

// LoadProgress reports how far a long load has come: generating a large
// R-MAT graph or reading a large file takes seconds to minutes.
type LoadProgress struct {
	// Stage says what is being done ("drawing edges", "reading
	// web-Google.txt", "building the adjacency lists").
	Stage string
	// Done and Total count the stage's units (edges drawn, bytes read,
	// vertices sorted); Total is 0 when unknown.
	Done, Total int64
}

// LoadContext is Load with cancellation and progress: ctx stops a
// generator or reader within a few milliseconds, and progress (when not
// nil) is called a few times a second with how far the load has come.
func LoadContext(ctx context.Context, spec string, opt ReadOptions, progress func(LoadProgress)) (*Graph, error) {
	w := &watch{ctx: ctx, report: progress}
	s, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	if s.IsFile() {
		return loadFile(s, opt, w)
	}
	gs := genSpecFor(s.Gen, opt)
	if err := checkGenMemory(gs); err != nil {
		return nil, err
	}
	g, err := generate(gs, w)
	if err != nil || !opt.FloatWeights || g.Weights == nil {
		return g, err
	}
	// Generators draw integer weights; a kernel with an f32 edge field
	// reads them as floats.
	for i, x := range g.Weights {
		g.Weights[i] = math.Float32bits(float32(x))
	}
	g.FloatWeights = true
	return g, nil
}

// watch reports a load's progress and notices cancellation. A nil watch
// does neither, so that the plain Load and Generate pay one comparison.
type watch struct {
	ctx    context.Context
	report func(LoadProgress)
	err    error
	last   time.Time
}

// reportEvery is the shortest time between two progress reports.
const reportEvery = 100 * time.Millisecond

// tick is how many units (edges, lines, vertices) pass between checks of a
// watch: a check costs a clock read.
const tick = 1 << 16

// at reports that the stage has done done of total units; it returns
// false once the load is cancelled (err then holds why).
func (w *watch) at(stage string, done, total int64) bool {
	if w == nil {
		return true
	}
	if w.err != nil {
		return false
	}
	if w.ctx != nil {
		if err := w.ctx.Err(); err != nil {
			w.err = err
			return false
		}
	}
	if w.report != nil {
		if now := time.Now(); now.Sub(w.last) >= reportEvery || done == 0 {
			w.last = now
			w.report(LoadProgress{Stage: stage, Done: done, Total: total})
		}
	}
	return true
}

// failed returns the cancellation a watch saw, or nil.
func (w *watch) failed() error {
	if w == nil {
		return nil
	}
	return w.err
}

// fileSize is the size of the file at path, or 0 when unknown.
func fileSize(path string) int64 {
	if st, err := os.Stat(path); err == nil {
		return st.Size()
	}
	return 0
}
