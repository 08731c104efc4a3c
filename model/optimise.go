package model

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Point is one point of a curve.
type Point struct {
	FPGAs   int     `json:"fpgas"`
	PEs     int     `json:"pes"`
	TSys    float64 `json:"tsys"`
	Binding string  `json:"binding"`
	Fits    bool    `json:"fits"`
	Limits  Limits  `json:"limits"`
	// Predicted is the prediction's throughput at this point (nil without
	// one), PredictedBinding its costliest mechanism.
	Predicted        *float64 `json:"predicted_teps,omitempty"`
	PredictedBinding string   `json:"predicted_binding,omitempty"`
}

// Choice is the optimiser's answer with the curves it came from.
type Choice struct {
	Best Result `json:"best"`
	// By says what the choice maximised: "prediction" when the workload
	// has the reference run's supersteps, else "tsys".
	By string `json:"by"`
	// Prediction is the best point's prediction (nil when By is "tsys").
	Prediction *Prediction `json:"prediction,omitempty"`
	// Curve is T_sys (and the prediction) against nF at the chosen nP.
	Curve []Point `json:"curve"`
	// PECurve is T_sys (and the prediction) against nP at the chosen nF.
	PECurve []Point `json:"pe_curve"`
	// Why explains the choice in words.
	Why []string `json:"why"`
}

// What the optimiser maximised.
const (
	ByPrediction = "prediction"
	ByTSys       = "tsys"
)

func point(r Result, fits bool) Point {
	return Point{FPGAs: r.FPGAs, PEs: r.PEs, TSys: r.TSys, Binding: r.Binding, Fits: fits, Limits: r.Limits}
}

// predictor memoises the optimiser's predictions by design point.
type predictor struct {
	p   *Platform
	w   *Workload
	got map[[2]int]*Prediction
	err error
}

// at returns the prediction of r (nil when there is none).
func (pd *predictor) at(r Result) *Prediction {
	if pd == nil || pd.err != nil {
		return nil
	}
	k := [2]int{r.FPGAs, r.PEs}
	if pr, ok := pd.got[k]; ok {
		return pr
	}
	pr, err := PredictContext(pd.w.context(), pd.p, pd.w, r)
	if err != nil {
		pd.err = err
		return nil
	}
	pd.got[k] = &pr
	return &pr
}

// refined returns the ceiling at r with its partition's fullest and
// busiest PEs (PredictionCeiling, refined no further once it is at most
// enough); false when there is no partition to look at.
func (pd *predictor) refined(r Result, enough float64) (float64, bool) {
	if pd.w.Profiles == nil {
		return 0, false
	}
	if _, ok := pd.got[[2]int{r.FPGAs, r.PEs}]; ok {
		return 0, false
	}
	c, err := PredictionCeiling(pd.w.context(), pd.p, pd.w, r, enough)
	return c, err == nil
}

// mark adds the prediction to a curve's point: one made already, or a
// new one when need is set.
func (pd *predictor) mark(pt *Point, r Result, need bool) {
	if pd == nil || !pt.Fits {
		return
	}
	if _, ok := pd.got[[2]int{r.FPGAs, r.PEs}]; !ok && !need {
		return
	}
	if pr := pd.at(r); pr != nil {
		pt.Predicted, pt.PredictedBinding = &pr.TEPS, pr.Binding
	}
}

