package sim

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"runtime"
	"runtime/debug"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/graph"
)

// Trace file identification. A trace file is gzip-compressed JSON lines:
//
//	{"format":"gravf-trace","version":1, ...TraceMeta}      header
//	{"t":"sample","c":0,"n":1000,"s":0,"pe":[[...],...],"lw":[...]}
//	...                                                        one per interval
//	{"t":"superstep","superstep":0,"start_cycle":0,...}        one per superstep
//	{"t":"summary","cycles":...,"per_pe":[...],...}            exactly one
//	{"t":"end","records":N,"crc32":X}                          trailer
//
// A sample covers the cycles [c, c+n): "s" is the highest superstep any PE
// had reached at its end, "pe" holds for every PE (global index, FPGA-major)
// the cycles of the interval spent in each cause, in the order of
// TraceCauses, then the messages gathered and the off-chip words read;
// "lw" holds the link words sent on every link (in the order of
// TraceMeta.Links). Raw counts are stored, not fractions, so nothing is
// rounded; the reader divides by the interval (and, for links, by
// TraceMeta.PairWordsPerCycle). The trailer counts the records before it
// (header included) and holds the CRC-32 (IEEE) of their uncompressed
// bytes, newlines included, so a cut or edited file is rejected even when
// it is still valid gzip. A run that failed ends with {"t":"abort",
// "error":...} and no trailer. docs/TRACE.md describes every field.
const (
	// TraceFormat is the header's "format" value; it tells a trace from
	// any other JSON-lines file.
	TraceFormat = "gravf-trace"
	// TraceVersion is the version this package writes and reads. Fields
	// may be added within a version (readers ignore what they do not
	// know); anything an older reader would misread bumps it.
	TraceVersion = 1
	// DefaultTraceInterval is the sampling interval in cycles when
	// TraceOptions leaves it zero: fine enough to see phases inside a
	// superstep, coarse enough that a long run's trace stays small.
	DefaultTraceInterval = 1000
)

// Limits a header must respect, so that a reader never sizes anything by
// an absurd count in a corrupt or hostile file.
const (
	maxTraceFPGAs = 1024
	maxTracePEs   = 1 << 20
)

// peFields is the number of counts per PE in a sample: the nine causes of
// TraceCauses, then messages and off-chip memory words.
const peFields = 11

// TraceLink names one direction of an FPGA pair, so that a trace's link
// columns can be labelled without the simulator that wrote them.
type TraceLink struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// TraceMeta describes the run a trace records. It is the header of the
// file, so that a trace can be understood, replayed and exported on its
// own, long after the board file or graph it came from has changed.
type TraceMeta struct {
	Board       string            `json:"board"`
	Kernel      string            `json:"kernel"`
	Graph       string            `json:"graph"`
	Vertices    int               `json:"vertices"`
	Edges       int               `json:"edges"`
	FPGAs       int               `json:"fpgas"`
	PEs         int               `json:"pes"`     // per FPGA
	NumPEs      int               `json:"num_pes"` // FPGAs × PEs; PE g lives on FPGA g / PEs
	Arch        arch.Arch         `json:"arch"`
	Mem         arch.MemKind      `json:"mem"`
	Detail      Detail            `json:"detail"`
	Partitioner graph.Partitioner `json:"partitioner"`
	Packing     bool              `json:"packing"`
	Filter      bool              `json:"filter"`
	Seed        uint64            `json:"seed"`
	// ClockHz converts cycles to time (Chrome export, seconds).
	ClockHz float64 `json:"clock_hz"`
	// PairWordsPerCycle is the rate of one link direction in link words
	// per cycle: a sample's link utilisation is its words / span / rate.
	PairWordsPerCycle float64 `json:"pair_words_per_cycle"`
	// Links lists the links in the order of Result.Links and of every
	// sample's link columns.
	Links []TraceLink `json:"links"`
	// Interval is the sampling interval in cycles; NewRecorder fills it.
	Interval int64 `json:"interval"`
	// Generator and GoVersion name the program that wrote the trace, to
	// tell traces of different simulator versions apart.
	Generator string `json:"generator"`
	GoVersion string `json:"go_version"`
}

