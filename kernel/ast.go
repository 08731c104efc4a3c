package kernel

import "fmt"

// Op is the operation of an expression node. The same node type serves the
// parser (untyped, names unresolved) and the checker (typed, resolved), so
// that the interpreter, the closure compiler and the Verilog generator all
// walk one tree.
type Op uint8

// Expression operations.
const (
	OpInvalid Op = iota
	OpConst      // literal or folded constant: Const holds the value bits (f32 as IEEE bits)
	OpIdent      // parser only: a name, possibly dotted ("state.label")
	OpCall       // parser only: Name(Args...)
	OpRef        // checker: an input (Ref, Index)
	OpNeg        // -x
	OpNot        // !x: 1 when x is zero
	OpBitNot     // ^x bitwise (written ~x)
	OpAdd
	OpSub
	OpMul
	OpDiv
	OpRem
	OpShl
	OpShr
	OpAnd // bitwise &
	OpOr  // bitwise |
	OpXor // bitwise ^
	OpLAnd
	OpLOr
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpCond // Args[0] ? Args[1] : Args[2]
	OpMin
	OpMax
	OpAbs
	OpCast   // convert Args[0] to Type
	OpSatAdd // satadd(a, b): unsigned addition that stops at all ones
)

var opNames = [...]string{
	OpInvalid: "invalid", OpConst: "const", OpIdent: "ident", OpCall: "call", OpRef: "ref",
	OpNeg: "-", OpNot: "!", OpBitNot: "~", OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/",
	OpRem: "%", OpShl: "<<", OpShr: ">>", OpAnd: "&", OpOr: "|", OpXor: "^", OpLAnd: "&&",
	OpLOr: "||", OpEq: "==", OpNe: "!=", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
	OpCond: "?:", OpMin: "min", OpMax: "max", OpAbs: "abs", OpCast: "cast", OpSatAdd: "satadd",
}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", o)
}

// Comparison reports whether o yields a 1-bit truth value from two operands.
func (o Op) Comparison() bool { return o >= OpEq && o <= OpGe }

// RefKind says where an OpRef reads its value from.
type RefKind uint8

// Inputs of the kernel programs.
const (
	RefState     RefKind = iota + 1 // state.<f>: the vertex state before the program ran
	RefMsg                          // msg.<f>: the received message (gather)
	RefUpdate                       // update.<f>: the update being scattered
	RefEdge                         // edge.<f>: the data of the edge being scattered
	RefLocal                        // a let binding
	RefID                           // id: this vertex (init, gather, apply)
	RefSender                       // sender: the vertex that issued the update
	RefNeighbor                     // neighbor: the destination of the edge (scatter)
	RefDegree                       // degree: out-degree of this vertex (init, apply) or of the sender (scatter)
	RefSuperstep                    // superstep: the current superstep
	RefGlobal                       // global.<f>: the reduction of the previous superstep's contributions (apply)
)

var refNames = [...]string{RefState: "state", RefMsg: "msg", RefUpdate: "update", RefEdge: "edge",
	RefLocal: "local", RefID: "id", RefSender: "sender", RefNeighbor: "neighbor", RefDegree: "degree",
	RefSuperstep: "superstep", RefGlobal: "global"}

func (r RefKind) String() string {
	if int(r) < len(refNames) && refNames[r] != "" {
		return refNames[r]
	}
	return fmt.Sprintf("RefKind(%d)", r)
}

// Node is one expression node.
type Node struct {
	Op    Op
	Type  Type    // set by the checker
	Args  []*Node // operands
	Const uint64  // OpConst value; f32 values are stored as their IEEE bits
	Ref   RefKind // OpRef input
	Index int     // OpRef field or local index
	Name  string  // OpIdent/OpCall/OpRef: the source name
	Pos   Pos
	// height is the parser's count of levels in the tree under the node,
	// for its depth limit.
	height int
}

// Stmt is one line of a program: an assignment, or a let binding.
type Stmt struct {
	Pos    Pos
	Let    bool   // a local binding
	Target string // field name, "update.<f>", "send", or the local's name
	Value  *Node
	// Set by the checker:
	Kind  TargetKind // what the target is
	Index int        // field index (state, update, message) or local index
}

// TargetKind says what a statement writes.
type TargetKind uint8

// Targets.
const (
	TargetLocal   TargetKind = iota + 1 // let binding
	TargetState                         // a vertex-state field (init, gather, apply)
	TargetUpdate                        // update.<f> (apply)
	TargetSend                          // send (apply)
	TargetMessage                       // a message field (scatter)
	TargetGlobal                        // global.<f>: this vertex's contribution (apply)
)

// Program is the parsed text of one of init, gather, apply and scatter.
type Program struct {
	Name  string // "init", "gather", "apply" or "scatter"
	Pos   Pos    // where the program text starts
	Stmts []Stmt
	Text  string // the source, for display
}