// Optimise chooses the design by enumeration: the (nF, nP) with the
// highest predicted throughput when the workload has the reference run's
// supersteps (see Predict), else the highest T_sys; nF between the
// capacity minimum and the platform maximum (or base.FPGAs when set) and
// nP up to the largest that fits (or base.PEs when set), fewer FPGAs and
// then fewer PEs winning ties. On T_sys, where it only grows with nP, this
// is the paper's rule: the best nF at the largest nP, then the smallest nP
// that keeps T_sys, which saves power when memory or the network binds.
// Both curves carry T_sys and, when there is one, the prediction.
func Optimise(p *Platform, w *Workload, base Config) (Choice, error) {
	var ch Choice
	maxP := p.MaxPEs
	if base.PEs > 0 {
		maxP = base.PEs
	}
	if maxP < 1 {
		return ch, fmt.Errorf("no PE fits %s", p.Name)
	}
	loF, hiF := 1, max(p.MaxFPGAs, 1)
	if base.FPGAs > 0 {
		if p.MaxFPGAs > 0 && base.FPGAs > p.MaxFPGAs {
			return ch, fmt.Errorf("%d FPGAs requested; %s has %d", base.FPGAs, p.Name, p.MaxFPGAs)
		}
		loF, hiF = base.FPGAs, base.FPGAs
	}
	bestF := 0
	var best Result
	var firstErr error
	for nF := loF; nF <= hiF; nF++ {
		c := base
		c.FPGAs, c.PEs = nF, maxP
		r, err := EvaluateLimits(p, w, c)
		if err != nil && !errors.Is(err, ErrCapacity) {
			return ch, err
		}
		ch.Curve = append(ch.Curve, point(r, err == nil))
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if bestF == 0 || r.TSys > best.TSys*(1+1e-9) {
			bestF, best = nF, r
		}
	}
	if bestF == 0 {
		need := 0
		if len(ch.Curve) > 0 {
			c := base
			c.FPGAs, c.PEs = hiF, maxP
			r, _ := EvaluateLimits(p, w, c)
			need = r.Capacity.MinFPGAs
		}
		switch {
		case need > hiF && base.FPGAs > 0: // the user fixed nF
			return ch, fmt.Errorf("%w: the graph needs at least %d FPGAs of %s, %d requested", ErrCapacity, need, p.Name, base.FPGAs)
		case need > hiF:
			return ch, fmt.Errorf("%w: the graph needs at least %d FPGAs of %s; the platform has %d", ErrCapacity, need, p.Name, p.MaxFPGAs)
		}
		return ch, firstErr
	}
	var pd *predictor
	if w.Profiles != nil || len(w.Supersteps) > 0 {
		pd = &predictor{p: p, w: w, got: map[[2]int]*Prediction{}}
	}
	loP := 1
	if base.PEs > 0 {
		loP = maxP // the user fixed nP
	}
	chosen, chosenPred := choose(p, w, base, loF, hiF, loP, maxP, best, pd)
	if pd != nil && pd.err != nil {
		if errors.Is(pd.err, context.Canceled) || errors.Is(pd.err, context.DeadlineExceeded) || errors.Is(pd.err, ErrNotCached) {
			return ch, pd.err
		}
		// No prediction (the partitioner failed): choose on the bound.
		ch.Why = append(ch.Why, fmt.Sprintf("no prediction (%v): chosen on T_sys", pd.err))
		pd = nil
		chosen, chosenPred = choose(p, w, base, loF, hiF, loP, maxP, best, nil)
	}
	if pd != nil && chosen.PEs != maxP {
		// The curve over nF at the chosen nP, where the prediction chose
		// fewer PEs than fit.
		ch.Curve = ch.Curve[:0]
		for nF := loF; nF <= hiF; nF++ {
			c := base
			c.FPGAs, c.PEs = nF, chosen.PEs
			r, err := EvaluateLimits(p, w, c)
			ch.Curve = append(ch.Curve, point(r, err == nil))
		}
	}
	// The curves carry the predictions the search made, and those the
	// explanation needs besides: one FPGA fewer and more at the chosen nP,
	// and the most PEs that fit at the chosen nF. Predicting every point
	// would cost a profile each.
	for i := range ch.Curve {
		c := base
		c.FPGAs, c.PEs = ch.Curve[i].FPGAs, ch.Curve[i].PEs
		if r, err := EvaluateLimits(p, w, c); err == nil {
			pd.mark(&ch.Curve[i], r, abs(c.FPGAs-chosen.FPGAs) <= 1 && c.PEs == chosen.PEs)
		}
	}
	for nP := 1; nP <= maxP; nP++ {
		c := base
		c.FPGAs, c.PEs = chosen.FPGAs, nP
		r, err := EvaluateLimits(p, w, c)
		pt := point(r, err == nil)
		pd.mark(&pt, r, nP == maxP || nP == chosen.PEs)
		ch.PECurve = append(ch.PECurve, pt)
	}
	ch.By = ByTSys
	if chosenPred != nil {
		ch.By, ch.Prediction = ByPrediction, chosenPred
	}
	// The choice is shown: evaluate it once more with its reasons.
	if r, err := Evaluate(p, w, chosen.Config); err == nil {
		chosen = r
	}
	ch.Best = chosen
	ch.Why = append(explain(p, ch, maxP), ch.Why...)
	return ch, nil
}

