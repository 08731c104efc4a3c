package kernel

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gravf-tui/gravf-tui/internal/tomldoc"
)

// Spec is a parsed and checked kernel spec: what kernel.toml says, before
// it is bound to a graph (which fixes vertexidsize) and to parameter values.
type Spec struct {
	Name string
	Doc  string
	// File is the spec's file name as given to the loader, used in errors.
	File string
	// Params are the kernel's parameters in file order.
	Params []Param
	// Layouts. Message equals Update when MessageIsUpdate.
	Vertex, Edge, Update, Message Layout
	MessageIsUpdate               bool
	// Global lists the global fields: values every vertex contributes to
	// in apply (global.<f> = ...), combined over all vertices by the
	// field's reduction, and read back in the next superstep's apply
	// (the PageRank of LDBC Graphalytics sums the rank of the dangling
	// vertices this way).
	Global Layout
	// Programs. Scatter is nil when the message is the update, copied.
	Init, Gather, Apply, Scatter *Program
	// Verilog holds hand-written kernel modules found beside the spec
	// (gather.v, apply.v, scatter.v), by file name.
	Verilog map[string]string
	// VerilogGatherLatency, when [verilog] gather_latency sets it, is the
	// hand-written gather.v's latency: the cycles from a message entering
	// it to its write-back (0: combinational). The generated PE keeps the
	// paper's hazard detector for hand-written kernels, which holds a
	// vertex until its write-back, so the detector's hold, and with it the
	// simulator's and the model's, follows this figure instead of the
	// spec's own gather latency (arch.KernelLatencies).
	VerilogGatherLatency *int
	verilogAt            Pos // where the spec sets it
	// PECost, when set, overrides the board's estimated cost of one PE for
	// this kernel (a kernel with wide f32 pipelines costs more than WCC).
	PECost *PECost
}

// PECost is the fabric one PE takes: LUTs, flip-flops, 36 Kb block RAMs
// and DSP slices.
type PECost struct {
	LUT    int `toml:"lut" json:"lut"`
	FF     int `toml:"ff" json:"ff"`
	BRAM36 int `toml:"bram36" json:"bram36"`
	DSP    int `toml:"dsp" json:"dsp"`
}

type rawParam struct {
	Type    string `toml:"type"`
	Default any    `toml:"default"`
	Doc     string `toml:"doc"`
}

type rawSpec struct {
	Name   string `toml:"name"`
	Doc    string `toml:"doc"`
	Layout struct {
		Vertex  []any `toml:"vertex"`
		Edge    []any `toml:"edge"`
		Update  []any `toml:"update"`
		Message any   `toml:"message"`
		Global  []any `toml:"global"`
	} `toml:"layout"`
	Params  map[string]rawParam `toml:"params"`
	PE      *PECost             `toml:"pe"`
	Verilog struct {
		GatherLatency *int `toml:"gather_latency"`
	} `toml:"verilog"`
	Code struct {
		Init    string `toml:"init"`
		Gather  string `toml:"gather"`
		Apply   string `toml:"apply"`
		Scatter string `toml:"scatter"`
	} `toml:"code"`
}

// MaxVerilogLatency bounds a hand-written kernel's declared latency.
const MaxVerilogLatency = 64

// LoadDir loads the kernel in folder dir of fsys: dir/kernel.toml and any
// hand-written dir/{gather,apply,scatter}.v. Errors name the file, line and
// column.
func LoadDir(fsys fs.FS, dir string) (*Spec, error) {
	return loadFile(fsys, dir, "kernel.toml")
}

