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
	bw := bufio.NewWriterSize(w, 1<<16)
	m := t.meta
	us := func(c int64) float64 { return float64(c) * 1e6 / m.ClockHz }
	first := true
	var err error
	emit := func(e chromeEvent) {
		if err != nil {
			return
		}
		b, merr := json.Marshal(e)
		if merr != nil {
			err = merr
			return
		}
		if !first {
			bw.WriteString(",\n")
		}
		first = false
		_, err = bw.Write(b)
	}
	type nameArg struct {
		Name string `json:"name"`
	}
	type sortArg struct {
		SortIndex int `json:"sort_index"`
	}
	bw.WriteString(`{"traceEvents":[` + "\n")

	emit(chromeEvent{Name: "process_name", Ph: "M", Pid: 0, Args: nameArg{fmt.Sprintf("run: %s on %s", m.Kernel, m.Graph)}})
	emit(chromeEvent{Name: "process_sort_index", Ph: "M", Pid: 0, Args: sortArg{0}})
	emit(chromeEvent{Name: "thread_name", Ph: "M", Pid: 0, Tid: 0, Args: nameArg{"supersteps"}})
	for f := 0; f < m.FPGAs; f++ {
		emit(chromeEvent{Name: "process_name", Ph: "M", Pid: f + 1, Args: nameArg{fmt.Sprintf("FPGA %d", f)}})
		emit(chromeEvent{Name: "process_sort_index", Ph: "M", Pid: f + 1, Args: sortArg{f + 1}})
		for l := 0; l < m.PEs; l++ {
			g := f*m.PEs + l
			emit(chromeEvent{Name: "thread_name", Ph: "M", Pid: f + 1, Tid: g, Args: nameArg{fmt.Sprintf("PE %d", g)}})
			emit(chromeEvent{Name: "thread_sort_index", Ph: "M", Pid: f + 1, Tid: g, Args: sortArg{g}})
		}
	}

	type stepArgs struct {
		Superstep  int   `json:"superstep"`
		StartCycle int64 `json:"start_cycle"`
		Cycles     int64 `json:"cycles"`
		Active     int64 `json:"active"`
		Messages   int64 `json:"messages"`
	}
	for _, s := range t.steps {
		d := us(s.End()) - us(s.Start)
		emit(chromeEvent{Name: fmt.Sprintf("superstep %d", s.Index), Cat: "superstep", Ph: "X", Ts: us(s.Start), Dur: &d,
			Pid: 0, Tid: 0, Args: stepArgs{s.Index, s.Start, s.Cycles, s.Active, s.Messages}})
	}

	type peArgs struct {
		TraceCauses
		Messages   int64 `json:"messages"`
		StartCycle int64 `json:"start_cycle"`
		Cycles     int64 `json:"cycles"`
	}
	type valueArg struct {
		Value float64 `json:"value"`
	}
	for i := range t.samples {
		s := &t.samples[i]
		ts := us(s.Cycle)
		d := us(s.End()) - ts
		var msgs int64
		for g := range s.PE {
			msgs += s.PE[g].Messages
			f := g / m.PEs
			c := s.PEStall[g]
			name, _ := c.Dominant()
			r := TraceCauses{round4(c.Busy), round4(c.Apply), round4(c.Hazard), round4(c.Scatter), round4(c.Memory),
				round4(c.Crossbar), round4(c.Network), round4(c.Barrier), round4(c.Done)}
			emit(chromeEvent{Name: name, Cat: "pe", Ph: "X", Ts: ts, Dur: &d, Pid: f + 1, Tid: g,
				Args: peArgs{r, s.PE[g].Messages, s.Cycle, s.Span}})
			emit(chromeEvent{Name: fmt.Sprintf("PE %d busy", g), Ph: "C", Ts: ts, Pid: f + 1, Tid: g, Args: valueArg{round4(s.PEBusy[g])}})
		}
		emit(chromeEvent{Name: "messages per cycle", Ph: "C", Ts: ts, Pid: 0, Tid: 0, Args: valueArg{round4(float64(msgs) / float64(s.Span))}})
		for j, l := range m.Links {
			emit(chromeEvent{Name: fmt.Sprintf("link %d->%d", l.From, l.To), Ph: "C", Ts: ts, Pid: l.From + 1, Tid: 0,
				Args: valueArg{round4(s.LinkUtil[j])}})
		}
	}
	if err != nil {
		return err
	}
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
	bw.WriteString("\n],\"displayTimeUnit\":\"ns\",\"otherData\":")
	bw.Write(other)
	bw.WriteString("}\n")
	return bw.Flush()
}
