package sim

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"os"
	"sort"
)

// maxTraceLine bounds one record, so that a file without newlines cannot
// make the reader buffer without end. The largest legitimate record, a
// sample of maxTracePEs PEs, is far smaller than any realistic trace
// needs; 64 MiB leaves room for systems much larger than today's boards.
const maxTraceLine = 64 << 20

// CauseNames names the fields of TraceCauses (and the first nine counts
// of a sample's PE columns) in file order, for tables and legends.
var CauseNames = [...]string{"busy", "apply", "hazard", "scatter", "memory", "crossbar", "network", "barrier", "done"}

// TraceCauses is the share of an interval (0..1) a PE spent in each
// cause of PEStats; the shares of one PE add up to 1 when the simulator
// counted every cycle, which is what the stall view of the TUI stacks.
type TraceCauses struct {
	Busy     float64 `json:"busy"`
	Apply    float64 `json:"apply"`
	Hazard   float64 `json:"hazard"`
	Scatter  float64 `json:"scatter"`
	Memory   float64 `json:"memory"`
	Crossbar float64 `json:"crossbar"`
	Network  float64 `json:"network"`
	Barrier  float64 `json:"barrier"`
	Done     float64 `json:"done"`
}

// Values lists the shares in the order of CauseNames, for loops.
func (c TraceCauses) Values() [len(CauseNames)]float64 {
	return [...]float64{c.Busy, c.Apply, c.Hazard, c.Scatter, c.Memory, c.Crossbar, c.Network, c.Barrier, c.Done}
}

// Dominant returns the cause with the largest share (the first on a tie),
// which is what a one-word label of an interval should say.
func (c TraceCauses) Dominant() (name string, share float64) {
	v := c.Values()
	best := 0
	for i := range v {
		if v[i] > v[best] {
			best = i
		}
	}
	return CauseNames[best], v[best]
}

// causesOf divides a PE's counts by the interval.
func causesOf(p PEStats, span int64) TraceCauses {
	d := float64(span)
	return TraceCauses{float64(p.Busy) / d, float64(p.Apply) / d, float64(p.Hazard) / d, float64(p.Scatter) / d,
		float64(p.Memory) / d, float64(p.Crossbar) / d, float64(p.Network) / d, float64(p.Barrier) / d, float64(p.Done) / d}
}

// TraceSample is one sampling interval of a trace: what every PE and link
// did during the cycles [Cycle, Cycle+Span).
type TraceSample struct {
	// Cycle is the first cycle of the interval and Span its length; the
	// samples of a trace tile the run without gaps.
	Cycle int64 `json:"cycle"`
	Span  int64 `json:"span"`
	// Superstep is the highest superstep any PE had reached at the end
	// of the interval.
	Superstep int `json:"superstep"`
	// PEBusy is each PE's share of cycles that gathered a message (0..1).
	PEBusy []float64 `json:"pe_busy"`
	// PEStall is each PE's share of cycles by cause (PEBusy repeats its
	// Busy field).
	PEStall []TraceCauses `json:"pe_stall"`
	// LinkUtil is each link's words / Span / TraceMeta.PairWordsPerCycle:
	// 1 is a link sending at its full rate. It can exceed 1 slightly when
	// the link drains credit it saved before the interval; it is 0 when
	// the link rate is unknown.
	LinkUtil []float64 `json:"link_util"`
	// PE and LinkWords are the raw counts of the interval, from which
	// the fractions above are derived.
	PE        []PEStats `json:"pe"`
	LinkWords []float64 `json:"link_words"`
}

// End returns the first cycle after the interval.
func (s *TraceSample) End() int64 { return s.Cycle + s.Span }

// TraceSuperstep is one superstep of a traced run, as Result.PerSuperstep
// lists it; a distinct type so that replay helpers can hang off it.
type TraceSuperstep Superstep

// End returns the first cycle after the superstep.
func (s TraceSuperstep) End() int64 { return s.Start + s.Cycles }

// Trace is a trace file loaded into memory for replay, summaries and
// export. Traces are small (a few numbers per PE per thousand cycles), so
// loading the whole file keeps seeking trivial. A Trace is read-only and
// safe for concurrent use; the slices it returns must not be modified.
type Trace struct {
	meta    TraceMeta
	samples []TraceSample
	steps   []TraceSuperstep
	summary TraceSummary
	records int64
}

// Meta returns the description of the traced run.
func (t *Trace) Meta() TraceMeta { return t.meta }

// Supersteps returns every superstep of the run, in order.
func (t *Trace) Supersteps() []TraceSuperstep { return t.steps }

