package gen

import (
	"fmt"
	"strings"

	"github.com/gravf-tui/gravf-tui/kernel"
)

// CheckGlobals refuses a kernel with globals: the hand-written PE
// (rtl/gravf_pe.v) has no combine unit, no lanes and no partials in its
// barrier marker yet, so such a kernel runs in the reference engine and
// the simulator (both details model that hardware) but is not exported.
func CheckGlobals(k *kernel.Kernel) error {
	if len(k.Spec.Global) == 0 {
		return nil
	}
	var names []string
	for _, g := range k.Spec.Global {
		names = append(names, "global."+g.Name)
	}
	return fmt.Errorf("gen: kernel %s has globals (%s), which the hand-written PE (rtl/gravf_pe.v) does not carry yet; simulate it with 'gravf-tui sim' instead", k.Spec.Name, strings.Join(names, ", "))
}
