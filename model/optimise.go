package model

import (
	"errors"
	"fmt"
	"math"
)

// Point is one point of a curve.
type Point struct {
	FPGAs   int     `json:"fpgas"`
	PEs     int     `json:"pes"`
	TSys    float64 `json:"tsys"`
	Binding string  `json:"binding"`
	Fits    bool    `json:"fits"`
	Limits  Limits  `json:"limits"`
}

// Choice is the optimiser's answer with the curves it came from.
type Choice struct {
	Best Result `json:"best"`
	// Curve is T_sys against nF at nP max (or at the fixed nP).
	Curve []Point `json:"curve"`
	// PECurve is T_sys against nP at the chosen nF.
	PECurve []Point `json:"pe_curve"`
	// Why explains the choice in words.
	Why []string `json:"why"`
}

func point(r Result, fits bool) Point {
	return Point{FPGAs: r.FPGAs, PEs: r.PEs, TSys: r.TSys, Binding: r.Binding, Fits: fits, Limits: r.Limits}
}

// Optimise chooses the design by enumeration: the (nF, nP) with the
// highest T_sys, nF between the capacity minimum and the platform maximum
// (or base.FPGAs when set) and nP up to the largest that fits (or base.PEs
// when set), fewer FPGAs and then fewer PEs winning ties. Where T_sys only
// grows with nP this is the paper's rule: the best nF at the largest nP,
// then the smallest nP that keeps T_sys, which saves power when memory or
// the network binds.
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
	// Every nP at every nF: T_sys is not monotone in nP, because fewer PEs
	// make longer edge lists that fill memory words better. Ties go to
	// fewer FPGAs, then to fewer PEs, which saves power while memory or
	// network binds; where T_sys only grows with nP this is the paper's
	// rule (the best nF at nP max, then the fewest PEs that keep it).
	chosen := best
	loP := 1
	if base.PEs > 0 {
		loP = maxP // the user fixed nP
	}
	for nF := loF; nF <= hiF; nF++ {
		for nP := loP; nP <= maxP; nP++ {
			c := base
			c.FPGAs, c.PEs = nF, nP
			r, err := EvaluateLimits(p, w, c)
			if err != nil {
				continue
			}
			if r.TSys > chosen.TSys*(1+1e-9) || r.TSys >= chosen.TSys*(1-1e-9) && (nF < chosen.FPGAs || nF == chosen.FPGAs && nP < chosen.PEs) {
				chosen = r
			}
		}
	}
	for nP := 1; nP <= maxP; nP++ {
		c := base
		c.FPGAs, c.PEs = chosen.FPGAs, nP
		r, err := EvaluateLimits(p, w, c)
		ch.PECurve = append(ch.PECurve, point(r, err == nil))
	}
	// The choice is shown: evaluate it once more with its reasons.
	if r, err := Evaluate(p, w, chosen.Config); err == nil {
		chosen = r
	}
	ch.Best = chosen
	ch.Why = explain(p, ch, maxP)
	return ch, nil
}

// explain says why the optimiser chose what it chose.
func explain(p *Platform, ch Choice, maxP int) []string {
	b := ch.Best
	var why []string
	why = append(why, fmt.Sprintf("%d FPGAs x %d PEs: %.0f MTEPS, bound by %s", b.FPGAs, b.PEs, b.TSys/1e6, LimitTitle(b.Binding)))
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
			if pt.FPGAs == b.FPGAs+1 && pt.Fits {
				why = append(why, fmt.Sprintf("a %s FPGA would give %.0f MTEPS (%+.0f %%)", ordinal(pt.FPGAs), pt.TSys/1e6, 100*(pt.TSys/b.TSys-1)))
			}
		}
	}
	if b.PEs < maxP {
		why = append(why, fmt.Sprintf("%d PEs per FPGA keep T_sys (%d fit): fewer PEs save power while %s binds", b.PEs, maxP, LimitTitle(b.Binding)))
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
