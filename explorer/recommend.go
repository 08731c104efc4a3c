package explorer

import (
	"fmt"
	"math"
	"slices"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
)

// Recommend explains a choice of the optimiser in plain words: the chosen
// design and why, where each limit takes over along the nF curve, what the
// last (and the next) FPGA adds, which switch of the design would gain
// most, and what would move the binding limit. base is what the user fixed
// (0 FPGAs or PEs: chosen by the optimiser).
func Recommend(p *model.Platform, w *model.Workload, base model.Config, ch model.Choice) []string {
	b := ch.Best
	var out []string
	how := "chosen by the optimiser"
	switch {
	case base.FPGAs > 0 && base.PEs > 0:
		how = "as given"
	case base.FPGAs > 0:
		how = "FPGAs given, PEs chosen"
	case base.PEs > 0:
		how = "PEs given, FPGAs chosen"
	}
	if pr := ch.Prediction; pr != nil {
		out = append(out, fmt.Sprintf("%d FPGAs x %d PEs (%s): predicted %s; T_sys %s, bound by %s.", b.FPGAs, b.PEs, how, TEPS(pr.TEPS), TEPS(b.TSys), model.LimitTitle(b.Binding)))
	} else {
		out = append(out, fmt.Sprintf("%d FPGAs x %d PEs (%s): T_sys %s, bound by %s.", b.FPGAs, b.PEs, how, TEPS(b.TSys), model.LimitTitle(b.Binding)))
	}
	out = append(out, regimes(ch.Curve)...)
	if s := marginal(ch.Curve, b.FPGAs, p.MaxFPGAs); s != "" {
		out = append(out, s)
	}
	out = append(out, switches(p, w, base, b)...)
	out = append(out, mover(p, w, b))
	if pr := prediction(p, w, b, ch); pr != nil {
		out = append(out, practice(p, w, b, pr)...)
	}
	return out
}

// prediction is the prediction at the chosen point, if there is one.
func prediction(p *model.Platform, w *model.Workload, b model.Result, ch model.Choice) *model.Prediction {
	if ch.Prediction != nil && ch.Best.FPGAs == b.FPGAs && ch.Best.PEs == b.PEs {
		return ch.Prediction
	}
	if w.Profiles == nil {
		return nil
	}
	pr, err := model.PredictContext(w.Ctx, p, w, b)
	if err != nil {
		return nil
	}
	return &pr
}

// practice says what costs the predicted run the most besides the
// balanced edges, and when the partition's imbalance does, what another
// partitioner would make of it (predicted at the same design point).
func practice(p *model.Platform, w *model.Workload, b model.Result, pr *model.Prediction) []string {
	var out []string
	share := func(m string) float64 {
		for _, x := range pr.Breakdown {
			if x.Mechanism == m {
				return x.Fraction
			}
		}
		return 0
	}
	if f := share(pr.Binding); pr.Binding != model.MechEdges && f >= 0.05 {
		out = append(out, fmt.Sprintf("In practice %s %s: %s of the predicted time (the prediction is %.2f of T_sys)%s.",
			model.MechTitle(pr.Binding), costs(pr.Binding), pct(f), pr.TEPS/b.TSys, mechLever(pr, b)))
	}
	if w.Profiles == nil {
		return out
	}
	// The other partitioners are predicted whether or not the imbalance
	// shows, so that an edit of a bandwidth that makes it show needs no new
	// profile.
	alt, apr := betterPartition(p, w, b, pr)
	im := pr.Imbalance
	if im == nil || im.Fraction < 0.02 {
		return out
	}
	s := fmt.Sprintf("PE %d of FPGA %d holds %.2fx the mean edges in superstep %d (the imbalance costs %s of the time)", im.Local, im.FPGA, im.Ratio, im.Superstep, pct(im.Fraction))
	if apr != nil {
		ratio := 1.0
		if im.Superstep < len(apr.Supersteps) {
			ratio = apr.Supersteps[im.Superstep].MaxEdgesRatio
		}
		s += fmt.Sprintf("; %s would cut that to %.2fx (%+.0f %%, %s)", alt, ratio, 100*(apr.TEPS/pr.TEPS-1), TEPS(apr.TEPS))
	}
	return append(out, s+".")
}

