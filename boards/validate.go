package boards

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gravf-tui/gravf-tui/internal/tomldoc"
	"github.com/gravf-tui/gravf-tui/samples"
)

// maxCPE bounds a measured cycles-per-edge figure: a PE that needs more
// than a thousand cycles per edge is a unit mistake.
const maxCPE = 1000

// validate runs the checks that combine fields or depend on the
// topology; the range of each field is in its tag. Fields are named by
// pointer, so that no key is spelled here.
func validate(c *tomldoc.Checker, b *Board) {
	f := &b.FPGA
	if c.OK(&f.Part) {
		if err := CheckPart(f.Part); err != nil {
			c.Errorf(&f.Part, "%v", err)
		}
	}
	oneOf(c, &f.Family, Families)
	if c.OK(&f.URAM) && f.URAM > 0 && (f.Family == "xc7" || f.Family == "xcu") {
		c.Errorf(&f.URAM, "must be 0 for family %q: only UltraScale+ (xcup) parts have UltraRAM, got %d", f.Family, f.URAM)
	}
	if len(b.Memory) == 0 {
		c.Errorf(&b.Memory, "at least one [[memory]] table is required (the first is the default edge memory)")
	}
	names := map[string]int{}
	for i := range b.Memory {
		m := &b.Memory[i]
		if c.OK(&m.Name) {
			if j, dup := names[m.Name]; dup {
				c.Errorf(&m.Name, "%q is already the name of memory[%d]", m.Name, j)
			} else {
				names[m.Name] = i
			}
		}
		oneOf(c, &m.Kind, MemoryKinds)
		if c.OK(&m.SustainedGiBs) && c.OK(&m.PeakGiBs) && m.SustainedGiBs > m.PeakGiBs && m.PeakGiBs > 0 {
			c.Errorf(&m.SustainedGiBs, "must not exceed %s = %s, got %s", c.Key(&m.PeakGiBs), fmtNum(m.PeakGiBs), fmtNum(m.SustainedGiBs))
		}
		if m.ModelBandwidth != "" {
			oneOf(c, &m.ModelBandwidth, []string{"peak", "sustained"})
		}
	}
	validateClocks(c, b)
	validateNetwork(c, b)
	validatePE(c, b)
}

// validateClocks holds the published clock to the platform's maximum and
// to its source. A design clock above either is allowed, with a warning
// (Board.Warnings): a user may ask what a faster clock would give.
func validateClocks(c *tomldoc.Checker, b *Board) {
	if c.OK(&b.ClockMaxMHz) && c.OK(&b.PublishedClockMHz) && b.ClockMaxMHz > 0 && b.PublishedClockMHz > b.ClockMaxMHz {
		c.Errorf(&b.PublishedClockMHz, "must not exceed %s = %s, got %s", c.Key(&b.ClockMaxMHz), fmtNum(b.ClockMaxMHz), fmtNum(b.PublishedClockMHz))
	}
	if c.OK(&b.PublishedClockMHz) && b.PublishedClockMHz > 0 && strings.TrimSpace(b.PublishedClockSource) == "" {
		c.Errorf(&b.PublishedClockSource, "must name the designs that closed at %s = %s", c.Key(&b.PublishedClockMHz), fmtNum(b.PublishedClockMHz))
	}
}

// oneOf checks a string field against its accepted values.
func oneOf(c *tomldoc.Checker, p *string, set []string) {
	if c.OK(p) && !slices.Contains(set, *p) {
		c.Errorf(p, "must be one of %s, got %q", quoteAll(set), *p)
	}
}

