package model

import "math"

// Link FIFO depths of the generated FPGA tops: a send FIFO per other FPGA
// (the external FIFO plus the asynchronous FIFO into the stream) and a
// receive FIFO whose space the sender holds credit for, with credit for
// the link's round trip besides.
const (
	LinkTxFIFODepth = 8 + 64
	LinkRxFIFODepth = 64
)

// netFlow is one superstep of a GraVF-M system's crossbars and links, as
// flows: the network's share of the prediction. Each FPGA's crossbar
// moves at most rate updates per cycle (the lockstep recursion's pace),
// remote updates first and its own only with what is left and while every
// send FIFO they need has room; each link serialises within its pair's
// and its FPGA's bandwidth, delivers after the link latency and stops
// when the receiver's credit is used up. An FPGA's own updates appear as
// its PEs sweep. With fast links this is the crossbars' time; with slow
// ones, or when every FPGA waits for the others' updates, the priority
// rule and the credit leave crossbars idle, which neither the links'
// bandwidth nor the crossbar's alone shows.
type netFlow struct {
	local []float64   // per FPGA: updates its PEs issue
	need  [][]float64 // need[f][g]: of those, the ones FPGA g needs (g != f)
	rate  []float64   // per FPGA: updates its crossbar moves per cycle
	sweep float64     // cycles over which the updates appear
	// Link figures in updates: per pair and per FPGA interface per cycle,
	// one-way latency in cycles, credit per link.
	pair, iface, latency, rxCap float64
}

// flowStep is the fluid model's time step in cycles.
const flowStep = 8

// cycles returns the cycle at which the last update has passed its last
// crossbar.
func (n *netFlow) cycles() float64 {
	nF := len(n.local)
	delay := max(int(math.Ceil(n.latency/flowStep)), 1)
	type link struct {
		tx, rx, flight float64
		send           float64
		pipe           []float64 // in flight, by arrival step (a ring)
	}
	links := make([]link, nF*nF)
	for i := range links {
		links[i].pipe = make([]float64, delay)
	}
	moved := make([]float64, nF)
	remote, delivered := 0.0, 0.0
	for f := range n.need {
		for g, x := range n.need[f] {
			if g != f {
				remote += x
			}
		}
	}
	for step := 0; ; step++ {
		t := float64(step * flowStep)
		head := step % delay
		for i := range links {
			l := &links[i]
			l.rx += l.pipe[head]
			l.flight -= l.pipe[head]
			l.pipe[head] = 0
		}
		done := true
		for g := 0; g < nF; g++ {
			budget := n.rate[g] * flowStep
			var waiting float64
			for f := 0; f < nF; f++ {
				waiting += links[f*nF+g].rx
			}
			if take := math.Min(budget, waiting); take > 0 {
				for f := 0; f < nF; f++ {
					links[f*nF+g].rx -= take * links[f*nF+g].rx / waiting
				}
				budget -= take
				delivered += take
			}
			avail := n.local[g]
			if n.sweep > 0 {
				avail *= math.Min(1, (t+flowStep)/n.sweep)
			}
			x := math.Min(budget, avail-moved[g])
			for h := 0; h < nF && x > 0; h++ {
				if h != g && n.need[g][h] > 0 {
					share := n.need[g][h] / n.local[g]
					x = math.Min(x, (LinkTxFIFODepth-links[g*nF+h].tx)/share)
				}
			}
			if x > 0 {
				moved[g] += x
				for h := 0; h < nF; h++ {
					if h != g && n.need[g][h] > 0 {
						links[g*nF+h].tx += x * n.need[g][h] / n.local[g]
					}
				}
			}
			done = done && moved[g] >= n.local[g]-flowSlack(n.local[g])
		}
		// Links: each sends what its pair rate and the receiver's credit
		// allow; an FPGA's interface is shared by its links in proportion
		// to what they could send (the simulator rotates their order
		// every cycle).
		for f := 0; f < nF; f++ {
			var want float64
			for g := 0; g < nF; g++ {
				l := &links[f*nF+g]
				l.send = 0
				if g != f && l.tx > 0 {
					l.send = math.Min(math.Min(l.tx, n.pair*flowStep), math.Max(0, n.rxCap-l.flight-l.rx))
					want += l.send
				}
			}
			scale := 1.0
			if budget := n.iface * flowStep; want > budget {
				scale = budget / want
			}
			for g := 0; g < nF; g++ {
				l := &links[f*nF+g]
				x := l.send * scale
				l.tx -= x
				l.flight += x
				l.pipe[(head+delay-1)%delay] += x
			}
		}
		if done && delivered >= remote-flowSlack(remote) || step > 1<<24 {
			return t + flowStep
		}
	}
}

// flowSlack is how far below x a sum of fractions of x may stay once all
// of x has passed: the proportional shares leave rounding residue on the
// order of x's last bits, which a fixed slack would wait for forever
// (millions of updates never sum back to their count exactly). It is the
// fixed 1e-6 below 1000 items.
func flowSlack(x float64) float64 { return max(1e-6, 1e-9*x) }