// betterPartition predicts the design point under the partitioners that
// need no external tool and returns the best if it beats pr by 1 %.
func betterPartition(p *model.Platform, w *model.Workload, b model.Result, pr *model.Prediction) (graph.Partitioner, *model.Prediction) {
	var best graph.Partitioner
	var bestPr *model.Prediction
	for _, m := range []graph.Partitioner{graph.GreedySorted, graph.Greedy, graph.Robin} {
		if m == w.Profiles.Partitioner() {
			continue
		}
		wm := w.WithProfiles(w.Profiles.With(m))
		if c, err := model.PredictionCeiling(w.Ctx, p, wm, b, pr.TEPS*1.01); err == nil && c <= pr.TEPS*1.01 {
			continue // its partition cannot do better: no profile needed
		}
		x, err := model.PredictContext(w.Ctx, p, wm, b)
		if err != nil {
			continue
		}
		if x.TEPS > pr.TEPS*1.01 && (bestPr == nil || x.TEPS > bestPr.TEPS) {
			best, bestPr = m, &x
		}
	}
	return best, bestPr
}

// costs agrees the verb with a mechanism's title.
func costs(m string) string {
	switch m {
	case model.MechHazards, model.MechLookups, model.MechSweep, model.MechSync, model.MechNetwork, model.MechLimits:
		return "cost most"
	}
	return "costs most"
}

// mechLever says what would shrink a mechanism's share, from the design's
// own figures.
func mechLever(pr *model.Prediction, b model.Result) string {
	switch pr.Binding {
	case model.MechLockstep:
		return "; fewer PEs per FPGA or a partition that spreads each long list over the PEs hold the broadcast less"
	case model.MechHazards:
		return "; a shorter gather latency, or a partition that keeps hubs apart, stalls gather less"
	case model.MechSweep:
		return fmt.Sprintf("; each superstep sweeps every vertex once, in parallel over the %d PEs, so more PEs shorten it", b.FPGAs*b.PEs)
	case model.MechSync:
		return fmt.Sprintf("; t_sync is %.2f us per superstep, paid %d times", pr.SyncSeconds*1e6, len(pr.Supersteps))
	case model.MechNetwork:
		return "; packing, the update filter or faster links carry the updates sooner"
	case model.MechMemory:
		return "; edges in BRAM or a wider memory word read the lists faster"
	}
	return ""
}

// regimes says from which nF on each limit binds along the curve.
func regimes(curve []model.Point) []string {
	var out []string
	prev := ""
	for i, pt := range curve {
		if !pt.Fits || pt.Binding == prev {
			continue
		}
		if i > 0 && prev != "" {
			out = append(out, fmt.Sprintf("%s %s from %d FPGAs on (%s before).", capital(model.LimitTitle(pt.Binding)), binds(pt.Binding), pt.FPGAs, model.LimitTitle(prev)))
		}
		prev = pt.Binding
	}
	return out
}

// marginal reports what the last FPGA added and what the next would add,
// in predicted throughput where the curve has it, else in T_sys.
func marginal(curve []model.Point, nF, maxF int) string {
	// In predicted throughput when the points it compares (one FPGA
	// fewer and one more) all have a prediction.
	predicted := true
	for _, pt := range curve {
		if pt.FPGAs >= nF-1 && pt.FPGAs <= nF+1 {
			predicted = predicted && (!pt.Fits || pt.Predicted != nil)
		}
	}
	at := func(f int) (float64, bool) {
		for _, pt := range curve {
			if pt.FPGAs == f && pt.Fits {
				if predicted {
					return *pt.Predicted, true
				}
				return pt.TSys, true
			}
		}
		return 0, false
	}
	cur, ok := at(nF)
	if !ok {
		return ""
	}
	s := ""
	if prev, ok := at(nF - 1); ok && prev > 0 {
		s = fmt.Sprintf("A %s FPGA %s", ordinal(nF), change(cur/prev-1, "adds", "costs"))
	}
	if next, ok := at(nF + 1); ok && cur > 0 {
		if s != "" {
			s += "; a "
		} else {
			s = "A "
		}
		s += fmt.Sprintf("%s FPGA would %s", ordinal(nF+1), change(next/cur-1, "add", "cost"))
	} else if maxF > 0 && nF >= maxF && s != "" {
		s += fmt.Sprintf("; the platform has %d FPGAs", maxF)
	}
	if s == "" {
		return ""
	}
	if predicted {
		s += " (predicted)"
	}
	return s + "."
}

