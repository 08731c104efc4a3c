package model

import "math"

// Prediction is the latency-aware run-time estimate. The four limits are
// bandwidth-only: they assume every superstep is long enough to hide the
// barrier. Graphs with many small supersteps (road networks, BFS tails)
// spend most of their time waiting on barriers and apply sweeps, which the
// limits ignore.
type Prediction struct {
	// Seconds is the sum over supersteps of max(messages/T_sys, t_sync)
	// plus the apply sweep of every superstep.
	Seconds float64 `json:"predicted_seconds"`
	// BandwidthSeconds is messages/T_sys alone: what the four limits
	// predict.
	BandwidthSeconds float64 `json:"bandwidth_seconds"`
	// SyncSeconds is t_sync, the barrier latency of one superstep.
	SyncSeconds float64 `json:"t_sync_seconds"`
	// SweepSeconds is the apply sweep of one superstep.
	SweepSeconds float64 `json:"sweep_seconds"`
	// TEPS is messages / Seconds.
	TEPS float64 `json:"teps"`
	// LatencyBoundSupersteps counts the supersteps in which t_sync exceeds
	// the bandwidth time.
	LatencyBoundSupersteps int `json:"latency_bound_supersteps"`
}

// SyncSeconds returns t_sync for a configuration: the PE pipeline (and the
// off-chip memory latency when the edges live there) plus one traversal of
// the inter-FPGA link when there is more than one FPGA.
func (p *Platform) SyncSeconds(c Config) float64 {
	t := float64(p.PipelineCycles) / p.ClockHz
	if c.Mem != BRAM {
		t += p.MemLatencySec
	}
	if c.FPGAs > 1 {
		t += p.LinkLatencySec
	}
	return t
}

// Predict computes the latency-aware run time of the workload's supersteps
// for an evaluated design point. It returns false when the workload has no
// superstep counts.
func Predict(p *Platform, w *Workload, r Result) (Prediction, bool) {
	if len(w.Supersteps) == 0 || r.TSys <= 0 || math.IsInf(r.TSys, 1) {
		return Prediction{}, false
	}
	pr := Prediction{SyncSeconds: p.SyncSeconds(r.Config)}
	perPE := math.Ceil(float64(w.Vertices) / float64(r.FPGAs*r.PEs))
	pr.SweepSeconds = perPE / p.ClockHz
	var msgs int64
	for _, s := range w.Supersteps {
		bw := float64(s.Messages) / r.TSys
		pr.BandwidthSeconds += bw
		if pr.SyncSeconds > bw {
			pr.LatencyBoundSupersteps++
		}
		pr.Seconds += math.Max(bw, pr.SyncSeconds) + pr.SweepSeconds
		msgs += s.Messages
	}
	if pr.Seconds > 0 {
		pr.TEPS = float64(msgs) / pr.Seconds
	}
	return pr, true
}