// choose returns the best fitting design point in the ranges: on the
// prediction when pd is set, else on T_sys. No prediction is above its
// ceiling (at most T_sys), so the points are predicted in descending order
// of their ceiling until it falls below the best prediction so far: a
// profile costs about as much as the reference run's supersteps, and most
// points cannot win. start is the best of the nF curve, which fits.
func choose(p *Platform, w *Workload, base Config, loF, hiF, loP, hiP int, start Result, pd *predictor) (Result, *Prediction) {
	var all []Result
	for nF := loF; nF <= hiF; nF++ {
		for nP := loP; nP <= hiP; nP++ {
			c := base
			c.FPGAs, c.PEs = nF, nP
			if r, err := EvaluateLimits(p, w, c); err == nil {
				all = append(all, r)
			}
		}
	}
	// Descending T_sys; ties to fewer FPGAs, then fewer PEs.
	better := func(a, b Result) bool {
		switch {
		case a.TSys > b.TSys*(1+1e-9):
			return true
		case a.TSys < b.TSys*(1-1e-9):
			return false
		}
		return a.FPGAs < b.FPGAs || a.FPGAs == b.FPGAs && a.PEs < b.PEs
	}
	slices.SortStableFunc(all, func(a, b Result) int {
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return 0
	})
	if pd == nil {
		if len(all) == 0 || better(start, all[0]) {
			return start, nil
		}
		return all[0], nil
	}
	// On the prediction: descending ceiling, which no prediction exceeds,
	// until the ceiling falls below the best prediction so far.
	ceil := make(map[[2]int]float64, len(all))
	for _, r := range all {
		ceil[[2]int{r.FPGAs, r.PEs}] = ceiling(p, w, r)
	}
	at := func(r Result) float64 { return ceil[[2]int{r.FPGAs, r.PEs}] }
	slices.SortStableFunc(all, func(a, b Result) int { return cmp.Compare(at(b), at(a)) })
	chosen, chosenPred := start, pd.at(start)
	for _, r := range all {
		if chosenPred == nil || at(r) < chosenPred.TEPS*(1-1e-9) {
			break
		}
		if c, ok := pd.refined(r, chosenPred.TEPS*(1-1e-9)); ok && c < chosenPred.TEPS*(1-1e-9) {
			continue // the partition's fullest or busiest PE rules it out
		}
		pr := pd.at(r)
		if pr == nil {
			return start, nil
		}
		tie := math.Abs(pr.TEPS-chosenPred.TEPS) <= 1e-9*chosenPred.TEPS
		if pr.TEPS > chosenPred.TEPS*(1+1e-9) || tie && (r.FPGAs < chosen.FPGAs || r.FPGAs == chosen.FPGAs && r.PEs < chosen.PEs) {
			chosen, chosenPred = r, pr
		}
	}
	return chosen, chosenPred
}