// switches re-optimises the design with each of its on/off choices
// flipped (keeping what the user fixed) and reports those that gain.
func switches(p *model.Platform, w *model.Workload, base model.Config, b model.Result) []string {
	type alt struct {
		what string
		c    model.Config
	}
	var alts []alt
	c := base
	c.Arch, c.Mem, c.Packing, c.Filter = b.Arch, b.Mem, b.Packing, b.Filter
	if !c.Packing {
		x := c
		x.Packing = true
		alts = append(alts, alt{"pack updates", x})
	}
	if c.Arch == model.GraVFM && !c.Filter && b.FPGAs > 1 {
		x := c
		x.Filter = true
		alts = append(alts, alt{"turn the update filter on", x})
	}
	if c.Arch == model.GraVF {
		x := c
		x.Arch, x.Filter = model.GraVFM, true
		alts = append(alts, alt{"use GraVF-M's broadcast", x})
	}
	if c.Mem == model.OffChip {
		x := c
		x.Mem = model.BRAM
		alts = append(alts, alt{"keep the edges in BRAM", x})
	}
	// The switches compare bounds: predicting every design point of every
	// variant would multiply the profiles the first evaluation computes.
	bound := w.WithProfiles(nil)
	var out []string
	for _, a := range alts {
		ch, err := model.Optimise(p, bound, a.c)
		if err != nil {
			if a.c.Mem == model.BRAM {
				at := a.c
				at.FPGAs, at.PEs = b.FPGAs, b.PEs
				if r, _ := model.Evaluate(p, bound, at); r.Capacity.Problem != "" {
					out = append(out, fmt.Sprintf("Edges in BRAM do not fit: %s.", r.Capacity.Problem))
				}
			}
			continue
		}
		r := ch.Best
		gain := r.TSys / b.TSys
		switch {
		case gain > 1.01:
			out = append(out, fmt.Sprintf("%s to gain %.2fx (%s at %d x %d, bound by %s).", capital(a.what), gain, TEPS(r.TSys), r.FPGAs, r.PEs, model.LimitTitle(r.Binding)))
		case a.what == "pack updates" && b.Binding == model.LimitIf:
			out = append(out, "Packing gains nothing here: an update already fills the link word.")
		}
	}
	return out
}

// mover says how far the binding limit is below the next one and what
// would raise it.
func mover(p *model.Platform, w *model.Workload, b model.Result) string {
	type lim struct {
		name string
		v    float64
	}
	var ls []lim
	b.Limits.Each(func(name string, v float64) {
		if !math.IsInf(v, 1) {
			ls = append(ls, lim{name, v})
		}
	})
	slices.SortStableFunc(ls, func(a, c lim) int {
		switch {
		case a.v < c.v:
			return -1
		case a.v > c.v:
			return 1
		}
		return 0
	})
	lever := map[string]string{
		model.LimitPE:  peLever(p, w),
		model.LimitMem: fmt.Sprintf("edges in BRAM, a wider memory word (m_memword %d bits) or more memory bandwidth", b.Sizes.MemWord),
		model.LimitIf:  fmt.Sprintf("packing, the update filter, narrower updates (%d bits on the wire) or faster links", b.Sizes.Update.Bits),
		model.LimitNet: "a faster network",
	}
	if len(ls) < 2 {
		return fmt.Sprintf("Only %s limits this design; %s would raise it.", model.LimitTitle(b.Binding), lever[b.Binding])
	}
	next := ls[1]
	return fmt.Sprintf("To move the binding limit: %s would raise %s; past +%s %s %s (%s).",
		lever[ls[0].name], model.LimitTitle(ls[0].name), pct(next.v/ls[0].v-1), model.LimitTitle(next.name), binds(next.name), TEPS(next.v))
}

// peLever says what raises the PEs' limit.
func peLever(p *model.Platform, w *model.Workload) string {
	if w.CPE <= 1 {
		return fmt.Sprintf("more PEs per FPGA (at most %d fit) or more FPGAs (%s)", p.MaxPEs, w.CPESource)
	}
	return fmt.Sprintf("more PEs per FPGA (at most %d fit), a lower CPE (%.2f, %s) or more FPGAs", p.MaxPEs, w.CPE, w.CPESource)
}

// binds agrees the verb with a limit's title ("the PEs bind").
func binds(limit string) string {
	if limit == model.LimitPE {
		return "bind"
	}
	return "binds"
}

// change words a relative change: "adds 4 %" or "costs 64 %".
func change(f float64, up, down string) string {
	if f < 0 {
		return down + " " + pct(-f)
	}
	return up + " " + pct(f)
}

func pct(f float64) string {
	if math.Abs(f) >= 0.1 {
		return fmt.Sprintf("%.0f %%", f*100)
	}
	return fmt.Sprintf("%.1f %%", f*100)
}

func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprint(n) + suffix
}

func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