// Summary returns the run's totals and per-PE and per-link breakdowns.
func (t *Trace) Summary() TraceSummary { return t.summary }

// Samples returns every sample, in cycle order, tiling [0, cycles).
func (t *Trace) Samples() []TraceSample { return t.samples }

// Records returns the number of records in the file, trailer excluded.
func (t *Trace) Records() int64 { return t.records }

// SeekSuperstep returns the first cycle of superstep i, for a replay that
// jumps to a superstep; ok is false when there is no such superstep.
func (t *Trace) SeekSuperstep(i int) (startCycle int64, ok bool) {
	if i < 0 || i >= len(t.steps) {
		return 0, false
	}
	return t.steps[i].Start, true
}

// SeekCycle returns the index of the sample whose interval holds cycle c,
// clamped to the first or last sample when c lies before or after the
// run, so that a replay cursor can always be placed; -1 when the trace has
// no samples.
func (t *Trace) SeekCycle(c int64) int {
	if len(t.samples) == 0 {
		return -1
	}
	i := sort.Search(len(t.samples), func(i int) bool { return t.samples[i].End() > c })
	return min(i, len(t.samples)-1)
}

// Window returns the samples whose (first) cycle lies in [from, to): the
// frames a replay shows for that stretch of time. It is a sub-slice of
// Samples, not a copy; empty when to <= from.
func (t *Trace) Window(from, to int64) []TraceSample {
	if to <= from {
		return nil
	}
	lo := sort.Search(len(t.samples), func(i int) bool { return t.samples[i].Cycle >= from })
	hi := sort.Search(len(t.samples), func(i int) bool { return t.samples[i].Cycle >= to })
	return t.samples[lo:hi:hi]
}

// SuperstepAt returns the index of the superstep that was running at the
// given cycle (the last one to have started by then), or -1 when the
// cycle lies outside the run.
func (t *Trace) SuperstepAt(cycle int64) int {
	if cycle < 0 || cycle >= t.summary.Cycles || len(t.steps) == 0 {
		return -1
	}
	i := sort.Search(len(t.steps), func(i int) bool { return t.steps[i].Start > cycle })
	return i - 1
}

// ReadTraceFile loads a trace file; errors name the file.
func ReadTraceFile(path string) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := OpenTrace(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// ErrTraceTruncated is wrapped by the errors of OpenTrace for a file that
// ends early: a run that was killed, a copy that was cut, a file still
// being written. Callers can tell it from corruption with errors.Is.
var ErrTraceTruncated = errors.New("trace truncated")

// OpenTrace reads a whole trace (gzip-compressed, or the uncompressed JSON
// lines for hand inspection) and checks it: format and version, every
// record's shape and counts against the header, the order of records, the
// record count and CRC-32 of the trailer. A file that is cut, corrupt,
// from a newer version or from a failed run is rejected with an error
// naming the line.
func OpenTrace(r io.Reader) (*Trace, error) {
	br := bufio.NewReader(r)
	var src io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("trace: %w: the gzip header is cut", ErrTraceTruncated)
		}
		if err != nil {
			return nil, fmt.Errorf("trace: %w", err)
		}
		src = zr
	}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 0, 4096), maxTraceLine)
	sc.Split(scanRecords)
	p := traceParser{t: &Trace{}, crc: crc32.NewIEEE()}
	for sc.Scan() {
		p.line++
		if err := p.record(sc.Bytes()); err != nil {
			return nil, fmt.Errorf("trace: line %d: %w", p.line, err)
		}
	}
	if err := sc.Err(); err != nil {
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, fmt.Errorf("trace: %w: the compressed stream ends early (after line %d)", ErrTraceTruncated, p.line)
		case errors.Is(err, bufio.ErrTooLong):
			return nil, fmt.Errorf("trace: line %d: longer than %d MiB", p.line+1, maxTraceLine>>20)
		}
		return nil, fmt.Errorf("trace: corrupt after line %d: %w", p.line, err)
	}
	if !p.ended {
		if p.line == 0 {
			return nil, fmt.Errorf("trace: %w: the file is empty", ErrTraceTruncated)
		}
		return nil, fmt.Errorf("trace: %w: no end record after line %d (the run was interrupted or the file was cut)", ErrTraceTruncated, p.line)
	}
	return p.t, nil
}

// scanRecords splits lines but keeps the newline, so that the checksum
// covers exactly the bytes written and a last line without its newline is
// seen as cut.
func scanRecords(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i+1], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

