package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/spf13/cobra"
)

func newBoardsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "boards",
		Short: "List the built-in boards",
		Long: `List the built-in board support packages: FPGA part, f_clk, default edge
memory, network-interface bandwidth and the largest number of FPGAs.
"gravf-tui boards show NAME|FILE" prints every figure of one board.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown boards subcommand %q (try \"boards show %s\")", args[0], args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			var list []*boards.Board
			for _, n := range boards.Names() {
				b, err := boards.Get(n)
				if err != nil {
					return err // a built-in board is broken: our fault
				}
				list = append(list, b)
			}
			if asJSON {
				rows := make([]boardRow, len(list))
				for i, b := range list {
					rows[i] = newBoardRow(b)
				}
				return writeJSON(cmd.OutOrStdout(), rows)
			}
			return listBoards(cmd.OutOrStdout(), list)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")

	var showJSON bool
	show := &cobra.Command{
		Use:   "show NAME|FILE",
		Short: "Print every figure of a board, with units, and the derived bandwidths",
		Long: `NAME is a built-in board (see "gravf-tui boards"); FILE is a board .toml file
of your own, which is checked as strictly as the built-in ones.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("boards show takes one board name or .toml file, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			b, err := boards.Load(args[0])
			if err != nil {
				return usageError{err}
			}
			if showJSON {
				return writeJSON(cmd.OutOrStdout(), newBoardDetail(b))
			}
			return showBoard(cmd.OutOrStdout(), b)
		},
	}
	show.Flags().BoolVar(&showJSON, "json", false, "print JSON")
	cmd.AddCommand(show)
	return cmd
}

// boardRow is one line of "gravf-tui boards --json".
type boardRow struct {
	Name          string      `json:"name"`
	Title         string      `json:"title"`
	Part          string      `json:"part"`
	Family        string      `json:"family"`
	ClockMHz      float64     `json:"clock_mhz"`
	EdgeMemory    memoryBrief `json:"edge_memory"`
	OtherMemories []string    `json:"other_memories,omitempty"`
	BWifGiBs      float64     `json:"bw_if_gib_s"`
	Topology      string      `json:"topology"`
	MaxFPGAs      int         `json:"max_fpgas"`
	MaxPEsPerFPGA int         `json:"max_pes_per_fpga"`
	PriceUSD      float64     `json:"price_usd"`
}

type memoryBrief struct {
	Name        string  `json:"name"`
	Kind        string  `json:"kind"`
	CapacityGiB float64 `json:"capacity_gib"`
	GiBs        float64 `json:"gib_s"`
	Sustained   bool    `json:"sustained"`
}

func newBoardRow(b *boards.Board) boardRow {
	m := b.EdgeMemory()
	r := boardRow{
		Name: b.Name, Title: b.Title, Part: b.FPGA.Part, Family: b.FPGA.Family, ClockMHz: b.ClockMHz,
		EdgeMemory: memoryBrief{Name: m.Name, Kind: m.Kind, CapacityGiB: m.CapacityGiB,
			GiBs: m.BitsPerSecond() / 8 / boards.GiB, Sustained: m.SustainedGiBs > 0},
		BWifGiBs: b.InterfaceBitsPerSecond(b.MaxFPGAs) / 8 / boards.GiB, Topology: b.Network.Topology,
		MaxFPGAs: b.MaxFPGAs, MaxPEsPerFPGA: b.MaxPEs(), PriceUSD: b.PriceUSD,
	}
	for _, o := range b.Memory[1:] {
		r.OtherMemories = append(r.OtherMemories, o.Name)
	}
	return r
}

