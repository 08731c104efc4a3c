package explorer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
)

// The axes a sweep can vary, in the order points are enumerated (the last
// axis varies fastest).
const (
	AxisBoard       = "board"
	AxisKernel      = "kernel"
	AxisDataset     = "dataset"
	AxisPartitioner = "partitioner"
	AxisArch        = "arch"
	AxisMem         = "mem"
	AxisPE          = "pe"
	AxisPacking     = "packing"
	AxisFilter      = "filter"
	AxisFPGAs       = "fpgas"
	AxisPEs         = "pes"
)

// Axes lists the sweep axes in enumeration order.
var Axes = []string{AxisBoard, AxisKernel, AxisDataset, AxisPartitioner, AxisArch, AxisMem, AxisPE, AxisPacking, AxisFilter, AxisFPGAs, AxisPEs}

// Grid is a parsed sweep specification: values per axis. Axes that are not
// in the grid take the value of the cells above the sweep.
type Grid struct {
	values map[string][]string
}

// ParseGrid reads a sweep specification such as
//
//	fpgas=1..8,pes=1..16,arch=gravf-m|gravf,dataset=rmat:scale=14,ef=16|power.graph
//
// Axes are separated by commas and alternatives by '|'; integer axes take
// ranges a..b. A comma followed by something that is not an axis name
// continues the previous value, so generator specs need no quoting.
func ParseGrid(s string) (Grid, error) {
	g := Grid{values: map[string][]string{}}
	if strings.TrimSpace(s) == "" {
		return g, fmt.Errorf("the grid is empty (want e.g. fpgas=1..8,pes=1..16)")
	}
	// Cut s before every segment that starts with an axis name; the
	// parts are slices of s, so that a long value costs no copying.
	var parts []string
	start, off := 0, 0
	for _, seg := range strings.Split(s, ",") {
		key, _, ok := strings.Cut(seg, "=")
		if off > 0 && ok && slices.Contains(Axes, strings.TrimSpace(key)) {
			parts = append(parts, s[start:off-1])
			start = off
		}
		off += len(seg) + 1
	}
	parts = append(parts, s[start:])
	for _, p := range parts {
		key, val, ok := strings.Cut(p, "=")
		key = strings.TrimSpace(key)
		if !ok || !slices.Contains(Axes, key) {
			return g, fmt.Errorf("grid: %q is not axis=values (axes: %s)", p, strings.Join(Axes, ", "))
		}
		if _, dup := g.values[key]; dup {
			return g, fmt.Errorf("grid: axis %s given twice", key)
		}
		vals, err := parseAxis(key, val)
		if err != nil {
			return g, err
		}
		g.values[key] = vals
	}
	if n := g.Size(); n > MaxGridPoints {
		return g, fmt.Errorf("grid: %d points; at most %d (split it with shards, or narrow an axis)", n, MaxGridPoints)
	}
	return g, nil
}

// MaxGridPoints bounds one sweep, so that a typo such as pes=1..100000
// fails at once instead of filling memory.
const MaxGridPoints = 1 << 20

func parseAxis(key, val string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, alt := range strings.Split(val, "|") {
		alt = strings.TrimSpace(alt)
		if alt == "" {
			return nil, fmt.Errorf("grid: %s has an empty value", key)
		}
		switch key {
		case AxisFPGAs, AxisPEs:
			lo, hi, isRange := strings.Cut(alt, "..")
			a, err := strconv.Atoi(strings.TrimSpace(lo))
			b := a
			if err == nil && isRange {
				b, err = strconv.Atoi(strings.TrimSpace(hi))
			}
			if err != nil || a < 1 || b < a {
				return nil, fmt.Errorf("grid: %s=%s: want positive integers or a range a..b with a <= b", key, alt)
			}
			if b-a >= 1<<16 {
				return nil, fmt.Errorf("grid: %s=%s: range too long", key, alt)
			}
			for v := a; v <= b; v++ {
				out = append(out, strconv.Itoa(v))
			}
			continue
		case AxisPacking, AxisFilter:
			b, err := strconv.ParseBool(alt)
			if err != nil {
				return nil, fmt.Errorf("grid: %s=%s: want true or false", key, alt)
			}
			alt = strconv.FormatBool(b)
		case AxisArch:
			a, err := model.ParseArch(alt)
			if err != nil {
				return nil, fmt.Errorf("grid: %w", err)
			}
			alt = string(a)
		case AxisMem:
			m, err := model.ParseMemKind(alt)
			if err != nil {
				return nil, fmt.Errorf("grid: %w", err)
			}
			alt = string(m)
		case AxisPE:
			d, err := model.ParsePEDesign(alt)
			if err != nil {
				return nil, fmt.Errorf("grid: %w", err)
			}
			alt = string(d)
		case AxisPartitioner:
			p, err := graph.ParsePartitioner(alt)
			if err != nil {
				return nil, fmt.Errorf("grid: %w", err)
			}
			alt = string(p)
		}
		if seen[alt] {
			return nil, fmt.Errorf("grid: %s lists %s twice", key, alt)
		}
		seen[alt] = true
		out = append(out, alt)
	}
	return out, nil
}

// Has reports whether the grid varies axis a.
func (g Grid) Has(a string) bool { _, ok := g.values[a]; return ok }

// Values returns the values of axis a (nil when the grid does not vary it).
func (g Grid) Values(a string) []string { return g.values[a] }

// Size is the number of points.
func (g Grid) Size() int {
	n := 1
	for _, v := range g.values {
		n *= len(v)
	}
	return n
}

// String writes the grid in canonical form (axes in enumeration order).
func (g Grid) String() string {
	var parts []string
	for _, a := range Axes {
		if v, ok := g.values[a]; ok {
			parts = append(parts, a+"="+joinValues(v))
		}
	}
	return strings.Join(parts, ",")
}

// joinValues writes values with '|', runs of consecutive integers as a..b.
func joinValues(v []string) string {
	var out []string
	for i := 0; i < len(v); {
		j := i
		a, err := strconv.Atoi(v[i])
		for err == nil && j+1 < len(v) {
			b, err2 := strconv.Atoi(v[j+1])
			if err2 != nil || b != a+(j+1-i) {
				break
			}
			j++
		}
		if j-i >= 2 {
			out = append(out, v[i]+".."+v[j])
		} else {
			out = append(out, v[i:j+1]...)
		}
		i = j + 1
	}
	return strings.Join(out, "|")
}

// coords returns point i's value index on every varied axis.
func (g Grid) coords(i int) map[string]string {
	out := map[string]string{}
	for j := len(Axes) - 1; j >= 0; j-- {
		v, ok := g.values[Axes[j]]
		if !ok {
			continue
		}
		out[Axes[j]] = v[i%len(v)]
		i /= len(v)
	}
	return out
}

// Shard selects a deterministic slice of a grid: point i belongs to shard
// i mod N. Index is 0-based, as Slurm array task ids and Kubernetes
// completion indexes are.
type Shard struct{ Index, Count int }

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{0, 1}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 0 <= i < n", s)
	}
	return Shard{i, n}, nil
}

// String writes "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Owns reports whether point i is in the shard.
func (s Shard) Owns(i int) bool { return s.Count <= 1 || i%s.Count == s.Index }