type traceParser struct {
	t     *Trace
	crc   hash.Hash32
	line  int64
	phase int // 0 header, 1 samples, 2 supersteps, 3 summary seen
	ended bool
	next  int64 // first cycle of the next sample
	// partial is set by the marker that follows a partial run's summary.
	partial bool
}

// record checks one line and adds it to the trace.
func (p *traceParser) record(b []byte) error {
	if p.ended {
		return errors.New("data after the end record")
	}
	if b[len(b)-1] != '\n' {
		return fmt.Errorf("%w: the last line is cut (no newline)", ErrTraceTruncated)
	}
	body := b[:len(b)-1]
	if p.line == 1 {
		p.crc.Write(b)
		return p.header(body)
	}
	var kind struct {
		T string `json:"t"`
	}
	if err := json.Unmarshal(body, &kind); err != nil {
		return fmt.Errorf("not a JSON record: %v", err)
	}
	if kind.T == recEnd {
		return p.end(body)
	}
	p.crc.Write(b)
	switch kind.T {
	case recSample:
		return p.sample(body)
	case recSuperstep:
		return p.superstep(body)
	case recSummary:
		return p.summaryRecord(body)
	case recAbort:
		var a abortRecord
		if err := json.Unmarshal(body, &a); err != nil {
			return fmt.Errorf("abort record: %v", err)
		}
		if a.Partial && p.phase == 3 && p.t.summary.Stopped != "" && !p.partial {
			p.partial = true // the marker of a partial run, after its summary
			return nil
		}
		return fmt.Errorf("the run that wrote this trace failed: %s", a.Error)
	case "":
		return errors.New(`record without a type ("t")`)
	}
	// A record type added later in version 1: skipped, still checksummed.
	return nil
}

func (p *traceParser) header(body []byte) error {
	var probe struct {
		Format  *string `json:"format"`
		Version *int    `json:"version"`
	}
	if err := json.Unmarshal(body, &probe); err != nil || probe.Format == nil || *probe.Format != TraceFormat {
		return fmt.Errorf("not a %s file (the header line does not say \"format\":%q)", TraceFormat, TraceFormat)
	}
	if probe.Version == nil {
		return errors.New("header has no version")
	}
	if v := *probe.Version; v != TraceVersion {
		if v > TraceVersion {
			return fmt.Errorf("trace format version %d is newer than this program reads (%d); update gravf-tui", v, TraceVersion)
		}
		return fmt.Errorf("unsupported trace format version %d (this program reads %d)", v, TraceVersion)
	}
	var h traceHeader
	if err := json.Unmarshal(body, &h); err != nil {
		return fmt.Errorf("header: %v", err)
	}
	if err := h.TraceMeta.check(); err != nil {
		return fmt.Errorf("header: %v", err)
	}
	p.t.meta = h.TraceMeta
	p.phase = 1
	return nil
}

func (p *traceParser) sample(body []byte) error {
	if p.phase != 1 {
		return errors.New("sample record after the supersteps")
	}
	var s sampleRecord
	if err := json.Unmarshal(body, &s); err != nil {
		return fmt.Errorf("sample: %v", err)
	}
	m := &p.t.meta
	switch {
	case s.Cycle != p.next:
		return fmt.Errorf("sample starts at cycle %d, want %d (samples must tile the run)", s.Cycle, p.next)
	case s.Span < 1 || s.Span > math.MaxInt64-s.Cycle:
		return fmt.Errorf("sample spans %d cycles", s.Span)
	case s.Superstep < 0:
		return fmt.Errorf("sample in superstep %d", s.Superstep)
	case len(p.t.samples) > 0 && s.Superstep < p.t.samples[len(p.t.samples)-1].Superstep:
		return fmt.Errorf("sample goes back to superstep %d", s.Superstep)
	case len(s.PE) != m.NumPEs:
		return fmt.Errorf("sample has %d PEs, the header %d", len(s.PE), m.NumPEs)
	case len(s.LinkWords) != len(m.Links):
		return fmt.Errorf("sample has %d links, the header %d", len(s.LinkWords), len(m.Links))
	}
	ts := TraceSample{Cycle: s.Cycle, Span: s.Span, Superstep: s.Superstep,
		PEBusy: make([]float64, m.NumPEs), PEStall: make([]TraceCauses, m.NumPEs), PE: make([]PEStats, m.NumPEs),
		LinkUtil: make([]float64, len(m.Links)), LinkWords: s.LinkWords}
	for i, c := range s.PE {
		if len(c) != peFields {
			return fmt.Errorf("sample: PE %d has %d counts, want %d", i, len(c), peFields)
		}
		for _, x := range c {
			if x < 0 {
				return fmt.Errorf("sample: PE %d has a negative count", i)
			}
		}
		st := PEStats{Busy: c[0], Apply: c[1], Hazard: c[2], Scatter: c[3], Memory: c[4], Crossbar: c[5],
			Network: c[6], Barrier: c[7], Done: c[8], Messages: c[9], MemWords: c[10]}
		ts.PE[i] = st
		ts.PEStall[i] = causesOf(st, s.Span)
		ts.PEBusy[i] = ts.PEStall[i].Busy
	}
	for i, w := range s.LinkWords {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("sample: link %d sent %g words", i, w)
		}
		if m.PairWordsPerCycle > 0 {
			ts.LinkUtil[i] = w / float64(s.Span) / m.PairWordsPerCycle
		}
	}
	p.t.samples = append(p.t.samples, ts)
	p.next = ts.End()
	return nil
}

