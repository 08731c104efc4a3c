package kernel

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
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
	Params map[string]rawParam `toml:"params"`
	PE     *PECost             `toml:"pe"`
	Code   struct {
		Init    string `toml:"init"`
		Gather  string `toml:"gather"`
		Apply   string `toml:"apply"`
		Scatter string `toml:"scatter"`
	} `toml:"code"`
}

// LoadDir loads the kernel in folder dir of fsys: dir/kernel.toml and any
// hand-written dir/{gather,apply,scatter}.v. Errors name the file, line and
// column.
func LoadDir(fsys fs.FS, dir string) (*Spec, error) {
	file := path.Join(dir, "kernel.toml")
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, err
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
	return s, nil
}

// Load loads a kernel from a folder, or from a kernel.toml path, on disk.
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
	s, err := LoadDir(os.DirFS(filepath.Dir(p)), ".")
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
			e.Pos.File = file
		}
		return l
	}
	return err
}

// Parse parses and checks kernel.toml content. file names the file in
// errors.
func Parse(file string, data []byte) (*Spec, error) {
	var raw rawSpec
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, tomlError(file, err)
	}
	pos, err := valuePositions(file, data)
	if err != nil {
		return nil, err
	}
	s := &Spec{Name: raw.Name, Doc: strings.TrimSpace(raw.Doc), File: file, PECost: raw.PE}
	var errs ErrorList
	at := func(key string) Pos {
		if p, ok := pos[key]; ok {
			return p.Pos
		}
		return Pos{File: file}
	}
	add := func(p Pos, format string, args ...any) {
		errs = append(errs, &Error{Pos: p, Msg: sprintf(format, args...)})
	}
	if c := s.PECost; c != nil && (c.LUT < 0 || c.FF < 0 || c.BRAM36 < 0 || c.DSP < 0 || c.LUT+c.FF == 0) {
		add(at("pe"), "pe: costs must not be negative, and lut or ff must be set")
	}
	if s.Name == "" {
		add(Pos{File: file, Line: 1, Col: 1}, "missing name = \"...\"")
	} else if !validKernelName(s.Name) {
		add(at("name"), "kernel name %q must be an identifier, with '-' allowed between words (like sssp-f32)", s.Name)
	}

	// Parameters, in file order.
	names := make([]string, 0, len(raw.Params))
	for n := range raw.Params {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		pa, pb := at("params."+a), at("params."+b)
		if pa.Line != pb.Line {
			return pa.Line - pb.Line
		}
		return strings.Compare(a, b)
	})
	for _, n := range names {
		rp := raw.Params[n]
		p := Param{Name: n, Kind: ParamKind(rp.Type), Doc: rp.Doc, Pos: at("params." + n)}
		if !validName(n) || reserved[n] {
			add(p.Pos, "parameter name %q is reserved or not an identifier", n)
		}
		switch p.Kind {
		case ParamVertex, ParamUint, ParamF32, ParamWidth:
		default:
			add(p.Pos, "parameter %s: type %q is not one of vertex, uint, f32, width", n, rp.Type)
			continue
		}
		switch d := rp.Default.(type) {
		case nil:
			add(p.Pos, "parameter %s: missing default", n)
			continue
		case int64:
			p.Default = strconv.FormatInt(d, 10)
		case float64:
			p.Default = strconv.FormatFloat(d, 'g', -1, 64)
		case string:
			p.Default = d
		default:
			add(p.Pos, "parameter %s: default must be a number", n)
			continue
		}
		if _, err := p.parse(p.Default, nil); err != nil {
			add(p.Pos, "parameter %s: default %s", n, err)
		}
		s.Params = append(s.Params, p)
	}

	widthParams := map[string]bool{}
	for _, p := range s.Params {
		if p.Kind == ParamWidth {
			widthParams[p.Name] = true
		}
	}
	layout := func(key string, v []any, emptyOK bool) Layout {
		attr, attrs := "none", "\"none\""
		if key == "global" {
			attr, attrs = "reduce", "a reduction (\"sum\", \"min\" or \"max\")"
		}
		var l Layout
		base := at("layout." + key)
		for i, e := range v {
			arr, ok := e.([]any)
			ep := base
			if p, ok := pos[fmt.Sprintf("layout.%s[%d]", key, i)]; ok {
				ep = p.Pos
			}
			if !ok || len(arr) < 2 || len(arr) > 3 || (attr == "reduce" && len(arr) != 3) {
				if attr == "reduce" {
					add(ep, "layout.global: entry %d must be [\"name\", width, reduction] with a reduction \"sum\", \"min\" or \"max\"", i+1)
				} else {
					add(ep, "layout.%s: entry %d must be [\"name\", width] or [\"name\", width, \"none\"]", key, i+1)
				}
				continue
			}
			name, ok := arr[0].(string)
			if !ok || !validName(name) {
				add(ep, "layout.%s: field name %v is not an identifier", key, arr[0])
				continue
			}
			f := Field{Name: name, Pos: ep}
			switch w := arr[1].(type) {
			case int64:
				if w < 1 || w > 64 {
					add(ep, "layout.%s: field %s: width %d is not in 1..64", key, name, w)
					continue
				}
				f.Width = strconv.FormatInt(w, 10)
			case string:
				if w != "vertexidsize" && w != "floatsize" && w != "f32" && !widthParams[w] {
					add(ep, "layout.%s: field %s: width %q is not a number, vertexidsize, floatsize or a width parameter", key, name, w)
					continue
				}
				f.Width = w
			default:
				add(ep, "layout.%s: field %s: width must be a number or a symbol", key, name)
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
					add(ep, "layout.%s: field %s: the third element must be %s", key, name, attrs)
					continue
				}
			}
			if l.Index(name) >= 0 {
				add(ep, "layout.%s: field %s declared twice", key, name)
				continue
			}
			l = append(l, f)
		}
		if len(l) == 0 && !emptyOK && len(v) == 0 {
			add(base, "layout.%s must declare at least one field", key)
		}
		return l
	}
	s.Vertex = layout("vertex", raw.Layout.Vertex, false)
	s.Edge = layout("edge", raw.Layout.Edge, true)
	s.Update = layout("update", raw.Layout.Update, true)
	switch m := raw.Layout.Message.(type) {
	case nil:
		s.MessageIsUpdate = true
	case string:
		if m != "update" {
			add(at("layout.message"), "layout.message must be a field list or \"update\"")
		}
		s.MessageIsUpdate = true
	case []any:
		s.Message = layout("message", m, true)
	default:
		add(at("layout.message"), "layout.message must be a field list or \"update\"")
	}
	if s.MessageIsUpdate {
		s.Message = s.Update
	}
	s.Global = layout("global", raw.Layout.Global, true)

	prog := func(name, text string) *Program {
		p, ok := pos["code."+name]
		if !ok {
			if name == "scatter" && s.MessageIsUpdate {
				return nil
			}
			add(at("code"), "missing code.%s", name)
			return nil
		}
		pr, perrs := parseProgram(name, text, p.src)
		errs = append(errs, perrs...)
		return pr
	}
	s.Init = prog("init", raw.Code.Init)
	s.Gather = prog("gather", raw.Code.Gather)
	s.Apply = prog("apply", raw.Code.Apply)
	s.Scatter = prog("scatter", raw.Code.Scatter)
	if len(errs) > 0 {
		return nil, errs
	}
	// Check against the widest id so that errors show at load time; Bind
	// checks again with the graph's real width.
	if _, err := s.check(nil, 32, nil); err != nil {
		return nil, err
	}
	return s, nil
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

