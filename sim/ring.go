package sim

// ring is a FIFO with a fixed capacity, the hardware FIFO of the
// micro-architecture. The zero value has capacity 0; use newRing.
//
// Indices wrap with a compare and subtract rather than a modulo: the
// cycle engine pushes and pops several rings per PE per cycle, and an
// integer division per access was a tenth of its time.
type ring[T any] struct {
	buf        []T
	head, size int
}

func newRing[T any](capacity int) ring[T] { return ring[T]{buf: make([]T, max(capacity, 1))} }

func (r *ring[T]) len() int    { return r.size }
func (r *ring[T]) cap() int    { return len(r.buf) }
func (r *ring[T]) full() bool  { return r.size == len(r.buf) }
func (r *ring[T]) empty() bool { return r.size == 0 }

// push appends x; the caller checks full first.
func (r *ring[T]) push(x T) {
	if r.size == len(r.buf) {
		r.grow()
	}
	i := r.head + r.size
	if i >= len(r.buf) {
		i -= len(r.buf)
	}
	r.buf[i] = x
	r.size++
}

// grow doubles an unbounded queue (the update queue); hardware FIFOs are
// checked with full before push and never grow. It is kept out of line so
// that push, which the cycle engine calls several times per PE per cycle,
// inlines.
//
//go:noinline
func (r *ring[T]) grow() {
	n := make([]T, 2*len(r.buf))
	for i := 0; i < r.size; i++ {
		n[i] = r.buf[(r.head+i)%len(r.buf)]
	}
	r.buf, r.head = n, 0
}

func (r *ring[T]) peek() *T { return &r.buf[r.head] }

// nth returns the entry i places behind the head (i < len).
func (r *ring[T]) nth(i int) *T {
	i += r.head
	if i >= len(r.buf) {
		i -= len(r.buf)
	}
	return &r.buf[i]
}

func (r *ring[T]) pop() T {
	x := r.buf[r.head]
	r.head++
	if r.head == len(r.buf) {
		r.head = 0
	}
	r.size--
	return x
}