// NewTraceMeta describes a setup before it runs, applying the same
// defaults as Run (architecture, memory, detail, partitioner) and the link
// order the simulator uses, so callers need not repeat either.
func NewTraceMeta(s *Setup) (TraceMeta, error) {
	if s == nil || s.Board == nil || s.Kernel == nil || s.Graph == nil {
		return TraceMeta{}, errors.New("trace: the setup needs a board, a kernel and a graph")
	}
	c := *s
	if err := c.applyDefaults(); err != nil {
		return TraceMeta{}, err
	}
	s = &c
	d, err := s.design()
	if err != nil {
		return TraceMeta{}, err
	}
	p := NewParams(d)
	m := TraceMeta{
		Board: s.Board.Name, Kernel: s.Kernel.Spec.Name, Graph: s.Graph.Name,
		Vertices: s.Graph.NumVertices(), Edges: s.Graph.NumEdges(),
		FPGAs: s.FPGAs, PEs: s.PEs, NumPEs: s.FPGAs * s.PEs,
		Arch: s.Arch, Mem: s.Mem, Detail: s.Detail, Partitioner: s.Partitioner,
		Packing: s.Packing, Filter: s.Filter, Seed: s.Seed,
		ClockHz: p.ClockHz, PairWordsPerCycle: p.PairWordsPerCycle,
		Links: pairLinks(s.FPGAs),
	}
	m.Generator, m.GoVersion = buildVersion()
	return m, nil
}

// pairLinks lists every ordered FPGA pair in the simulator's order.
func pairLinks(fpgas int) []TraceLink {
	var out []TraceLink
	for a := 0; a < fpgas; a++ {
		for b := 0; b < fpgas; b++ {
			if a != b {
				out = append(out, TraceLink{From: a, To: b})
			}
		}
	}
	return out
}

// buildVersion names this binary: the module version when it was built
// from a tagged module or a VCS checkout, "(devel)" otherwise.
func buildVersion() (generator, goVersion string) {
	generator = "gravf-tui"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v := bi.Main.Version
		if v == "" {
			v = "(devel)"
		}
		generator += " " + v
	}
	return generator, runtime.Version()
}

// check rejects a description that a reader would reject, so that the
// error shows up when recording starts rather than when the file is read.
func (m *TraceMeta) check() error {
	switch {
	case m.FPGAs < 1 || m.FPGAs > maxTraceFPGAs:
		return fmt.Errorf("%d FPGAs (want 1..%d)", m.FPGAs, maxTraceFPGAs)
	case m.PEs < 1 || m.PEs > maxTracePEs:
		return fmt.Errorf("%d PEs per FPGA (want 1..%d)", m.PEs, maxTracePEs)
	case m.NumPEs != m.FPGAs*m.PEs || m.NumPEs > maxTracePEs:
		return fmt.Errorf("num_pes %d is not fpgas × pes = %d × %d (at most %d)", m.NumPEs, m.FPGAs, m.PEs, maxTracePEs)
	case !(m.ClockHz >= 1) || math.IsInf(m.ClockHz, 0):
		return fmt.Errorf("clock %g Hz", m.ClockHz)
	case !(m.PairWordsPerCycle >= 0) || math.IsInf(m.PairWordsPerCycle, 0):
		return fmt.Errorf("link rate %g words per cycle", m.PairWordsPerCycle)
	case m.Interval < 1:
		return fmt.Errorf("interval %d cycles", m.Interval)
	case len(m.Links) != m.FPGAs*(m.FPGAs-1):
		return fmt.Errorf("%d links for %d FPGAs (want one per ordered pair, %d)", len(m.Links), m.FPGAs, m.FPGAs*(m.FPGAs-1))
	}
	for i, l := range m.Links {
		if l.From < 0 || l.From >= m.FPGAs || l.To < 0 || l.To >= m.FPGAs || l.From == l.To {
			return fmt.Errorf("link %d: %d->%d is not a pair of distinct FPGAs of %d", i, l.From, l.To, m.FPGAs)
		}
	}
	return nil
}

