package vitis

import (
	"fmt"
	"sort"
	"strings"
)

// Platform is what the export needs to know about a board's Vitis target
// platform beyond the board file: the platform to link against, its
// memory banks as v++ names them, its SLRs, and its QSFP28 cages as the
// platform exposes them to kernels.
type Platform struct {
	Board string
	// Name is the Vitis platform (v++ --platform).
	Name string
	// Bank is the prefix of the edge memory's banks in sp= lines ("HBM" or
	// "DDR"), Banks their number and BankBytes the capacity of one. XRT
	// allocates a buffer inside one bank, so no buffer may exceed it.
	Bank      string
	Banks     int
	BankBytes int64
	// BankSLR is the SLR each bank attaches to (one entry: all banks).
	BankSLR []int
	SLRs    int
	// QSFP lists the cages a link kernel can drive, in cage order.
	QSFP []QSFP
	// InitClock is the free-running clock the Aurora core's init_clk takes
	// (a connect= source in the v++ configuration), at InitClockMHz.
	InitClock    string
	InitClockMHz float64
	// GTRefClockMHz is the frequency of the GT reference clock the link
	// kernel's Aurora core is generated for.
	GTRefClockMHz float64
	// Sources cite where the figures above come from.
	Sources string
}

// QSFP is one QSFP28 cage: the platform's GT interface and reference
// clock (connect= names), and where they are on the FPGA, for the
// constraints and the wiring documentation.
type QSFP struct {
	GT, RefClock string
	Quad         string // GTY quad and channels
	RefClockPins string // MGTREFCLK pins (P/N) of the reference clock
}

// platforms are the Alveo boards the export targets.
//
// Sources: platform names and connect= names from AMD's Vitis tutorial
// "Using Aurora IP in Alveo with Vitis Flow" (Vitis-Tutorials,
// Hardware_Acceleration/Design_Tutorials/08-alveo_aurora_kernel,
// krnl_aurora_test.cfg) and FINN's multi-FPGA Aurora flow (refclkb
// interfaces on U280/U55C); bank counts and sizes from the data sheets
// (DS963 U280: 8 GB HBM2 in 32 pseudo-channels, 2 x 16 GB DDR4; DS962
// U250: 4 x 16 GB DDR4; DS978 U55C: 16 GB HBM2 in 32 pseudo-channels);
// GTY quads and MGTREFCLK pins from the boards' master XDC as published
// in corundum (fpga/mqnic/AU280, AU200/AU250) and MEEP (U55C); the
// 161.1328125 MHz reference clock is the default of the cards' QSFP clock
// generators (SI546 on U280, SI5335 on U250, SI5394B on U55C) that feed
// the refclkb interfaces. Check both against `platforminfo -p <platform>
// --verbose` for the platform version installed.
var platforms = map[string]Platform{
	"u280": {
		Board: "u280", Name: "xilinx_u280_gen3x16_xdma_1_202211_1",
		Bank: "HBM", Banks: 32, BankBytes: 256 << 20, BankSLR: []int{0}, SLRs: 3,
		QSFP: []QSFP{
			{GT: "io_gt_qsfp0_00", RefClock: "io_clk_qsfp0_refclkb_00", Quad: "GTY quad 134 (X0Y40-X0Y43)", RefClockPins: "R40/R41 (MGTREFCLK1_134)"},
			{GT: "io_gt_qsfp1_00", RefClock: "io_clk_qsfp1_refclkb_00", Quad: "GTY quad 135 (X0Y44-X0Y47)", RefClockPins: "M42/M43 (MGTREFCLK1_135)"},
		},
		InitClock: "ii_level0_wire/ulp_m_aclk_freerun_ref_00", InitClockMHz: 100, GTRefClockMHz: 161.1328125,
		Sources: "AMD Vitis-Tutorials 08-alveo_aurora_kernel; FINN aurora flow; DS963; corundum AU280 XDC",
	},
	"u250": {
		Board: "u250", Name: "xilinx_u250_gen3x16_xdma_4_1_202210_1",
		Bank: "DDR", Banks: 4, BankBytes: 16 << 30, BankSLR: []int{0, 1, 2, 3}, SLRs: 4,
		QSFP: []QSFP{
			{GT: "io_gt_qsfp_00", RefClock: "io_clk_qsfp_refclkb_00", Quad: "GTY quad 231 (X1Y48-X1Y51)", RefClockPins: "K11/K10 (MGTREFCLK1_231)"},
			{GT: "io_gt_qsfp_01", RefClock: "io_clk_qsfp_refclkb_01", Quad: "GTY quad 230 (X1Y44-X1Y47)", RefClockPins: "P11/P10 (MGTREFCLK1_230)"},
		},
		InitClock: "ii_level1_wire/ulp_m_aclk_freerun_ref_00", InitClockMHz: 100, GTRefClockMHz: 161.1328125,
		Sources: "AMD Vitis-Tutorials 08-alveo_aurora_kernel; DS962; corundum AU200/AU250 XDC",
	},
	"u55c": {
		Board: "u55c", Name: "xilinx_u55c_gen3x16_xdma_3_202210_1",
		Bank: "HBM", Banks: 32, BankBytes: 512 << 20, BankSLR: []int{0}, SLRs: 3,
		QSFP: []QSFP{
			{GT: "io_gt_qsfp0_00", RefClock: "io_clk_qsfp0_refclkb_00", Quad: "GTY quad 130", RefClockPins: "AD42/AD43 (MGTREFCLK1_130)"},
			{GT: "io_gt_qsfp1_00", RefClock: "io_clk_qsfp1_refclkb_00", Quad: "GTY quad 131", RefClockPins: "AB42/AB43 (MGTREFCLK1_131)"},
		},
		InitClock: "ii_level0_wire/ulp_m_aclk_freerun_ref_00", InitClockMHz: 100, GTRefClockMHz: 161.1328125,
		Sources: "AMD Vitis-Tutorials 08-alveo_aurora_kernel; FINN aurora flow; DS978; MEEP U55C XDC",
	},
}

// PlatformFor returns the Vitis platform of a board, or an error that
// lists the boards the target supports.
func PlatformFor(board string) (Platform, error) {
	p, ok := platforms[board]
	if !ok {
		return Platform{}, fmt.Errorf("--target vitis: board %q is not an Alveo board with a known Vitis platform (supported: %s)",
			board, strings.Join(PlatformBoards(), ", "))
	}
	return p, nil
}

// PlatformBoards lists the boards with a Vitis platform, sorted.
func PlatformBoards() []string {
	var b []string
	for n := range platforms {
		b = append(b, n)
	}
	sort.Strings(b)
	return b
}

// BankName is the v++ name of bank i ("HBM[3]").
func (p Platform) BankName(i int) string { return fmt.Sprintf("%s[%d]", p.Bank, i) }

// SLROf is the SLR bank i attaches to.
func (p Platform) SLROf(i int) int {
	if len(p.BankSLR) == 1 {
		return p.BankSLR[0]
	}
	return p.BankSLR[i%len(p.BankSLR)]
}
