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

// fxLink is one direction of one FPGA pair (see link).
type fxLink struct {
	from, to int
	tx       ring[fxItem]
	// wire holds the items in flight and, in front of them, the arrived
	// ones in the receive FIFO (arrived of them): both leave in the order
	// they were sent, and the credit the sender checks counts both.
	wire    ring[fxItem]
	arrived int
	rxCap   int
	tokens  float64
	tokAt   int64 // the cycle tokens was last brought up to date
	words   float64
}

// fxQueue is the update queue of one PE for the round it last applied:
// its senders in local order, each ready ApplyLatency cycles after the
// sweep reaches it, then its barrier marker. item and ready describe the
// head while ok.
type fxQueue struct {
	round   int
	known   bool // the round's senders have arrived from the reference engine
	applyAt int64
	sends   []uint32
	local   []uint32 // the senders' local indices
	pos     int
	barrier bool // the marker is still queued
	members int
	al      int64
	mark    int64 // the globals' hold on the marker (fastRounds.mark)
	pe      int

	ok    bool
	item  fxItem
	ready int64
}

// setHead describes the queue's next item.
func (u *fxQueue) setHead() {
	u.ok = u.known
	switch {
	case !u.known:
	case u.pos < len(u.sends):
		u.item = fxItem{v: u.sends[u.pos], round: int32(u.round)}
		u.ready = u.applyAt + 1 + int64(u.local[u.pos]) + u.al
	case u.barrier:
		u.item = fxItem{v: uint32(u.pe), round: int32(u.round), barrier: true, halt: len(u.sends) == 0}
		u.ready = u.applyAt + 2 + int64(u.members) + u.al + u.mark
	default:
		u.ok = false
	}
}

func (u *fxQueue) pop() {
	if u.pos < len(u.sends) {
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
}