// TraceOptions configures a Recorder.
type TraceOptions struct {
	// Interval is the number of cycles between utilisation samples
	// (0: DefaultTraceInterval). Smaller shows more detail and costs a
	// larger file: each sample holds about 12 numbers per PE.
	Interval int64
	// Meta describes the run; NewTraceMeta fills it from a Setup.
	Meta TraceMeta
}

// Trace record types (the "t" field).
const (
	recSample    = "sample"
	recSuperstep = "superstep"
	recSummary   = "summary"
	recEnd       = "end"
	recAbort     = "abort"
)

type traceHeader struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	TraceMeta
}

type sampleRecord struct {
	T         string            `json:"t"`
	Cycle     int64             `json:"c"`
	Span      int64             `json:"n"`
	Superstep int               `json:"s"`
	PE        [][]int64         `json:"pe"`
	LinkWords []float64         `json:"lw"`
	peBuf     [][peFields]int64 // backs PE, reused between samples
}

type superstepRecord struct {
	T string `json:"t"`
	Superstep
}

type summaryRecord struct {
	T string `json:"t"`
	TraceSummary
}

type endRecord struct {
	T       string `json:"t"`
	Records int64  `json:"records"`
	CRC32   uint32 `json:"crc32"`
}

type abortRecord struct {
	T     string `json:"t"`
	Error string `json:"error"`
	// Partial marks the record that follows the summary of a run that
	// stopped early (TraceSummary.Stopped): readers that know it accept the
	// file as a partial run; older ones refuse it with Error, instead of
	// taking the partial run for a whole one.
	Partial bool `json:"partial,omitempty"`
}

// TraceSummary is a run's outcome as a trace keeps it: what Result
// measured, minus what depends on the host (wall time) or is too large
// (vertex states), so that the same run always writes the same bytes.
type TraceSummary struct {
	Cycles       int64       `json:"cycles"`
	Seconds      float64     `json:"seconds"`
	Messages     int64       `json:"messages"`
	TEPS         float64     `json:"teps"`
	Supersteps   int         `json:"supersteps"`
	ResultSHA256 string      `json:"result_sha256"`
	ModelTSys    float64     `json:"model_tsys"`
	Efficiency   float64     `json:"efficiency"`
	Stalls       PEStats     `json:"stalls"`
	PerPE        []PEStats   `json:"per_pe"`
	Links        []LinkStats `json:"links"`
	// Stopped says why a partial run stopped early (interrupted, superstep
	// or cycle limit; see Result.Stopped); empty for a run that converged.
	Stopped string `json:"stopped,omitempty"`
}

// summaryOf keeps the deterministic part of a result. Non-finite figures
// (which JSON cannot hold) become 0.
func summaryOf(res *Result) TraceSummary {
	fin := func(x float64) float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0
		}
		return x
	}
	s := TraceSummary{Cycles: res.Cycles, Seconds: fin(res.Seconds), Messages: res.Messages, TEPS: fin(res.TEPS),
		Supersteps: res.Supersteps, ResultSHA256: res.ResultSHA256, ModelTSys: fin(res.ModelTSys),
		Efficiency: fin(res.Efficiency), Stalls: res.Stalls, PerPE: res.PerPE, Stopped: res.Stopped}
	for _, l := range res.Links {
		l.Words, l.Utilisation = fin(l.Words), fin(l.Utilisation)
		s.Links = append(s.Links, l)
	}
	return s
}

// Recorder writes a trace file while a run goes on. It is the Listener
// the TUI and `gravf-tui sim --trace` attach to a Setup; between sample
// points its Cycle method only compares two integers, so recording costs
// nothing measurable.
//
// Use:
//
//	rec, err := sim.NewRecorder(f, sim.TraceOptions{Meta: meta})
//	setup.Listener = rec
//	res, err := sim.Run(ctx, setup)
//	if err != nil { rec.Abort(err) } else { err = rec.Close(res) }
//
// The Recorder never closes w. Write errors are kept and returned by Close.
type Recorder struct {
	zw       *gzip.Writer
	crc      hash.Hash32
	meta     TraceMeta
	interval int64
	next     int64 // cycle count at which the next sample is due
	last     int64 // cycle count of the last sample's end
	prevPE   []PEStats
	prevLink []float64
	records  int64
	rec      sampleRecord
	err      error
	closed   bool
}