// validateNetwork checks what the topology asks for: a platform of
// several FPGAs needs its links, a direct network a link to every other
// FPGA, a hierarchical one its nodes, and the flat ones no node figures.
func validateNetwork(c *tomldoc.Checker, b *Board) {
	n := &b.Network
	if !c.OK(&b.Network) {
		return
	}
	oneOf(c, &n.Topology, Topologies)
	multi := b.MaxFPGAs > 1
	if multi {
		positive(c, &n.LinksPerFPGA)
		positive(c, &n.LinkGbits)
		positive(c, &n.InterfaceGiBs)
		c.Require(&n.LinkWordBits)
	}
	if c.OK(&n.LinkWordBits) && (n.LinkWordBits%8 != 0 || multi && n.LinkWordBits == 0) {
		c.Errorf(&n.LinkWordBits, "must be a positive multiple of 8, got %d", n.LinkWordBits)
	}
	if !slices.Contains(Topologies, n.Topology) {
		return // the checks below depend on the topology
	}
	if n.Topology == TopologyDirect && multi && n.LinksPerFPGA >= 1 && n.LinksPerFPGA < b.MaxFPGAs-1 {
		c.Errorf(&n.LinksPerFPGA, "a direct network needs a link to each of the other max_fpgas-1 = %d FPGAs, got %d", b.MaxFPGAs-1, n.LinksPerFPGA)
	}
	if n.Topology == TopologyHierarchical {
		fpn := n.FPGAsPerNode
		switch {
		case !c.Require(&n.FPGAsPerNode) || !c.OK(&n.FPGAsPerNode):
		case fpn < 2:
			c.Errorf(&n.FPGAsPerNode, "must be at least 2 for a hierarchical network, got %d", fpn)
		case b.MaxFPGAs%fpn != 0 || b.MaxFPGAs/fpn < 2:
			c.Errorf(&n.FPGAsPerNode, "must divide %s = %d into at least two nodes, got %d", c.Key(&b.MaxFPGAs), b.MaxFPGAs, fpn)
		}
		positive(c, &n.NodeLinkGbits)
		positive(c, &n.NodeInterfaceGiBs)
		return
	}
	if c.OK(&n.FPGAsPerNode) && c.Has(&n.FPGAsPerNode) && n.FPGAsPerNode != 1 {
		c.Errorf(&n.FPGAsPerNode, "must be 1 unless topology = %q, got %d", TopologyHierarchical, n.FPGAsPerNode)
	}
	for _, p := range []*float64{&n.NodeLinkGbits, &n.NodeInterfaceGiBs} {
		if c.OK(p) && *p != 0 {
			c.Errorf(p, "is only used by topology = %q; remove it or set 0, got %s", TopologyHierarchical, fmtNum(*p))
		}
	}
}

// positive requires a field that this board needs although others may
// leave it out, and a value above zero.
func positive[T int | float64](c *tomldoc.Checker, p *T) {
	if !c.Require(p) || !c.OK(p) || *p > 0 {
		return
	}
	switch v := any(*p).(type) {
	case int:
		c.Errorf(p, "must be a positive count (%s), got %d", c.Doc(p), v)
	case float64:
		c.Errorf(p, "must be positive (%s), got %s", c.Doc(p), fmtNum(v))
	}
}

// validatePE checks that the PEs fit the part and that every measured
// CPE belongs to a built-in kernel and is a cycle count a PE can have.
func validatePE(c *tomldoc.Checker, b *Board) {
	pe := &b.PE
	if !c.OK(&b.PE) {
		return
	}
	validateFit(c, b)
	kernels := samples.KernelNames()
	for _, k := range b.CPEKernels() {
		if !slices.Contains(kernels, k) {
			c.EntryErrorf(&pe.CPE, k, "no built-in kernel is called %q (built-in kernels: %s); a kernel of your own takes its cycles per edge from the platform's cpe (--cpe)",
				k, strings.Join(kernels, ", "))
			continue
		}
		if v := pe.CPE[k]; !(v >= 1 && v <= maxCPE) {
			c.EntryErrorf(&pe.CPE, k, "must be between 1 and %d cycles per edge (a PE takes at most one edge per cycle), got %s", maxCPE, fmtNum(v))
		}
	}
}

// validateFit checks that the PEs fit the part: a fixed max_per_fpga must
// fit every resource, and a derived one must be at least 1.
func validateFit(c *tomldoc.Checker, b *Board) {
	pe := &b.PE
	for _, r := range b.resources() {
		if !c.Valid(r.havePtr) || !c.Valid(r.perPtr) || r.have < 1 || r.per < 0 {
			return // reported already
		}
	}
	if !c.Valid(&pe.MaxPerFPGA) {
		return
	}
	if pe.MaxPerFPGA > 0 {
		for _, r := range b.resources() {
			if need := int64(pe.MaxPerFPGA) * int64(r.per); need > int64(r.have) {
				c.Errorf(&pe.MaxPerFPGA, "%d PEs need %d %s, the part has %d", pe.MaxPerFPGA, need, r.name, r.have)
			}
		}
		return
	}
	for _, r := range b.resources() {
		if r.per > r.have {
			c.Errorf(r.perPtr, "one PE needs %d %s, the part has %d", r.per, r.name, r.have)
		}
	}
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func trimDoc(s string) string { return strings.TrimSpace(s) }
