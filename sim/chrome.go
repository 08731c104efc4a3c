package sim

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// chromeEvent is one event of the Trace Event Format. Ts and Dur are in
// microseconds; Dur is a pointer so that a zero-length complete event
// still carries it.
type chromeEvent struct {
	Name string   `json:"name"`
	Cat  string   `json:"cat,omitempty"`
	Ph   string   `json:"ph"`
	Ts   float64  `json:"ts"`
	Dur  *float64 `json:"dur,omitempty"`
	Pid  int      `json:"pid"`
	Tid  int      `json:"tid"`
	Args any      `json:"args,omitempty"`
}

// round4 keeps four decimals of a share: enough for a chart, and it
// halves the size of the file.
func round4(x float64) float64 {
	if math.Abs(x) > 1e12 {
		return x // beyond any real share; rounding would overflow
	}
	return math.Round(x*1e4) / 1e4
}

// WriteChrome exports the trace in the Trace Event Format (JSON object
// form) that Perfetto (ui.perfetto.dev) and chrome://tracing open, so a
// run can be inspected on a zoomable timeline:
//
//   - process 0 ("run") has a "supersteps" thread with one complete ("X")
//     event per superstep and a "messages per cycle" counter;
//   - process f+1 is FPGA f, with one thread per PE (thread id = global PE
//     index) holding one complete event per sample, named after the
//     cause that dominated it, with every cause's share in its args;
//   - counters ("C") per PE ("PE g busy") and per link leaving the FPGA
//     ("link f->t", utilisation) change at every sample;
//   - metadata ("M") events name and order the processes and threads.
//
// Times are microseconds derived from cycles and TraceMeta.ClockHz.
func (t *Trace) WriteChrome(w io.Writer) error {
	cw := &chromeWriter{bw: bufio.NewWriterSize(w, 1<<16), m: t.meta, first: true}
	cw.bw.WriteString(`{"traceEvents":[` + "\n")
	cw.names()
	cw.supersteps(t.steps)
	cw.samples(t.samples)
	if cw.err != nil {
		return cw.err
	}
	return cw.finish()
}

// chromeWriter writes the events of a Trace Event Format file one by one;
// err is the first error, after which it writes nothing.
type chromeWriter struct {
	bw    *bufio.Writer
	m     TraceMeta
	first bool
	err   error
}

// us converts cycles to microseconds.
func (cw *chromeWriter) us(c int64) float64 { return float64(c) * 1e6 / cw.m.ClockHz }

// emit writes one event, separated from the one before.
func (cw *chromeWriter) emit(e chromeEvent) {
	if cw.err != nil {
		return
	}
	b, err := json.Marshal(e)
	if err != nil {
		cw.err = err
		return
	}
	if !cw.first {
		cw.bw.WriteString(",\n")
	}
	cw.first = false
	_, cw.err = cw.bw.Write(b)
}

// names writes the metadata events that name and order the processes (the
// run, then one per FPGA) and threads (the supersteps, one per PE).
func (cw *chromeWriter) names() {
	type nameArg struct {
		Name string `json:"name"`
	}
	type sortArg struct {
		SortIndex int `json:"sort_index"`
	}
	m := cw.m
	cw.emit(chromeEvent{Name: "process_name", Ph: "M", Pid: 0, Args: nameArg{fmt.Sprintf("run: %s on %s", m.Kernel, m.Graph)}})
	cw.emit(chromeEvent{Name: "process_sort_index", Ph: "M", Pid: 0, Args: sortArg{0}})
	cw.emit(chromeEvent{Name: "thread_name", Ph: "M", Pid: 0, Tid: 0, Args: nameArg{"supersteps"}})
	for f := 0; f < m.FPGAs; f++ {
		cw.emit(chromeEvent{Name: "process_name", Ph: "M", Pid: f + 1, Args: nameArg{fmt.Sprintf("FPGA %d", f)}})
		cw.emit(chromeEvent{Name: "process_sort_index", Ph: "M", Pid: f + 1, Args: sortArg{f + 1}})
		for l := 0; l < m.PEs; l++ {
			g := f*m.PEs + l
			cw.emit(chromeEvent{Name: "thread_name", Ph: "M", Pid: f + 1, Tid: g, Args: nameArg{fmt.Sprintf("PE %d", g)}})
			cw.emit(chromeEvent{Name: "thread_sort_index", Ph: "M", Pid: f + 1, Tid: g, Args: sortArg{g}})
		}
	}
}