// NewRecorder starts a trace on w: it checks the description and writes
// the header at once, so a bad description fails before the run starts.
func NewRecorder(w io.Writer, opt TraceOptions) (*Recorder, error) {
	if opt.Interval < 0 {
		return nil, fmt.Errorf("trace: interval %d cycles is negative", opt.Interval)
	}
	if opt.Interval == 0 {
		opt.Interval = DefaultTraceInterval
	}
	meta := opt.Meta
	meta.Interval = opt.Interval
	meta.Links = append([]TraceLink(nil), meta.Links...)
	if err := meta.check(); err != nil {
		return nil, fmt.Errorf("trace: bad description: %w", err)
	}
	// The zero gzip.Header has no name, no comment and ModTime zero, so
	// the same run gives the same bytes.
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	r := &Recorder{zw: zw, crc: crc32.NewIEEE(), meta: meta, interval: meta.Interval, next: meta.Interval,
		prevPE: make([]PEStats, meta.NumPEs), prevLink: make([]float64, len(meta.Links))}
	r.rec.peBuf = make([][peFields]int64, meta.NumPEs)
	r.rec.PE = make([][]int64, meta.NumPEs)
	for i := range r.rec.PE {
		r.rec.PE[i] = r.rec.peBuf[i][:]
	}
	r.rec.LinkWords = make([]float64, len(meta.Links))
	r.write(traceHeader{Format: TraceFormat, Version: TraceVersion, TraceMeta: meta})
	if r.err != nil {
		return nil, r.err
	}
	return r, nil
}

// Meta returns the description the recorder writes, with Interval filled.
func (r *Recorder) Meta() TraceMeta { return r.meta }

// write appends one record; the first error sticks.
func (r *Recorder) write(v any) {
	if r.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		r.fail(fmt.Errorf("trace: encoding a record: %w", err))
		return
	}
	b = append(b, '\n')
	r.crc.Write(b)
	if _, err := r.zw.Write(b); err != nil {
		r.fail(fmt.Errorf("trace: %w", err))
		return
	}
	r.records++
}

func (r *Recorder) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.next = math.MaxInt64 // sample no more
}

// Cycle implements Listener: at each multiple of the interval it records
// what happened since the last sample. A simulator that skips idle cycles
// may pass several sample points at once; the sample then spans all the
// cycles since the previous one.
func (r *Recorder) Cycle(v View) {
	if c := v.Now() + 1; c >= r.next {
		r.sample(c, v.Superstep(), v.PEStats(), v.LinkWords())
	}
}

// sample writes the interval [r.last, end) from cumulative counters.
func (r *Recorder) sample(end int64, superstep int, pes []PEStats, words []float64) {
	if r.err != nil || end <= r.last {
		return
	}
	if len(pes) != len(r.prevPE) || len(words) != len(r.prevLink) {
		r.fail(fmt.Errorf("trace: the run has %d PEs and %d links, the description %d and %d",
			len(pes), len(words), len(r.prevPE), len(r.prevLink)))
		return
	}
	s := &r.rec
	s.T, s.Cycle, s.Span, s.Superstep = recSample, r.last, end-r.last, max(superstep, 0)
	for i, p := range pes {
		q := r.prevPE[i]
		d := &s.peBuf[i]
		*d = [peFields]int64{p.Busy - q.Busy, p.Apply - q.Apply, p.Hazard - q.Hazard, p.Scatter - q.Scatter,
			p.Memory - q.Memory, p.Crossbar - q.Crossbar, p.Network - q.Network, p.Barrier - q.Barrier,
			p.Done - q.Done, p.Messages - q.Messages, p.MemWords - q.MemWords}
		for _, x := range d {
			if x < 0 {
				r.fail(fmt.Errorf("trace: PE %d's counters went backwards at cycle %d", i, end))
				return
			}
		}
	}
	for i, w := range words {
		dw := w - r.prevLink[i]
		if !(dw >= 0) || math.IsInf(dw, 0) {
			r.fail(fmt.Errorf("trace: link %d's word count went backwards at cycle %d", i, end))
			return
		}
		s.LinkWords[i] = dw
	}
	r.write(s)
	copy(r.prevPE, pes)
	copy(r.prevLink, words)
	r.last = end
	if r.err == nil {
		r.next = (end/r.interval + 1) * r.interval
	}
}