// tomlError turns a go-toml error into a positioned error.
func tomlError(file string, err error) error {
	var se *toml.StrictMissingError
	if errors.As(err, &se) && len(se.Errors) > 0 {
		var l ErrorList
		for _, e := range se.Errors {
			row, col := e.Position()
			l = append(l, &Error{Pos: Pos{File: file, Line: row, Col: col}, Msg: "unknown key " + strings.Join(e.Key(), ".")})
		}
		return l
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return ErrorList{{Pos: Pos{File: file, Line: row, Col: col}, Msg: de.Error()}}
	}
	return ErrorList{{Pos: Pos{File: file}, Msg: err.Error()}}
}

type valuePos struct {
	Pos        // where the value starts
	src source // where a string's content starts
}

// valuePositions maps dotted keys ("code.apply", "layout.vertex[1]") to the
// position of their values, so that errors in embedded programs and layouts
// point into the file.
func valuePositions(file string, data []byte) (map[string]valuePos, error) {
	out := map[string]valuePos{}
	lineStarts := []int{0}
	for i, c := range data {
		if c == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	lc := func(off int) (int, int) {
		i, found := slices.BinarySearch(lineStarts, off)
		if !found {
			i--
		}
		return i + 1, off - lineStarts[i] + 1
	}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	keyOf := func(it unstable.Iterator) []string {
		var k []string
		for it.Next() {
			k = append(k, string(it.Node().Data))
		}
		return k
	}
	var visit func(prefix string, n *unstable.Node)
	visit = func(prefix string, n *unstable.Node) {
		off := int(n.Raw.Offset)
		if n.Kind == unstable.String && n.Raw.Length > 0 {
			line, col := lc(off)
			vp := valuePos{Pos: Pos{File: file, Line: line, Col: col}}
			raw := data[off : off+int(n.Raw.Length)]
			skip := 1
			if bytes.HasPrefix(raw, []byte(`"""`)) || bytes.HasPrefix(raw, []byte(`'''`)) {
				skip = 3
				if len(raw) > 3 && raw[3] == '\n' {
					skip = 4
				} else if len(raw) > 4 && raw[3] == '\r' && raw[4] == '\n' {
					skip = 5
				}
			}
			l2, c2 := lc(off + skip)
			vp.src = source{file: file, line: l2, col: c2 - 1}
			out[prefix] = vp
			return
		}
		if n.Kind == unstable.Array {
			if n.Raw.Length > 0 {
				line, col := lc(off)
				out[prefix] = valuePos{Pos: Pos{File: file, Line: line, Col: col}}
			}
			it := n.Children()
			i := 0
			for it.Next() {
				c := it.Node()
				visit(fmt.Sprintf("%s[%d]", prefix, i), c)
				if _, ok := out[fmt.Sprintf("%s[%d]", prefix, i)]; !ok {
					if first := firstRaw(c); first >= 0 {
						line, col := lc(first)
						out[fmt.Sprintf("%s[%d]", prefix, i)] = valuePos{Pos: Pos{File: file, Line: line, Col: col}}
					}
				}
				i++
			}
			return
		}
		if n.Kind == unstable.InlineTable {
			it := n.Children()
			for it.Next() {
				kv := it.Node()
				visit(prefix+"."+strings.Join(keyOf(kv.Key()), "."), kv.Value())
			}
		}
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			table = keyOf(e.Key())
		case unstable.KeyValue:
			k := append(slices.Clone(table), keyOf(e.Key())...)
			key := strings.Join(k, ".")
			// Record the key's own position, for values without raw bytes.
			it := e.Key()
			if it.Next() {
				if kn := it.Node(); kn.Raw.Length > 0 {
					line, col := lc(int(kn.Raw.Offset))
					out[key] = valuePos{Pos: Pos{File: file, Line: line, Col: col}}
				}
			}
			visit(key, e.Value())
			if len(k) > 1 {
				parent := strings.Join(k[:len(k)-1], ".")
				if _, ok := out[parent]; !ok {
					out[parent] = out[key]
				}
			}
		}
	}
	if err := p.Error(); err != nil {
		return nil, ErrorList{{Pos: Pos{File: file}, Msg: err.Error()}}
	}
	return out, nil
}

// firstRaw returns the offset of the first node under n that carries raw
// bytes, or -1.
func firstRaw(n *unstable.Node) int {
	if n.Raw.Length > 0 {
		return int(n.Raw.Offset)
	}
	it := n.Children()
	for it.Next() {
		if o := firstRaw(it.Node()); o >= 0 {
			return o
		}
	}
	return -1
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