// supersteps writes one complete event per superstep on the run's thread.
func (cw *chromeWriter) supersteps(steps []TraceSuperstep) {
	type stepArgs struct {
		Superstep  int   `json:"superstep"`
		StartCycle int64 `json:"start_cycle"`
		Cycles     int64 `json:"cycles"`
		Active     int64 `json:"active"`
		Messages   int64 `json:"messages"`
	}
	for _, s := range steps {
		d := cw.us(s.End()) - cw.us(s.Start)
		cw.emit(chromeEvent{Name: fmt.Sprintf("superstep %d", s.Index), Cat: "superstep", Ph: "X", Ts: cw.us(s.Start), Dur: &d,
			Pid: 0, Tid: 0, Args: stepArgs{s.Index, s.Start, s.Cycles, s.Active, s.Messages}})
	}
}

// valueArg is a counter's value.
type valueArg struct {
	Value float64 `json:"value"`
}

// samples writes every sample: per PE a complete event named after the
// dominant cause and its busy counter, the messages per cycle, and per
// link its utilisation.
func (cw *chromeWriter) samples(samples []TraceSample) {
	type peArgs struct {
		TraceCauses
		Messages   int64 `json:"messages"`
		StartCycle int64 `json:"start_cycle"`
		Cycles     int64 `json:"cycles"`
	}
	m := cw.m
	for i := range samples {
		s := &samples[i]
		ts := cw.us(s.Cycle)
		d := cw.us(s.End()) - ts
		var msgs int64
		for g := range s.PE {
			msgs += s.PE[g].Messages
			f := g / m.PEs
			c := s.PEStall[g]
			name, _ := c.Dominant()
			r := TraceCauses{round4(c.Busy), round4(c.Apply), round4(c.Hazard), round4(c.Scatter), round4(c.Memory),
				round4(c.Crossbar), round4(c.Network), round4(c.Barrier), round4(c.Done)}
			cw.emit(chromeEvent{Name: name, Cat: "pe", Ph: "X", Ts: ts, Dur: &d, Pid: f + 1, Tid: g,
				Args: peArgs{r, s.PE[g].Messages, s.Cycle, s.Span}})
			cw.emit(chromeEvent{Name: fmt.Sprintf("PE %d busy", g), Ph: "C", Ts: ts, Pid: f + 1, Tid: g, Args: valueArg{round4(s.PEBusy[g])}})
		}
		cw.emit(chromeEvent{Name: "messages per cycle", Ph: "C", Ts: ts, Pid: 0, Tid: 0, Args: valueArg{round4(float64(msgs) / float64(s.Span))}})
		for j, l := range m.Links {
			cw.emit(chromeEvent{Name: fmt.Sprintf("link %d->%d", l.From, l.To), Ph: "C", Ts: ts, Pid: l.From + 1, Tid: 0,
				Args: valueArg{round4(s.LinkUtil[j])}})
		}
	}
}

// finish closes the event list and writes the trace's metadata.
func (cw *chromeWriter) finish() error {
	m := cw.m
	// otherData is shown as the trace's metadata; viewers expect strings.
	other, err := json.Marshal(map[string]string{
		"format": fmt.Sprintf("%s v%d", TraceFormat, TraceVersion), "board": m.Board, "kernel": m.Kernel,
		"graph": m.Graph, "system": fmt.Sprintf("%d FPGAs x %d PEs", m.FPGAs, m.PEs), "arch": string(m.Arch),
		"mem": string(m.Mem), "detail": string(m.Detail), "clock_hz": fmt.Sprint(m.ClockHz),
		"interval_cycles": fmt.Sprint(m.Interval), "generator": m.Generator,
	})
	if err != nil {
		return err
	}
	cw.bw.WriteString("\n],\"displayTimeUnit\":\"ns\",\"otherData\":")
	cw.bw.Write(other)
	cw.bw.WriteString("}\n")
	return cw.bw.Flush()
}
