package kernel

import (
	"fmt"
	"math"
)

// Type is the type of a value: an unsigned integer of Width bits (1..64) or
// f32. VID marks integers that hold vertex ids, so that reports print them
// as the input's labels and the "none" sentinel as '-'.
type Type struct {
	Float bool
	Width int
	VID   bool
	// untyped marks constants whose width comes from their context:
	// 1 for integer literals, 2 for none.
	untyped uint8
}

// F32 is the IEEE-754 binary32 type.
var F32 = Type{Float: true, Width: 32}

var (
	untypedInt  = Type{untyped: 1}
	untypedNone = Type{untyped: 2}
	// untypedMixed is a conditional choosing between an integer constant
	// and none; it takes its type from its context.
	untypedMixed = Type{untyped: 3}
	boolType     = Type{Width: 1}
)

// Uint returns the unsigned integer type of w bits.
func Uint(w int) Type { return Type{Width: w} }

// String prints the type as the language spells it.
func (t Type) String() string {
	switch {
	case t.untyped == 1:
		return "untyped integer"
	case t.untyped == 2:
		return "none"
	case t.untyped == 3:
		return "untyped constant"
	case t.Float:
		return "f32"
	case t.VID:
		return fmt.Sprintf("vid(u%d)", t.Width)
	}
	return fmt.Sprintf("u%d", t.Width)
}

// Mask returns the bit mask of an integer type.
func (t Type) Mask() uint64 {
	if t.Width >= 64 {
		return math.MaxUint64
	}
	return 1<<uint(t.Width) - 1
}

// Field is one (name, width) entry of a layout.
type Field struct {
	Name string
	// Width is the width as written: a number, "vertexidsize", "floatsize"
	// (or "f32"), or the name of a width parameter.
	Width string
	// None marks an integer field whose all-ones value means "no value"
	// (reported as '-'), like an unreachable SSSP distance. Vertex-id
	// fields always have this meaning.
	None bool
	// Reduce is the reduction of a global field ("sum", "min" or "max"):
	// how the contributions of every vertex combine into one value.
	Reduce string
	Pos    Pos
}

// Layout is an ordered list of fields; order is bit order on the wire and
// in memory (first field in the most significant bits).
type Layout []Field

// Index returns the index of the named field, or -1.
func (l Layout) Index(name string) int {
	for i, f := range l {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// ParamKind is the kind of a kernel parameter.
type ParamKind string

// Parameter kinds.
const (
	ParamVertex ParamKind = "vertex" // a vertex, given by its label in the input file
	ParamUint   ParamKind = "uint"   // an unsigned 32-bit integer
	ParamF32    ParamKind = "f32"    // a float
	ParamWidth  ParamKind = "width"  // a field width in bits (1..64) usable in layouts
)

// Param is a kernel parameter: a constant of the kernel that a user may set
// per run (the BFS root, the PageRank damping).
type Param struct {
	Name    string
	Kind    ParamKind
	Default string // textual default, parsed like a user override
	Doc     string
	Pos     Pos
}

// Sizes are the bit sizes the performance model needs. Update and message
// sizes are payloads only; the model adds the sender id and any header on
// the wire.
type Sizes struct {
	VertexIDBits int `json:"vertexidsize"`
	Vertex       int `json:"m_vertex"`
	Update       int `json:"m_update_payload"`
	Message      int `json:"m_message_payload"`
	EdgeData     int `json:"edge_data"`
	// Edge is one stored edge: the neighbour id plus the edge data.
	Edge int `json:"m_edge"`
}

// VertexIDBits returns the vertex id width for a graph of v vertices: wide
// enough that the all-ones "none" sentinel is never a real vertex.
func VertexIDBits(v int) int { return BitsFor(uint64(v)) }
