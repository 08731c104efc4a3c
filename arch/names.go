package arch

import (
	"fmt"
	"strings"
)

// Arch names the architecture: how updates travel and where edge lists
// live.
type Arch string

// Architectures.
const (
	// GraVFM broadcasts updates; every PE stores, for every vertex of the
	// graph, the out-edges that lead to its own vertices and scatters them
	// locally.
	GraVFM Arch = "gravf-m"
	// GraVF stores full edge lists at the owner and sends unicast messages.
	GraVF Arch = "gravf"
)

// ParseArch parses a CLI or notebook value ("" is GraVF-M).
func ParseArch(s string) (Arch, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "gravf-m", "gravfm", "m":
		return GraVFM, nil
	case "gravf":
		return GraVF, nil
	}
	return "", fmt.Errorf("unknown architecture %q (valid: gravf-m, gravf)", s)
}

// UnmarshalText reads a notebook, JSON or flag value with ParseArch, so
// that every front end checks it once, where it reads it.
func (a *Arch) UnmarshalText(b []byte) error {
	v, err := ParseArch(string(b))
	if err == nil {
		*a = v
	}
	return err
}

// MemKind says where the edge lists live.
type MemKind string

// Edge storage kinds.
const (
	OffChip MemKind = "offchip"
	BRAM    MemKind = "bram"
)

// ParseMemKind parses a CLI or notebook value ("" is off-chip).
func ParseMemKind(s string) (MemKind, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "offchip", "off-chip", "dram", "hmc", "ddr", "hbm":
		return OffChip, nil
	case "bram", "onchip", "on-chip":
		return BRAM, nil
	}
	return "", fmt.Errorf("unknown memory kind %q (valid: offchip, bram)", s)
}

// UnmarshalText reads a notebook, JSON or flag value with ParseMemKind, so
// that every front end checks it once, where it reads it.
func (m *MemKind) UnmarshalText(b []byte) error {
	v, err := ParseMemKind(string(b))
	if err == nil {
		*m = v
	}
	return err
}

// PEDesign names a processing element's micro-architecture, which sets its
// cycles per edge.
type PEDesign string

const (
	// PEGenerated is the PE the RTL generator builds (the default). Its
	// scatter unit looks up the next update's edge list while it walks the
	// current one, so lists follow each other without a gap (block-RAM
	// edges), and it counts barrier markers as they arrive. Its hazard
	// detector compares local indices exactly and bypasses the gather
	// kernel's result to its input, so it scatters one edge per cycle (the
	// RTL measures 1.02 to 1.08 with the apply sweeps). With hand-written
	// kernels, whose latency the generator does not know, its detector is
	// the paper's (see Hazard).
	PEGenerated PEDesign = "generated"
	// PEPaper is the PE of the published design and the original code
	// base, on which the boards' measured cycles per edge (the paper's
	// 1.05, 1.10 and 1.42 on the AC-510) were taken: one lookup cycle at
	// the start of every edge list (block-RAM edges), barrier markers
	// counted only when the scatter unit is idle, and the aliased hazard
	// detector without a bypass.
	PEPaper PEDesign = "paper"
)

// ParsePEDesign reads a PE design name ("" is the generated PE).
func ParsePEDesign(s string) (PEDesign, error) {
	switch PEDesign(strings.ToLower(strings.TrimSpace(s))) {
	case "", PEGenerated:
		return PEGenerated, nil
	case PEPaper:
		return PEPaper, nil
	}
	return "", fmt.Errorf("unknown PE design %q (want generated or paper)", s)
}

// UnmarshalText reads a notebook, JSON or flag value with ParsePEDesign, so
// that every front end checks it once, where it reads it.
func (d *PEDesign) UnmarshalText(b []byte) error {
	v, err := ParsePEDesign(string(b))
	if err == nil {
		*d = v
	}
	return err
}