func (p *traceParser) superstep(body []byte) error {
	if p.phase != 1 && p.phase != 2 {
		return errors.New("superstep record after the summary")
	}
	p.phase = 2
	var r superstepRecord
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Errorf("superstep: %v", err)
	}
	s := TraceSuperstep(r.Superstep)
	n := len(p.t.steps)
	switch {
	case s.Index != n:
		return fmt.Errorf("superstep %d where %d was due", s.Index, n)
	case s.Start < 0 || s.Cycles < 0 || s.Cycles > math.MaxInt64-s.Start || s.Active < 0 || s.Messages < 0:
		return fmt.Errorf("superstep %d has a negative or overflowing count", s.Index)
	case n > 0 && s.Start < p.t.steps[n-1].Start:
		return fmt.Errorf("superstep %d starts at cycle %d, before superstep %d", s.Index, s.Start, n-1)
	}
	p.t.steps = append(p.t.steps, s)
	return nil
}

func (p *traceParser) summaryRecord(body []byte) error {
	if p.phase == 3 {
		return errors.New("a second summary record")
	}
	p.phase = 3
	var r summaryRecord
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Errorf("summary: %v", err)
	}
	s, m := r.TraceSummary, &p.t.meta
	switch {
	case s.Cycles < 0 || s.Messages < 0:
		return errors.New("summary has a negative count")
	case s.Supersteps != len(p.t.steps):
		return fmt.Errorf("summary counts %d supersteps, the file holds %d", s.Supersteps, len(p.t.steps))
	case len(s.PerPE) != m.NumPEs:
		return fmt.Errorf("summary has %d PEs, the header %d", len(s.PerPE), m.NumPEs)
	case len(s.Links) != len(m.Links):
		return fmt.Errorf("summary has %d links, the header %d", len(s.Links), len(m.Links))
	case len(p.t.samples) > 0 && p.next != s.Cycles:
		return fmt.Errorf("the samples end at cycle %d, the run at %d", p.next, s.Cycles)
	}
	for i, l := range s.Links {
		if l.From != m.Links[i].From || l.To != m.Links[i].To {
			return fmt.Errorf("summary link %d is %d->%d, the header says %d->%d", i, l.From, l.To, m.Links[i].From, m.Links[i].To)
		}
	}
	for _, st := range p.t.steps {
		if st.End() > s.Cycles {
			return fmt.Errorf("superstep %d ends at cycle %d, after the run (%d)", st.Index, st.End(), s.Cycles)
		}
	}
	p.t.summary = s
	return nil
}

func (p *traceParser) end(body []byte) error {
	var e endRecord
	if err := json.Unmarshal(body, &e); err != nil {
		return fmt.Errorf("end record: %v", err)
	}
	// The trailer is outside its own checksum, so it must be exactly what
	// the writer produces (encoding/json matches keys case-insensitively
	// and skips unknown ones).
	if canon, _ := json.Marshal(e); !bytes.Equal(canon, body) {
		return errors.New("malformed end record")
	}
	if p.phase != 3 {
		return errors.New("end record before the summary")
	}
	if p.t.summary.Stopped != "" && !p.partial {
		return errors.New("the summary of a partial run lacks its marker")
	}
	if e.Records != p.line-1 {
		return fmt.Errorf("the end record counts %d records, the file holds %d", e.Records, p.line-1)
	}
	if got := p.crc.Sum32(); e.CRC32 != got {
		return fmt.Errorf("checksum mismatch: the end record says crc32 %d, the records give %d (the file was altered)", e.CRC32, got)
	}
	p.ended = true
	p.t.records = e.Records
	return nil
}
