package boards_test

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/boards"
)

// The AC-510's network-interface bandwidth by number of FPGAs: with one or
// two partners the 128-bit streams bind, with three the interface does.
// These are the paper's measured 2.79, 5.59 and 5.85 GiB/s.
func ExampleBoard_InterfaceBitsPerSecond() {
	b, err := boards.Get("ac510")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %s, f_clk %g MHz, %d PEs per FPGA\n", b.Name, b.FPGA.Part, b.ClockMHz, b.MaxPEs())
	for nF := 2; nF <= b.MaxFPGAs; nF++ {
		fmt.Printf("nF=%d: BW_if = %.2f GiB/s\n", nF, b.InterfaceBitsPerSecond(nF)/8/boards.GiB)
	}
	// Output:
	// ac510: xcku060-ffva1156-2-e, f_clk 187.5 MHz, 9 PEs per FPGA
	// nF=2: BW_if = 2.79 GiB/s
	// nF=3: BW_if = 5.59 GiB/s
	// nF=4: BW_if = 5.85 GiB/s
}

// Errors name the file, the line and the field, all of them at once.
func ExampleParse() {
	_, err := boards.Parse("my.toml", []byte(`name = "mine"
title = "my board"
source = "my lab"
clock_mhz = 250
max_fpgas = 2

[fpga]
part = "xcu250-figd2104-2L-e"
family = "xcup"
lut = 1728000
ff = 3456000
bram36 = 2688
dsp = 12288

[[memory]]
name = "ddr4"
kind = "ddr4"
capacity_gib = 64
peak_gib_s = 71.71
word_bits = 0
latency_ns = 120
requests_in_flight = 32
channels = 4

[network]
topology = "star"
links_per_fpga = 2
link_gbit_s = 100
link_word_bits = 512
interface_gib_s = 23.28

[pe]
lut = 20000
ff = 24000
`))
	fmt.Println(err)
	// Output:
	// my.toml:20:1: memory[0].word_bits: must be a positive multiple of 8, got 0
	// my.toml:26:1: network.topology: must be one of "direct", "ring", "switch", "hierarchical", got "star"
}

// Names lists the built-in boards; Load also takes a path to a .toml file.
func ExampleNames() {
	for _, n := range boards.Names() {
		b, err := boards.Get(n)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-6s %-22s %5g MHz  up to %d FPGAs\n", b.Name, b.FPGA.Part, b.ClockMHz, b.MaxFPGAs)
	}
	// Output:
	// ac510  xcku060-ffva1156-2-e   187.5 MHz  up to 4 FPGAs
	// f1     xcvu9p-flgb2104-2-i      250 MHz  up to 8 FPGAs
	// f2     xcvu47p-fsvh2892-2-e     250 MHz  up to 8 FPGAs
	// u250   xcu250-figd2104-2L-e     250 MHz  up to 8 FPGAs
	// u280   xcu280-fsvh2892-2L-e     225 MHz  up to 8 FPGAs
	// u55c   xcu55c-fsvh2892-2L-e     225 MHz  up to 8 FPGAs
}