func listBoards(w io.Writer, list []*boards.Board) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BOARD\tFPGA\tf_clk\tEDGE MEMORY\tBW_if\tMAX FPGAs\tTITLE")
	for _, b := range list {
		r := newBoardRow(b)
		mem := fmt.Sprintf("%s %s GiB, %s GiB/s", r.EdgeMemory.Kind, num(r.EdgeMemory.CapacityGiB), fix2(r.EdgeMemory.GiBs))
		if len(r.OtherMemories) > 0 {
			mem += " (+" + strings.Join(r.OtherMemories, ", ") + ")"
		}
		bwif := "-"
		if b.MaxFPGAs > 1 {
			bwif = fix2(r.BWifGiBs) + " GiB/s"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s MHz\t%s\t%s\t%d\t%s\n", b.Name, b.FPGA.Part, num(b.ClockMHz), mem, bwif, b.MaxFPGAs, b.Title)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nGiB = 2^30 bytes. Edge memory: the default one, with the bandwidth the model uses (sustained where")
	fmt.Fprintln(w, "measured, else peak). BW_if: per-FPGA network-interface bandwidth with the most FPGAs.")
	return nil
}

// boardDetail is "gravf-tui boards show --json": the board file's fields
// (snake_case, as in the file) and the derived figures.
type boardDetail struct {
	*boards.Board
	Derived derivedFigures `json:"derived"`
}

type derivedFigures struct {
	ClockHz           float64         `json:"clock_hz"`
	MaxPEsPerFPGA     int             `json:"max_pes_per_fpga"`
	MaxPEsFixed       bool            `json:"max_pes_fixed"`
	VertexMemoryBits  int64           `json:"vertex_memory_bits"`
	Memory            []memoryDerived `json:"memory"`
	LinkBitsPerSecond float64         `json:"link_bits_per_second"`
	PairBitsPerSecond float64         `json:"pair_bits_per_second"`
	PairGiBs          float64         `json:"pair_gib_s"`
	// NetworkBitsPerSecond is BW_net; 0 means unlimited.
	NetworkBitsPerSecond float64       `json:"network_bits_per_second"`
	Interface            []interfaceAt `json:"interface"`
}

type memoryDerived struct {
	Name              string  `json:"name"`
	CapacityBits      float64 `json:"capacity_bits"`
	PeakBitsPerSecond float64 `json:"peak_bits_per_second"`
	BitsPerSecond     float64 `json:"bits_per_second"`
}

type interfaceAt struct {
	FPGAs             int     `json:"n_fpgas"`
	Nodes             int     `json:"nodes"`
	BitsPerSecond     float64 `json:"bw_if_bits_per_second"`
	GiBs              float64 `json:"bw_if_gib_s"`
	NodeBitsPerSecond float64 `json:"node_bw_if_bits_per_second"`
	NodeGiBs          float64 `json:"node_bw_if_gib_s"`
	// LinkLimited says the links bind, not the interface (few partners in
	// a direct network).
	LinkLimited bool `json:"link_limited"`
}

func newBoardDetail(b *boards.Board) boardDetail {
	d := derivedFigures{
		ClockHz:              b.ClockHz(),
		MaxPEsPerFPGA:        b.MaxPEs(),
		MaxPEsFixed:          b.PE.MaxPerFPGA > 0,
		VertexMemoryBits:     b.VertexMemoryBits(),
		LinkBitsPerSecond:    b.LinkBitsPerSecond(),
		PairBitsPerSecond:    b.PairBitsPerSecond(),
		PairGiBs:             b.PairBitsPerSecond() / 8 / boards.GiB,
		NetworkBitsPerSecond: b.NetworkBitsPerSecond(),
		Interface:            []interfaceAt{},
	}
	for i := range b.Memory {
		m := &b.Memory[i]
		d.Memory = append(d.Memory, memoryDerived{m.Name, m.CapacityBits(), m.PeakBitsPerSecond(), m.BitsPerSecond()})
	}
	ifc := b.Network.InterfaceGiBs * 8 * boards.GiB
	for nf := 2; nf <= b.MaxFPGAs; nf++ {
		bw := b.InterfaceBitsPerSecond(nf)
		d.Interface = append(d.Interface, interfaceAt{
			FPGAs: nf, Nodes: b.Nodes(nf),
			BitsPerSecond: bw, GiBs: bw / 8 / boards.GiB,
			NodeBitsPerSecond: b.NodeInterfaceBitsPerSecond(nf), NodeGiBs: b.NodeInterfaceBitsPerSecond(nf) / 8 / boards.GiB,
			LinkLimited: bw < ifc,
		})
	}
	return boardDetail{b, d}
}

