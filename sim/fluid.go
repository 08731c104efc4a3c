package sim

import "math"

// fluidStep is the time step of the fluid network model, in cycles.
const fluidStep = 8

// fluidNetwork estimates the cycles the GraVF-M crossbars and links need
// to deliver one superstep's updates, with the queues and the priority
// rule of the cycle-level machine but with flows instead of items: every
// fluidStep cycles each crossbar moves up to fluidStep items, remote
// updates first and local ones with what is left and only while every
// send FIFO they need has room; each link serialises at its pair rate
// within its FPGA's interface bandwidth, delivers after the link latency,
// and stops when the receiver's credit is used up. Local updates appear
// as the apply sweeps (uniformly over sweep cycles).
//
// local[f] is the number of updates FPGA f's PEs issue, share[f][g] the
// fraction of them that FPGA g needs (the filter). It returns the cycle at
// which the last update reaches its last crossbar.
func fluidNetwork(p *Params, local []float64, share [][]float64, sweep int64, rxCap float64) int64 {
	nF := len(local)
	if nF == 1 {
		return max(int64(math.Ceil(local[0])), sweep)
	}
	delay := max(int(math.Ceil(float64(p.LinkLatency)/fluidStep)), 1)
	type lk struct {
		tx, rx float64
		pipe   []float64 // in flight, by arrival step
		head   int
	}
	links := make([][]lk, nF)
	for f := range links {
		links[f] = make([]lk, nF)
		for g := range links[f] {
			links[f][g].pipe = make([]float64, delay)
		}
	}
	moved := make([]float64, nF)
	txCap := float64(p.LinkTxFIFODepth)
	cost := max(p.UpdateWords, 1e-9)
	delivered := 0.0 // crossbar deliveries of remote items
	remoteTotal := 0.0
	for f := 0; f < nF; f++ {
		for g := 0; g < nF; g++ {
			if g != f {
				remoteTotal += local[f] * share[f][g]
			}
		}
	}
	var t int64
	for step := 0; ; step++ {
		t = int64(step) * fluidStep
		// Arrivals.
		for f := 0; f < nF; f++ {
			for g := 0; g < nF; g++ {
				l := &links[f][g]
				l.rx += l.pipe[l.head]
				l.pipe[l.head] = 0
			}
		}
		// Crossbars.
		for g := 0; g < nF; g++ {
			budget := float64(fluidStep)
			var waiting float64
			for f := 0; f < nF; f++ {
				waiting += links[f][g].rx
			}
			if waiting > 0 {
				take := math.Min(budget, waiting)
				for f := 0; f < nF; f++ {
					l := &links[f][g]
					x := take * l.rx / waiting
					l.rx -= x
				}
				budget -= take
				delivered += take
			}
			avail := local[g]
			if sweep > 0 {
				avail = local[g] * math.Min(1, float64(t+fluidStep)/float64(sweep))
			}
			x := math.Min(budget, avail-moved[g])
			for h := 0; h < nF && x > 0; h++ {
				if h != g && share[g][h] > 0 {
					x = math.Min(x, (txCap-links[g][h].tx)/share[g][h])
				}
			}
			if x > 0 {
				moved[g] += x
				for h := 0; h < nF; h++ {
					if h != g {
						links[g][h].tx += x * share[g][h]
					}
				}
			}
		}
		// Links.
		for f := 0; f < nF; f++ {
			ifBudget := p.IfWordsPerCycle * fluidStep / cost
			for g := 0; g < nF; g++ {
				if g == f {
					continue
				}
				l := &links[f][g]
				var inflight float64
				for _, v := range l.pipe {
					inflight += v
				}
				x := math.Min(l.tx, p.PairWordsPerCycle*fluidStep/cost)
				x = math.Min(x, math.Max(0, rxCap-inflight-l.rx))
				x = math.Min(x, ifBudget)
				ifBudget -= x
				l.tx -= x
				l.pipe[(l.head+delay-1)%delay] += x
			}
		}
		for f := 0; f < nF; f++ {
			for g := 0; g < nF; g++ {
				links[f][g].head = (links[f][g].head + 1) % delay
			}
		}
		done := delivered >= remoteTotal-1e-6
		for f := 0; f < nF; f++ {
			done = done && moved[f] >= local[f]-1e-6
		}
		if done || step > 1<<26 {
			break
		}
	}
	return t + fluidStep
}