// Close finishes the trace of a run that completed, or that stopped early
// with a partial result (Result.Stopped: the trace is then marked partial,
// see abortRecord): the last, partial sample
// (from the result's final counters), one record per superstep, the
// summary and the trailer. It flushes the compressed stream but does not
// close the underlying writer. After an error during recording, Close
// ends the file as Abort does and returns that error.
func (r *Recorder) Close(res *Result) error {
	if r.closed {
		return errors.New("trace: recorder already closed")
	}
	if res == nil {
		err := errors.New("trace: Close needs the run's result")
		r.Abort(err)
		return err
	}
	if r.err == nil {
		switch {
		case len(res.PerPE) != r.meta.NumPEs:
			r.fail(fmt.Errorf("trace: the result has %d PEs, the description %d", len(res.PerPE), r.meta.NumPEs))
		case len(res.Links) != len(r.meta.Links):
			r.fail(fmt.Errorf("trace: the result has %d links, the description %d", len(res.Links), len(r.meta.Links)))
		case res.Cycles < r.last:
			r.fail(fmt.Errorf("trace: the result ends at cycle %d, before the last sample (%d)", res.Cycles, r.last))
		}
		for i, l := range res.Links {
			if r.err == nil && (l.From != r.meta.Links[i].From || l.To != r.meta.Links[i].To) {
				r.fail(fmt.Errorf("trace: result link %d is %d->%d, the description says %d->%d",
					i, l.From, l.To, r.meta.Links[i].From, r.meta.Links[i].To))
			}
		}
	}
	if r.err != nil {
		err := r.err
		r.Abort(err)
		return err
	}
	words := make([]float64, len(res.Links))
	for i, l := range res.Links {
		words[i] = l.Words
	}
	r.sample(res.Cycles, res.Supersteps-1, res.PerPE, words)
	for _, st := range res.PerSuperstep {
		r.write(superstepRecord{T: recSuperstep, Superstep: st})
	}
	r.write(summaryRecord{T: recSummary, TraceSummary: summaryOf(res)})
	if res.Stopped != "" {
		r.write(abortRecord{T: recAbort, Partial: true,
			Error: "the run stopped early (" + res.Stopped + "); reading its partial trace needs a newer gravf-tui"})
	}
	if r.err != nil {
		err := r.err
		r.Abort(err)
		return err
	}
	r.write(endRecord{T: recEnd, Records: r.records, CRC32: r.crc.Sum32()})
	r.closed = true
	r.next = math.MaxInt64
	if err := r.zw.Close(); err != nil && r.err == nil {
		r.err = fmt.Errorf("trace: %w", err)
	}
	return r.err
}

// Abort ends the trace of a run that failed: it writes an abort record
// naming the error and no trailer, so that readers reject the file with
// that error instead of replaying a partial run as if it were whole.
// It does not close the underlying writer; the caller may remove the file.
func (r *Recorder) Abort(cause error) error {
	if r.closed {
		return nil
	}
	r.closed = true
	msg := "aborted"
	if cause != nil {
		msg = cause.Error()
	}
	err := r.err
	r.err = nil
	r.write(abortRecord{T: recAbort, Error: msg})
	if r.err != nil && err == nil {
		err = r.err
	}
	if cerr := r.zw.Close(); cerr != nil && err == nil {
		err = cerr
	}
	r.err = err
	r.next = math.MaxInt64
	return err
}
