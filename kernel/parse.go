package kernel

import (
	"math"
	"strconv"
	"strings"
)

// Limits of one program. They keep a hostile kernel.toml (a megabyte of
// unary minus, a million nested parentheses) from overflowing the stack of
// the parser, the checker, the compiler or the Verilog generator, all of
// which walk expressions recursively: past them, the parser reports a
// located error. No real kernel comes near them.
const (
	// MaxExprDepth bounds how deep operators, parentheses, calls and
	// conditionals nest in one expression.
	MaxExprDepth = 256
	// MaxProgramNodes bounds the operators and operands of one program.
	MaxProgramNodes = 10000
	// MaxProgramTokens bounds what the lexer reads of one program, so that
	// a program far over the other limits costs no more than one at them.
	MaxProgramTokens = 8 * MaxProgramNodes
)

type parser struct {
	toks []token
	i    int
	errs ErrorList
	// depth is the parser's current recursion; nodes counts the nodes
	// built so far.
	depth, nodes int
	// stop ends the program after a limit was reached.
	stop bool
}

// parseProgram parses the text of one program. src says where the text
// starts in its file so that every error points at the right line and column.
func parseProgram(name, text string, src source) (*Program, ErrorList) {
	p := &parser{toks: lex(text, src)}
	prog := &Program{Name: name, Pos: src.at(0, 0), Text: text}
	if len(p.toks) > MaxProgramTokens {
		p.errorf(p.toks[MaxProgramTokens].pos, "the program has more than %d tokens", MaxProgramTokens)
		return prog, p.errs
	}
	for p.peek().kind != tEOF {
		if p.peek().kind == tNewline {
			p.i++
			continue
		}
		st, ok := p.stmt()
		if ok {
			prog.Stmts = append(prog.Stmts, st)
		}
		// Resynchronise at the end of the line after an error.
		if t := p.peek(); t.kind != tNewline && t.kind != tEOF {
			if ok {
				p.errorf(t.pos, "unexpected %s after the expression", t)
			}
			for p.peek().kind != tNewline && p.peek().kind != tEOF {
				p.i++
			}
		}
		if len(p.errs) > 20 || p.stop {
			break
		}
	}
	return prog, p.errs
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) errorf(pos Pos, format string, args ...any) {
	p.errs = append(p.errs, errorAt(pos, sprintf(format, args...)))
}