// showBoard prints a board: its description, then its FPGA, memories,
// network and PEs with what the model derives from them.
func showBoard(w io.Writer, b *boards.Board) error {
	d := newBoardDetail(b).Derived
	fmt.Fprintf(w, "%s: %s\n", b.Name, b.Title)
	if b.Doc != "" {
		for _, line := range strings.Split(b.Doc, "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	t := boardTable{tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
	t.fpga(b, d)
	t.memory(b)
	t.network(b, d)
	if err := t.tw.Flush(); err != nil {
		return err
	}
	if err := showInterface(w, b, d); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nPE")
	t = boardTable{tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
	t.pe(b, d)
	if err := t.tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nGiB = 2^30 bytes; Gbit = 10^9 bits.")
	return nil
}

// boardTable writes the sections of showBoard as aligned rows.
type boardTable struct{ tw *tabwriter.Writer }

// row writes one row: a key, then its value.
func (t boardTable) row(k, format string, args ...any) {
	fmt.Fprintf(t.tw, "  %s\t"+format+"\n", append([]any{k}, args...)...)
}

// fpga writes the board's file, source and price, then its FPGA.
func (t boardTable) fpga(b *boards.Board, d derivedFigures) {
	price := "unknown"
	if b.PriceUSD > 0 {
		price = num(b.PriceUSD) + " USD per FPGA board (approximate)"
	}
	fmt.Fprintln(t.tw)
	t.row("file", "%s", b.File)
	t.row("source", "%s", b.Source)
	t.row("price", "%s", price)

	fmt.Fprintln(t.tw, "\nFPGA")
	t.row("part", "%s (yosys -family %s)", b.FPGA.Part, b.FPGA.Family)
	t.row("LUTs", "%d", b.FPGA.LUT)
	t.row("flip-flops", "%d", b.FPGA.FF)
	t.row("BRAM36", "%d (36 Kb each)", b.FPGA.BRAM36)
	t.row("URAM", "%d (288 Kb each)", b.FPGA.URAM)
	t.row("DSP", "%d", b.FPGA.DSP)
	t.row("f_clk", "%s MHz", num(b.ClockMHz))
	if b.ClockMaxMHz > 0 {
		t.row("", "the platform's fastest design clock: %s MHz", num(b.ClockMaxMHz))
	}
	if b.PublishedClockMHz > 0 {
		t.row("", "published designs closed at %s MHz: %s", num(b.PublishedClockMHz), b.PublishedClockSource)
	} else {
		t.row("", "no published design of this kind known on this board")
	}
	if b.Retired != "" {
		t.row("retired", "%s", b.Retired)
	}
	t.row("M_board", "%d bits (%s MiB) of BRAM and URAM per FPGA for vertex state", d.VertexMemoryBits, fix2(float64(d.VertexMemoryBits)/8/(1<<20)))
	t.row("max FPGAs", "%d", b.MaxFPGAs)
}

// memory writes the memories of one FPGA.
func (t boardTable) memory(b *boards.Board) {
	fmt.Fprintln(t.tw, "\nMEMORY (per FPGA; the first is the default edge memory)")
	for i := range b.Memory {
		m := &b.Memory[i]
		sus := "not measured"
		if m.SustainedGiBs > 0 {
			sus = num(m.SustainedGiBs) + " GiB/s"
		}
		t.row(m.Name, "%s, %s GiB, peak %s GiB/s, sustained %s", m.Kind, num(m.CapacityGiB), num(m.PeakGiBs), sus)
		t.row("", "%d-bit words, %s ns latency, %d requests in flight per PE port, %d channels", m.WordBits, num(m.LatencyNs), m.RequestsInFlight, m.Channels)
		t.row("", "BW_mem used by the model: %s Gbit/s", fix2(m.BitsPerSecond()/1e9))
	}
}

// network writes the network between the FPGAs.
func (t boardTable) network(b *boards.Board, d derivedFigures) {
	n := &b.Network
	fmt.Fprintln(t.tw, "\nNETWORK")
	t.row("topology", "%s", n.Topology)
	if n.Topology == boards.TopologyHierarchical {
		t.row("nodes", "%d FPGAs per node, %d nodes at most", n.FPGAsPerNode, b.Nodes(b.MaxFPGAs))
	}
	t.row("links", "%d per FPGA, %s Gbit/s per direction each, %d-bit words, %s ns one way", n.LinksPerFPGA, num(n.LinkGbits), n.LinkWordBits, num(n.LinkLatencyNs))
	t.row("per pair", "%s GiB/s (%s Gbit/s): the most one FPGA sends to one other", fix2(d.PairGiBs), fix2(d.PairBitsPerSecond/1e9))
	t.row("interface", "%s GiB/s per FPGA, send = receive (BW_if cap)", num(n.InterfaceGiBs))
	if d.NetworkBitsPerSecond > 0 {
		t.row("BW_net", "%s GiB/s in total", num(n.TotalGiBs))
	} else {
		t.row("BW_net", "unlimited (never binds)")
	}
	if n.Topology == boards.TopologyHierarchical {
		t.row("between nodes", "%s Gbit/s per node pair and direction, %s GiB/s per node", num(n.NodeLinkGbits), num(n.NodeInterfaceGiBs))
	}
}

// showInterface writes the table of BW_if by number of FPGAs (per FPGA in
// a node and per node for a hierarchical network).
func showInterface(w io.Writer, b *boards.Board, d derivedFigures) error {
	if len(d.Interface) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\n  BW_if by number of FPGAs (GiB/s):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	hier := b.Network.Topology == boards.TopologyHierarchical
	if hier {
		fmt.Fprintln(tw, "    nF\tnodes\tper FPGA in a node\tper node")
	} else {
		fmt.Fprintln(tw, "    nF\tBW_if\tbound by")
	}
	for _, r := range d.Interface {
		if hier {
			node := "-"
			if r.Nodes > 1 {
				node = fix2(r.NodeGiBs)
			}
			fmt.Fprintf(tw, "    %d\t%d\t%s\t%s\n", r.FPGAs, r.Nodes, fix2(r.GiBs), node)
			continue
		}
		by := "interface"
		if r.LinkLimited {
			by = "links"
		}
		fmt.Fprintf(tw, "    %d\t%s\t%s\n", r.FPGAs, fix2(r.GiBs), by)
	}
	return tw.Flush()
}

// pe writes how many PEs fit and what one costs.
func (t boardTable) pe(b *boards.Board, d derivedFigures) {
	how := "derived from the fabric and the per-PE cost"
	if d.MaxPEsFixed {
		how = "fixed by the board file"
	}
	t.row("PEs per FPGA", "%d (%s)", d.MaxPEsPerFPGA, how)
	t.row("cost per PE", "%d LUTs, %d flip-flops, %d BRAM36, %d DSPs (estimate)", b.PE.LUT, b.PE.FF, b.PE.BRAM36, b.PE.DSP)
	var cpe []string
	for _, k := range b.CPEKernels() {
		c, _ := b.CPE(k)
		cpe = append(cpe, k+" "+strconv.FormatFloat(c, 'f', 2, 64))
	}
	if len(cpe) == 0 {
		cpe = []string{"none measured on this board"}
	}
	t.row("CPE", "%s (cycles per edge)", strings.Join(cpe, ", "))
}

// num prints a figure as written in a board file: shortest form.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func fix2(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