// loadFile loads the kernel whose spec is dir/name, with the hand-written
// Verilog beside it.
func loadFile(fsys fs.FS, dir, name string) (*Spec, error) {
	file := path.Join(dir, name)
	data, err := tomldoc.ReadFS(fsys, file, specLimits)
	if err != nil {
		return nil, fromTOML(err)
	}
	s, err := Parse(file, data)
	if err != nil {
		return nil, err
	}
	for _, v := range []string{"gather.v", "apply.v", "scatter.v"} {
		b, err := fs.ReadFile(fsys, path.Join(dir, v))
		if err == nil {
			if s.Verilog == nil {
				s.Verilog = map[string]string{}
			}
			s.Verilog[v] = string(b)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	if s.VerilogGatherLatency != nil && len(s.Verilog) != 3 {
		return nil, ErrorList{errorAt(s.verilogAt, "verilog.gather_latency is set, but gather.v, apply.v and scatter.v are not all beside the spec")}
	}
	return s, nil
}

// Load loads a kernel from a folder, or from the path of its spec file
// (kernel.toml or any other name, so that variants can sit side by side),
// on disk.
func Load(p string) (*Spec, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		s, err := LoadDir(os.DirFS(p), ".")
		if err != nil {
			return nil, relabel(err, filepath.Join(p, "kernel.toml"))
		}
		return s, nil
	}
	s, err := loadFile(os.DirFS(filepath.Dir(p)), ".", filepath.Base(p))
	if err != nil {
		return nil, relabel(err, p)
	}
	return s, nil
}

// relabel replaces the file name in positioned errors by the user's path.
func relabel(err error, file string) error {
	var l ErrorList
	if errors.As(err, &l) {
		for _, e := range l {
			e.File = file
		}
		return l
	}
	return err
}

// specLimits bound a kernel.toml: a real one is a few KB.
var specLimits = tomldoc.Limits{MaxBytes: 1 << 20, MaxDepth: 16}

// Parse parses and checks kernel.toml content. file names the file in
// errors. The work is linear in the size of the content, which may be at
// most 1 MiB; expressions nest at most MaxExprDepth levels.
func Parse(file string, data []byte) (*Spec, error) {
	doc, err := tomldoc.Parse(file, data, specLimits)
	if err != nil {
		return nil, fromTOML(err)
	}
	var raw rawSpec
	if _, errs := doc.Decode(doc.Root, &raw, tomldoc.DecodeOptions{}); len(errs) > 0 {
		return nil, fromTOML(errs)
	}
	sp := &specParser{file: file, doc: doc, raw: &raw}
	s := sp.spec()
	if len(sp.errs) > 0 {
		return nil, sp.errs
	}
	// Check against the widest id so that errors show at load time; Bind
	// checks again with the graph's real width.
	if _, err := s.check(nil, 32, nil); err != nil {
		return nil, err
	}
	return s, nil
}

// specParser turns the decoded file into a Spec, collecting located
// errors.
type specParser struct {
	file string
	doc  *tomldoc.Document
	raw  *rawSpec
	errs ErrorList
}

// at returns where a key is: a table's key, a value's first character.
func (sp *specParser) at(keys ...string) Pos {
	n := sp.doc.Root.Lookup(keys...)
	return sp.pos(n)
}

func (sp *specParser) pos(n *tomldoc.Node) Pos {
	switch {
	case n == nil:
		return Pos{File: sp.file}
	case n.Kind == tomldoc.Table:
		return Pos{File: sp.file, Line: n.Pos.Line, Col: n.Pos.Col}
	}
	return Pos{File: sp.file, Line: n.ValuePos.Line, Col: n.ValuePos.Col}
}

func (sp *specParser) add(p Pos, format string, args ...any) {
	sp.errs = append(sp.errs, errorAt(p, sprintf(format, args...)))
}

func (sp *specParser) spec() *Spec {
	raw := sp.raw
	s := &Spec{Name: raw.Name, Doc: strings.TrimSpace(raw.Doc), File: sp.file, PECost: raw.PE}
	if c := s.PECost; c != nil && (c.LUT < 0 || c.FF < 0 || c.BRAM36 < 0 || c.DSP < 0 || c.LUT+c.FF == 0) {
		sp.add(sp.at("pe"), "pe: costs must not be negative, and lut or ff must be set")
	}
	if l := raw.Verilog.GatherLatency; l != nil {
		s.VerilogGatherLatency, s.verilogAt = l, sp.at("verilog", "gather_latency")
		if *l < 0 || *l > MaxVerilogLatency {
			sp.add(s.verilogAt, "verilog.gather_latency = %d: the hand-written gather's latency must be 0 to %d cycles", *l, MaxVerilogLatency)
		}
	}
	if s.Name == "" {
		sp.add(Pos{File: sp.file, Line: 1, Col: 1}, "missing name = \"...\"")
	} else if !validKernelName(s.Name) {
		sp.add(sp.at("name"), "kernel name %q must be an identifier, with '-' allowed between words (like sssp-f32)", s.Name)
	}
	s.Params = sp.params()
	widthParams := map[string]bool{}
	for _, p := range s.Params {
		if p.Kind == ParamWidth {
			widthParams[p.Name] = true
		}
	}
	s.Vertex = sp.layout("vertex", raw.Layout.Vertex, false, widthParams)
	s.Edge = sp.layout("edge", raw.Layout.Edge, true, widthParams)
	s.Update = sp.layout("update", raw.Layout.Update, true, widthParams)
	switch m := raw.Layout.Message.(type) {
	case nil:
		s.MessageIsUpdate = true
	case string:
		if m != "update" {
			sp.add(sp.at("layout", "message"), "layout.message must be a field list or \"update\"")
		}
		s.MessageIsUpdate = true
	case []any:
		s.Message = sp.layout("message", m, true, widthParams)
	default:
		sp.add(sp.at("layout", "message"), "layout.message must be a field list or \"update\"")
	}
	if s.MessageIsUpdate {
		s.Message = s.Update
	}
	s.Global = sp.layout("global", raw.Layout.Global, true, widthParams)
	s.Init = sp.program("init", raw.Code.Init, s)
	s.Gather = sp.program("gather", raw.Code.Gather, s)
	s.Apply = sp.program("apply", raw.Code.Apply, s)
	s.Scatter = sp.program("scatter", raw.Code.Scatter, s)
	return s
}

// params reads the parameters in file order.
func (sp *specParser) params() []Param {
	var out []Param
	for _, n := range sp.doc.Root.Get("params").Entries() {
		name := n.Key
		rp := sp.raw.Params[name]
		p := Param{Name: name, Kind: ParamKind(rp.Type), Doc: rp.Doc, Pos: sp.pos(n)}
		if !validName(name) || reserved[name] {
			sp.add(p.Pos, "parameter name %q is reserved or not an identifier", name)
		}
		switch p.Kind {
		case ParamVertex, ParamUint, ParamF32, ParamWidth:
		default:
			sp.add(p.Pos, "parameter %s: type %q is not one of vertex, uint, f32, width", name, rp.Type)
			continue
		}
		switch d := rp.Default.(type) {
		case nil:
			sp.add(p.Pos, "parameter %s: missing default", name)
			continue
		case int64:
			p.Default = strconv.FormatInt(d, 10)
		case float64:
			p.Default = strconv.FormatFloat(d, 'g', -1, 64)
		case string:
			p.Default = d
		default:
			sp.add(p.Pos, "parameter %s: default must be a number", name)
			continue
		}
		if _, err := p.parse(p.Default, nil); err != nil {
			sp.add(p.Pos, "parameter %s: default %s", name, err)
		}
		out = append(out, p)
	}
	return out
}

// layout reads one layout's [name, width] (or [name, width, "none"])
// entries; the globals' entries are [name, width, reduction].
func (sp *specParser) layout(key string, v []any, emptyOK bool, widthParams map[string]bool) Layout {
	attr, attrs := "none", "\"none\""
	if key == "global" {
		attr, attrs = "reduce", "a reduction (\"sum\", \"min\" or \"max\")"
	}
	var l Layout
	base := sp.at("layout", key)
	list := sp.doc.Root.Lookup("layout", key)
	for i, e := range v {
		arr, ok := e.([]any)
		ep := base
		if n := list.Elem(i); n != nil {
			ep = sp.pos(n)
		}
		if !ok || len(arr) < 2 || len(arr) > 3 || (attr == "reduce" && len(arr) != 3) {
			if attr == "reduce" {
				sp.add(ep, "layout.global: entry %d must be [\"name\", width, reduction] with a reduction \"sum\", \"min\" or \"max\"", i+1)
			} else {
				sp.add(ep, "layout.%s: entry %d must be [\"name\", width] or [\"name\", width, \"none\"]", key, i+1)
			}
			continue
		}
		name, ok := arr[0].(string)
		if !ok || !validName(name) {
			sp.add(ep, "layout.%s: field name %v is not an identifier", key, arr[0])
			continue
		}
		f := Field{Name: name, Pos: ep}
		switch w := arr[1].(type) {
		case int64:
			if w < 1 || w > 64 {
				sp.add(ep, "layout.%s: field %s: width %d is not in 1..64", key, name, w)
				continue
			}
			f.Width = strconv.FormatInt(w, 10)
		case string:
			if w != "vertexidsize" && w != "floatsize" && w != "f32" && !widthParams[w] {
				sp.add(ep, "layout.%s: field %s: width %q is not a number, vertexidsize, floatsize or a width parameter", key, name, w)
				continue
			}
			f.Width = w
		default:
			sp.add(ep, "layout.%s: field %s: width must be a number or a symbol", key, name)
			continue
		}
		if len(arr) == 3 {
			a, _ := arr[2].(string)
			switch {
			case attr == "none" && a == "none":
				f.None = true
			case attr == "reduce" && (a == "sum" || a == "min" || a == "max"):
				f.Reduce = a
			default:
				sp.add(ep, "layout.%s: field %s: the third element must be %s", key, name, attrs)
				continue
			}
		}
		if l.Index(name) >= 0 {
			sp.add(ep, "layout.%s: field %s declared twice", key, name)
			continue
		}
		l = append(l, f)
	}
	if len(l) == 0 && !emptyOK && len(v) == 0 {
		sp.add(base, "layout.%s must declare at least one field", key)
	}
	return l
}

// program parses one of the programs, with positions in the file.
func (sp *specParser) program(name, text string, s *Spec) *Program {
	n := sp.doc.Root.Lookup("code", name)
	if n == nil {
		if name == "scatter" && s.MessageIsUpdate {
			return nil
		}
		sp.add(sp.at("code"), "missing code.%s", name)
		return nil
	}
	src := source{file: sp.file, line: n.ContentPos.Line, col: n.ContentPos.Col - 1}
	pr, perrs := parseProgram(name, text, src)
	sp.errs = append(sp.errs, perrs...)
	return pr
}

var reserved = map[string]bool{"id": true, "degree": true, "superstep": true, "sender": true,
	"neighbor": true, "nvertices": true, "none": true, "state": true, "msg": true, "update": true,
	"edge": true, "send": true, "let": true, "min": true, "max": true, "abs": true, "f32": true, "vid": true,
	"satadd": true, "inf": true, "global": true}

func validName(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// validKernelName accepts identifiers and words joined by single hyphens
// (pr-graphalytics), which Ident turns into identifiers.
func validKernelName(s string) bool {
	for _, w := range strings.Split(s, "-") {
		if !validName(w) {
			return false
		}
	}
	return true
}

// Ident returns the kernel's name as an identifier, for the names of
// generated modules and files: '-' becomes '_'.
func (s *Spec) Ident() string { return strings.ReplaceAll(s.Name, "-", "_") }

// fromTOML returns the errors of the TOML layer, which are the kernel's.
func fromTOML(err error) error { return err }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
