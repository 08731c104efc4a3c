// Package boards holds the board support packages of gravf-tui: what the
// performance model, the simulator and the generator need to know about a
// multi-FPGA platform, one TOML file per platform.
//
// A board file gives the FPGA part and its resources (LUTs, flip-flops,
// 36 Kb block RAMs, UltraRAMs, DSP slices), the clock f_clk of the GraVF-M
// design, one or more off-chip memories (kind, capacity, bandwidth, access
// word, latency, requests in flight, channels), the network between the
// FPGAs (topology, links, per-FPGA interface bandwidth BW_if, total
// bandwidth BW_net), the largest number of FPGAs the platform has, and the
// processing element's cost and measured cycles per edge (CPE). The
// built-in boards are embedded in the binary (see Names); a user's own
// .toml file takes their place wherever a board name is accepted (Load).
//
// # Units
//
// Every figure carries its unit in its key: clock_mhz, capacity_gib,
// peak_gib_s, link_gbit_s, latency_ns, word_bits, price_usd. GiB is 2^30
// bytes everywhere (GiB/s = 2^30 bytes per second), because the paper
// reports memory and network bandwidth in GiB/s; Gbit/s is 10^9 bits per
// second, as link rates are quoted. The Go methods convert to bits per
// second, the unit of SPEC §3's formulas (BW_mem, BW_if, BW_net).
//
// # Errors
//
// Parsing is strict: an unknown key is an error, as is a value of the wrong
// type or out of range, a key given twice, or a measured CPE for a kernel
// that is not built in. Parse collects every error of a file (a TOML
// syntax error excepted, which stops it) and reports them in file order,
// each as "file:line:col: key: message", for example
//
//	my.toml:12:1: memory[0].word_bits: must be a positive multiple of 8, got 0
//
// Reading takes time and memory in proportion to the file (see
// internal/tomldoc), and files over 1 MiB are refused.
//
// # Adding a key
//
// A key is spelled once: in the toml tag of its field in board.go. The
// same field's tags say the rest, and everything else follows from them:
//
//	// PublishedClockMHz is the clock published designs closed at.
//	PublishedClockMHz float64 `toml:"published_clock_mhz" json:"published_clock_mhz" check:"(0,2000]" doc:"clock of published designs"`
//
// The toml tag is the key (its unit in the suffix, see UnitOf), json the
// key of `boards show --json`, check the rules Parse and Validate apply
// (required, a range, bits, id, nonempty, default=; see internal/tomldoc),
// doc the words in messages ("must be positive (clock of published
// designs), got 0") and help. board:"set" makes the figure overridable by
// a platform cell's `set` table and `--set KEY=VALUE` (see Params). Checks
// that combine fields go in validate.go, which names fields by pointer
// (c.Errorf(&b.ClockMHz, ...)), never by key. A derived figure is a method
// here. `boards show --json` prints every field by its json tag; the text
// of `boards show` lists the figures people compare, so a key worth
// reading there also gets a row in cmd/gravf-tui/boards.go.
//
// # Networks
//
// The topology decides how BW_if depends on the number of FPGAs nF (see
// Board.InterfaceBitsPerSecond): "direct" has one link per FPGA pair (the
// AC-510's streams), so with few partners the per-link rate binds; "switch"
// and "ring" offer all of an FPGA's links whatever nF is; "hierarchical"
// groups fpgas_per_node FPGAs on a fast local fabric and joins the groups
// (nodes) by a slower one, and the model applies its formulas with the node
// count in place of nF (SPEC §3).
package boards
