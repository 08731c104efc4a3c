package explorer

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
)

// CheckBuildable is the capacity check (model.CheckDesign: FPGAs, PEs per
// FPGA, on-chip memory, edge memory) that the command line and the
// notebooks run before they simulate or export a design point, so that
// neither simulates nor writes a design the board cannot hold. The error
// is a UsageError naming the design and the problem.
func CheckBuildable(p *model.Platform, k *kernel.Kernel, g *graph.Graph, cfg model.Config) error {
	w := model.NewWorkload(k, g, 1, "", nil)
	if err := model.CheckDesign(p, w, cfg); err != nil {
		fpgas := "FPGAs"
		if cfg.FPGAs == 1 {
			fpgas = "FPGA"
		}
		return UsageError{fmt.Errorf("%d %s x %d PEs of %s cannot be built: %w", cfg.FPGAs, fpgas, cfg.PEs, p.Name, err)}
	}
	return nil
}
