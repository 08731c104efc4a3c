package explorer

import (
	"context"
	"testing"
)

// BenchmarkModelSweep1000 measures a 1,000-point model sweep (40 FPGA
// counts x 25 PE counts on the U250) once the dataset is loaded, as the
// TUI re-runs it after an edit of the platform.
func BenchmarkModelSweep1000(b *testing.B) {
	nb := small(b, &Sweep{Grid: "fpgas=1..40,pes=1..25", Detail: "fast", Cost: "pes"})
	if err := nb.Edit(0, func(in Input) error {
		p := in.(*Platform)
		p.Board, p.FPGAs, p.PEs = "u250", 0, 0
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := nb.Eval(ctx, 4, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		// A new clock each time, so that the sweep is not cached.
		_ = nb.Edit(0, func(in Input) error {
			in.(*Platform).Set = map[string]float64{"clock_mhz": 200 + float64(i%1000)/10}
			return nil
		})
		out, err := nb.Eval(ctx, 4, nil)
		if err != nil {
			b.Fatal(err)
		}
		if n := len(out.(*SweepOutput).Points); n != 1000 {
			b.Fatalf("%d points", n)
		}
	}
}

// BenchmarkModelCell measures the model cell after a platform edit: what
// the TUI recomputes on a keystroke.
func BenchmarkModelCell(b *testing.B) {
	nb := Default()
	ctx := context.Background()
	if _, err := nb.Eval(ctx, 5, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		_ = nb.Edit(1, func(in Input) error {
			in.(*Platform).Set = map[string]float64{"network.interface_gib_s": 1 + float64(i%1000)/100}
			return nil
		})
		if _, err := nb.Eval(ctx, 5, nil); err != nil {
			b.Fatal(err)
		}
	}
}