// enter counts one level of recursion and says whether the parser may
// go deeper; leave undoes it.
func (p *parser) enter(pos Pos) bool {
	p.depth++
	if p.depth > MaxExprDepth {
		p.errorf(pos, "expression nested more than %d levels deep (operators, parentheses, calls)", MaxExprDepth)
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// node checks a new node against the limits: the height of its tree
// (a left-deep chain a+a+...+a grows without recursion in the parser but
// with it in every later walk) and the size of the program.
func (p *parser) node(n *Node) *Node {
	h := 1
	for _, a := range n.Args {
		h = max(h, a.height+1)
	}
	n.height = h
	p.nodes++
	switch {
	case p.nodes > MaxProgramNodes:
		p.errorf(n.Pos, "the program has more than %d operators and operands", MaxProgramNodes)
		p.stop = true
		return nil
	case h > MaxExprDepth:
		p.errorf(n.Pos, "expression nested more than %d levels deep (operators, parentheses, calls)", MaxExprDepth)
		return nil
	}
	return n
}

func (p *parser) isOp(s string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == s
}

func (p *parser) expectOp(s string) bool {
	if p.isOp(s) {
		p.i++
		return true
	}
	t := p.peek()
	p.errorf(t.pos, "expected %q, found %s", s, t)
	return false
}

func (p *parser) stmt() (Stmt, bool) {
	t := p.peek()
	st := Stmt{Pos: t.pos}
	if t.kind == tIdent && t.text == "let" {
		p.i++
		name := p.next()
		if name.kind != tIdent {
			p.errorf(name.pos, "expected a name after let, found %s", name)
			return st, false
		}
		st.Let, st.Target = true, name.text
	} else {
		name, ok := p.dotted()
		if !ok {
			return st, false
		}
		st.Target = name
	}
	if !p.expectOp("=") {
		return st, false
	}
	if p.peek().kind == tNewline || p.peek().kind == tEOF {
		p.errorf(p.peek().pos, "missing expression after '='")
		return st, false
	}
	e := p.expr()
	if e == nil {
		return st, false
	}
	st.Value = e
	return st, true
}

// dotted parses name or name.field.
func (p *parser) dotted() (string, bool) {
	t := p.next()
	if t.kind != tIdent {
		p.errorf(t.pos, "expected a field name, found %s", t)
		return "", false
	}
	return p.field(t.text)
}

// field continues a name with an optional ".field".
func (p *parser) field(name string) (string, bool) {
	if p.isOp(".") {
		p.i++
		f := p.next()
		if f.kind != tIdent {
			p.errorf(f.pos, "expected a field name after %q, found %s", name+".", f)
			return "", false
		}
		name += "." + f.text
	}
	return name, true
}

func (p *parser) expr() *Node {
	if !p.enter(p.peek().pos) {
		return nil
	}
	defer p.leave()
	c := p.binary(1)
	if c == nil || !p.isOp("?") {
		return c
	}
	pos := p.next().pos
	a := p.expr()
	if a == nil || !p.expectOp(":") {
		return nil
	}
	b := p.expr()
	if b == nil {
		return nil
	}
	return p.node(&Node{Op: OpCond, Args: []*Node{c, a, b}, Pos: pos})
}

// Binary operators by precedence, as in Go.
var binOps = map[string]struct {
	prec int
	op   Op
}{
	"||": {1, OpLOr}, "&&": {2, OpLAnd},
	"==": {3, OpEq}, "!=": {3, OpNe}, "<": {3, OpLt}, "<=": {3, OpLe}, ">": {3, OpGt}, ">=": {3, OpGe},
	"+": {4, OpAdd}, "-": {4, OpSub}, "|": {4, OpOr}, "^": {4, OpXor},
	"*": {5, OpMul}, "/": {5, OpDiv}, "%": {5, OpRem}, "<<": {5, OpShl}, ">>": {5, OpShr}, "&": {5, OpAnd},
}

func (p *parser) binary(prec int) *Node {
	x := p.unary()
	if x == nil {
		return nil
	}
	for {
		t := p.peek()
		if t.kind != tOp {
			return x
		}
		b, ok := binOps[t.text]
		if !ok || b.prec < prec {
			return x
		}
		p.i++
		y := p.binary(b.prec + 1)
		if y == nil {
			return nil
		}
		if x = p.node(&Node{Op: b.op, Args: []*Node{x, y}, Pos: t.pos}); x == nil {
			return nil
		}
	}
}

func (p *parser) unary() *Node {
	t := p.peek()
	if !p.enter(t.pos) {
		return nil
	}
	defer p.leave()
	if t.kind == tOp {
		var op Op
		switch t.text {
		case "-":
			op = OpNeg
		case "!":
			op = OpNot
		case "~":
			op = OpBitNot
		case "+":
			p.i++
			return p.unary()
		}
		if op != OpInvalid {
			p.i++
			x := p.unary()
			if x == nil {
				return nil
			}
			return p.node(&Node{Op: op, Args: []*Node{x}, Pos: t.pos})
		}
	}
	return p.primary()
}

func (p *parser) primary() *Node {
	t := p.next()
	switch t.kind {
	case tInt:
		v, err := parseUint(t.text)
		if err != nil {
			p.errorf(t.pos, "bad integer literal %q: %s", t.text, err)
			return nil
		}
		return p.node(&Node{Op: OpConst, Const: v, Type: untypedInt, Pos: t.pos, Name: t.text})
	case tFloat:
		f, err := strconv.ParseFloat(t.text, 32)
		if err != nil || math.IsInf(f, 0) {
			p.errorf(t.pos, "bad f32 literal %q", t.text)
			return nil
		}
		return p.node(&Node{Op: OpConst, Const: uint64(math.Float32bits(float32(f))), Type: F32, Pos: t.pos, Name: t.text})
	case tIdent:
		if p.isOp("(") {
			p.i++
			call := &Node{Op: OpCall, Name: t.text, Pos: t.pos}
			if !p.isOp(")") {
				for {
					a := p.expr()
					if a == nil {
						return nil
					}
					call.Args = append(call.Args, a)
					if !p.isOp(",") {
						break
					}
					p.i++
				}
			}
			if !p.expectOp(")") {
				return nil
			}
			return p.node(call)
		}
		name, ok := p.field(t.text)
		if !ok {
			return nil
		}
		return p.node(&Node{Op: OpIdent, Name: name, Pos: t.pos})
	case tOp:
		if t.text == "(" {
			e := p.expr()
			if e == nil || !p.expectOp(")") {
				return nil
			}
			return e
		}
	}
	if t.kind == tNewline || t.kind == tEOF {
		p.errorf(t.pos, "expression ends early")
	} else {
		p.errorf(t.pos, "unexpected %s in expression", t)
	}
	return nil
}

func parseUint(s string) (uint64, error) {
	s = strings.ReplaceAll(s, "_", "")
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok {
			return 0, ne.Err
		}
		return 0, err
	}
	return v, nil
}
