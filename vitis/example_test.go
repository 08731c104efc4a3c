package vitis_test

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/vitis"
)

// The Vitis platform of an Alveo board: what the export links against,
// its banks and the QSFP28 cages its link kernels use.
func ExamplePlatformFor() {
	p, err := vitis.PlatformFor("u280")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %d %s banks of %d MiB, %d SLRs\n", p.Name, p.Banks, p.Bank, p.BankBytes>>20, p.SLRs)
	for i, q := range p.QSFP {
		fmt.Printf("QSFP%d: %s, %s\n", i, q.GT, q.Quad)
	}
	_, err = vitis.PlatformFor("ac510")
	fmt.Println(err)
	// Output:
	// xilinx_u280_gen3x16_xdma_1_202211_1: 32 HBM banks of 256 MiB, 3 SLRs
	// QSFP0: io_gt_qsfp0_00, GTY quad 134 (X0Y40-X0Y43)
	// QSFP1: io_gt_qsfp1_00, GTY quad 135 (X0Y44-X0Y47)
	// --target vitis: board "ac510" is not an Alveo board with a known Vitis platform (supported: u250, u280, u55c)
}
