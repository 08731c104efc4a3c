package sim

// The GraVF-M network at fast detail: the crossbars and the links are
// stepped cycle by cycle with the rules of the cycle-level machine
// (machine.stepCrossbar, stepLinks), and idle stretches are skipped. The
// PEs are not stepped: a crossbar write hands the item to the PEs'
// fastPE recurrences, which return when each PE's lookup stage takes it;
// the crossbar's lockstep rule (nothing moves while any local input FIFO
// is full) then needs only the take cycle of the write InFIFODepth writes
// back, the latest over the FPGA's PEs.

// fxItem is an update (v = the sender's place in fastEdges) or a barrier
// marker (v = source PE) on its way through the crossbars and links.
type fxItem struct {
	v       uint32
	round   int32
	barrier bool
	halt    bool
	at      int64 // on a link: the cycle it arrives, then the first cycle the crossbar may take it
}

// fxLink is one direction of one FPGA pair (see link). Its two ends
// belong to different FPGAs, which fast detail steps in parallel windows
// (fastwindow.go), so each end keeps its own state: the sender serialises
// items into an outbox that the window's barrier moves onto the wire, and
// the receiver logs the cycle of every item its crossbar takes, from
// which the sender counts its credit.
type fxLink struct {
	from, to int
	tx       ring[fxItem]
	// wire (the receiver's) holds the items in flight and, in front of
	// them, the arrived ones in the receive FIFO (arrived of them): both
	// leave in the order they were sent.
	wire    ring[fxItem]
	arrived int
	rxCap   int
	// takes logs the receiver's takes and holds what the sender knows of
	// them; the sender's end also holds the items serialised in this
	// window and how many were serialised in all.
	takes  takeLog
	outbox []fxItem
	sent   int64
	tokens float64
	tokAt  int64 // the cycle tokens was last brought up to date
	words  float64
}

// fxQueue is the update queue of one PE for the round it last applied:
// its senders in local order, each ready ApplyLatency cycles after the
// sweep reaches it, then its barrier marker. item and ready describe the
// head while ok.
type fxQueue struct {
	round    int
	known    bool // the round's senders have arrived from the reference engine
	applyAt  int64
	local    []uint32 // the senders' local indices (roundSenders)
	pos      int
	barrier  bool     // the marker is still queued
	vertices []uint32 // the PE's members, by local index
	members  int
	al       int64
	mark     int64 // the globals' hold on the marker (fastRounds.mark)
	pe       int

	ok    bool
	item  fxItem
	ready int64
}

// setHead describes the queue's next item.
func (u *fxQueue) setHead() {
	u.ok = u.known
	switch {
	case !u.known:
	case u.pos < len(u.local):
		u.item = fxItem{v: u.vertices[u.local[u.pos]], round: int32(u.round)}
		u.ready = u.applyAt + 1 + int64(u.local[u.pos]) + u.al
	case u.barrier:
		u.item = fxItem{v: uint32(u.pe), round: int32(u.round), barrier: true, halt: len(u.local) == 0}
		u.ready = u.applyAt + 2 + int64(u.members) + u.al + u.mark
	default:
		u.ok = false
	}
}

func (u *fxQueue) pop() {
	if u.pos < len(u.local) {
		u.pos++
	} else {
		u.barrier = false
	}
	u.setHead()
}

// fxFPGA is one FPGA's crossbar.
type fxFPGA struct {
	id                int
	round             int32
	rrLocal, rrRemote int
	in                []*fxLink
	out               []*fxLink // by destination, nil for itself
	ifTokens          float64
	ifAt              int64 // the cycle ifTokens was last brought up to date
	txItems           int   // items in the send FIFOs of the links leaving x
	// Crossbar writes into the local input FIFOs: how many so far, the
	// cycle of the last, and the latest take cycle over the local PEs of
	// each of the last InFIFODepth (by write count).
	writes   int64
	lastW    int64
	takeRing [InFIFODepth]int64
	maxKey   int64 // the largest fastPE.key over the local PEs
	// The local PEs that have passed the barrier of the current channel,
	// and the latest cycle one did.
	passed   int
	passedAt int64
	// wake is the first cycle the crossbar might move; txBlocked says it
	// waits for room in a send FIFO.
	wake      int64
	txBlocked bool
	// The FPGA's own clock in the parallel windows: now is the next cycle
	// it handles (everything before is done), arriveAt the first cycle an
	// item in flight to it arrives; stopped says it waits at now for the
	// senders of the superstep it is about to open, paused that it has
	// stepped its crossbar in cycle now but waits to know its links'
	// credit. Its PEs that terminated and the rounds they began (round,
	// cycle) since the last barrier are merged there.
	now      int64
	arriveAt int64
	stopped  bool
	paused   bool
	pauses   int // how often it paused (tests check that they meet it)
	finished int
	starts   []fxStart
}

// fxStart records that a PE began round r's apply sweep in cycle at.
type fxStart struct {
	r  int
	at int64
}