// explain says why the optimiser chose what it chose.
func explain(p *Platform, ch Choice, maxP int) []string {
	b := ch.Best
	var why []string
	if pr := ch.Prediction; pr != nil {
		why = append(why, fmt.Sprintf("%d FPGAs x %d PEs: predicted %.0f MTEPS, most time beyond the edges in %s; T_sys %.0f MTEPS, bound by %s",
			b.FPGAs, b.PEs, pr.TEPS/1e6, MechTitle(pr.Binding), b.TSys/1e6, LimitTitle(b.Binding)))
	} else {
		why = append(why, fmt.Sprintf("%d FPGAs x %d PEs: %.0f MTEPS, bound by %s", b.FPGAs, b.PEs, b.TSys/1e6, LimitTitle(b.Binding)))
	}
	// Where does the network start to bind?
	for i, pt := range ch.Curve {
		if pt.Fits && (pt.Binding == LimitIf || pt.Binding == LimitNet) {
			why = append(why, fmt.Sprintf("%s binds from %d FPGAs on", LimitTitle(pt.Binding), pt.FPGAs))
			if i > 0 && ch.Curve[i-1].Fits {
				gain := pt.TSys/ch.Curve[i-1].TSys - 1
				why = append(why, fmt.Sprintf("going from %d to %d FPGAs changes T_sys by %+.0f %%", ch.Curve[i-1].FPGAs, pt.FPGAs, 100*gain))
			}
			break
		}
	}
	if b.FPGAs < len(ch.Curve) && len(ch.Curve) > 1 {
		for _, pt := range ch.Curve {
			if pt.FPGAs != b.FPGAs+1 || !pt.Fits {
				continue
			}
			if pt.Predicted != nil && ch.Prediction != nil {
				why = append(why, fmt.Sprintf("a %s FPGA would give a predicted %.0f MTEPS (%+.0f %%)", ordinal(pt.FPGAs), *pt.Predicted/1e6, 100*(*pt.Predicted/ch.Prediction.TEPS-1)))
			} else {
				why = append(why, fmt.Sprintf("a %s FPGA would give %.0f MTEPS (%+.0f %%)", ordinal(pt.FPGAs), pt.TSys/1e6, 100*(pt.TSys/b.TSys-1)))
			}
		}
	}
	if b.PEs < maxP {
		if at := pePoint(ch.PECurve, maxP); ch.Prediction != nil && at != nil && at.Predicted != nil {
			why = append(why, fmt.Sprintf("%d PEs per FPGA are predicted %.0f %% faster than %d, the most that fit", b.PEs, 100*(ch.Prediction.TEPS / *at.Predicted - 1), maxP))
		} else {
			why = append(why, fmt.Sprintf("%d PEs per FPGA keep T_sys (%d fit): fewer PEs save power while %s binds", b.PEs, maxP, LimitTitle(b.Binding)))
		}
	}
	if b.Binding == LimitIf || b.Binding == LimitNet {
		if !b.Packing && b.Sizes.Update.Packed < b.Sizes.Update.Unpacked {
			why = append(why, fmt.Sprintf("packing updates (%d bits into %d-bit link words) would cut the network load %.1fx",
				b.Sizes.Update.Bits, p.LinkWordBits, b.Sizes.Update.Unpacked/b.Sizes.Update.Packed))
		}
		if b.Arch == GraVFM && !b.Filter && b.FPGAs > 1 {
			why = append(why, "the update filter would send updates only to FPGAs with neighbours")
		}
	}
	if math.IsInf(b.TSys, 1) {
		why = append(why, "no limit applies")
	}
	return why
}

// pePoint returns the point of the nP curve with nP PEs.
func pePoint(curve []Point, nP int) *Point {
	for i := range curve {
		if curve[i].PEs == nP && curve[i].Fits {
			return &curve[i]
		}
	}
	return nil
}

// LimitTitle names a limit in words.
func LimitTitle(name string) string {
	switch name {
	case LimitPE:
		return "the PEs"
	case LimitMem:
		return "the memory bandwidth"
	case LimitIf:
		return "the network interface"
	case LimitNet:
		return "the network"
	}
	return name
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
