package graph

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Spec is a parsed graph spec string: either a generator ("rmat:scale=16")
// or a graph file. The CLI and notebooks take one string for "which graph",
// and Spec is what that string means, with defaults filled in.
//
// Spec is comparable, so that a parsed spec can key a cache of loaded
// graphs.
type Spec struct {
	// File is the path of a graph file, or empty for a generator.
	File string
	// Gen describes the generator when File is empty (Gen.Kind is then one
	// of GenKinds).
	Gen GenSpec
}

// IsFile tells a file spec from a generator spec, for callers that treat
// them differently (only files have a format to detect or a size on disk).
func (s Spec) IsFile() bool { return s.Gen.Kind == "" }

// String returns the canonical spec string: a generator's kind and all of
// its parameters, defaults included, in a fixed order; a file's path as
// given, prefixed with "file:" only when the bare path would not parse back
// to the same file. ParseSpec(s.String()) returns s again, so the string can
// name a graph in reports and reproduce it later.
func (s Spec) String() string {
	if !s.IsFile() {
		return s.Gen.String()
	}
	if p, err := ParseSpec(s.File); err == nil && p.IsFile() && p.File == s.File {
		return s.File
	}
	return "file:" + s.File
}

// ParseSpec parses a graph spec string:
//
//	uniform:v=65536,d=32,seed=1
//	rmat:scale=16,ef=16,a=0.57,b=0.19,c=0.19,seed=1,scramble=true
//	layered:w=64,d=256,extra=0
//	line:n=1000
//	grid:rows=100,cols=100,drop=0.2,diag=0.05,seed=1
//	data/roadNet-CA.txt or file:data/roadNet-CA.txt
//
// A string whose text before the first ':' is a generator kind (in any
// case) is a generator; "file:" forces a file path (for a file named like
// "line:3"); anything else is a file path. Every generator also takes seed
// (default 1), maxw (default 0: unweighted) and directed (default false);
// the other parameters and their defaults are those of GenSpec. Parameters
// are comma-separated key=value pairs in any order; spaces around keys and
// values, empty items, and spaces around the whole string (except after
// "file:", which takes the rest verbatim) are ignored. Errors name the generator, the bad key or value,
// and the valid keys, because specs are typed by hand.
func ParseSpec(s string) (Spec, error) {
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	prefix, rest, found := strings.Cut(t, ":")
	if found {
		kind := strings.ToLower(prefix)
		if kind == "file" {
			// The path is taken verbatim, trailing spaces included, so that
			// any path can be spelt.
			if rest == "" {
				return Spec{}, errors.New("file: spec without a path")
			}
			return Spec{File: rest}, nil
		}
		if _, ok := genParams[kind]; ok {
			g, err := parseGenSpec(kind, rest)
			if err != nil {
				return Spec{}, err
			}
			return Spec{Gen: g}, nil
		}
	}
	t = strings.TrimRightFunc(t, unicode.IsSpace)
	if t == "" {
		return Spec{}, errors.New("empty graph spec (want a file path or kind:key=value,... with kind one of " + joinKeys(GenKinds) + ")")
	}
	return Spec{File: t}, nil
}

// parseGenSpec parses the key=value list of a generator spec.
func parseGenSpec(kind, list string) (GenSpec, error) {
	g, err := DefaultGenSpec(kind)
	if err != nil {
		return GenSpec{}, err
	}
	params := genParams[kind]
	seen := make(map[string]bool)
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, val, ok := strings.Cut(item, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		p := findParam(params, key)
		if p == nil {
			return GenSpec{}, fmt.Errorf("%s: unknown parameter %q (valid: %s)", kind, key, joinKeys(paramKeys(params)))
		}
		if !ok || val == "" {
			return GenSpec{}, fmt.Errorf("%s: parameter %s has no value (want %s=%s)", kind, key, key, p.want)
		}
		if seen[key] {
			return GenSpec{}, fmt.Errorf("%s: parameter %s given twice", kind, key)
		}
		seen[key] = true
		if err := p.set(&g, val); err != nil {
			return GenSpec{}, fmt.Errorf("%s: bad value %q for %s: want %s", kind, val, key, p.want)
		}
	}
	for _, p := range params {
		if p.required && !seen[p.key] {
			return GenSpec{}, fmt.Errorf("%s: missing parameter %s (required: %s; valid: %s)",
				kind, p.key, joinKeys(requiredKeys(params)), joinKeys(paramKeys(params)))
		}
	}
	if err := g.Validate(); err != nil {
		return GenSpec{}, err
	}
	return g, nil
}

// String returns the canonical spec string of a generator, which Generate
// also uses as the graph's name: kind, then every parameter of that kind
// (defaults included) in a fixed order, so that equal specs print equally.
func (s GenSpec) String() string {
	params, ok := genParams[s.Kind]
	if !ok {
		return s.Kind + ":"
	}
	var sb strings.Builder
	sb.WriteString(s.Kind)
	sb.WriteByte(':')
	for i, p := range params {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(p.key)
		sb.WriteByte('=')
		sb.WriteString(p.get(&s))
	}
	return sb.String()
}

// Validate reports the first parameter of s that is out of range, by its
// spec key, so that a GenSpec built in code fails as clearly as a typed
// spec string. Besides per-parameter ranges it refuses graphs whose arcs
// (before dropping self-loops and duplicates) would not fit the 32-bit arc
// range of the CSR arrays, before any memory is spent on them.
func (s GenSpec) Validate() error {
	k := s.Kind
	bad := func(key, want string) error {
		return fmt.Errorf("%s: %s=%s out of range (want %s)", k, key, findParam(genParams[k], key).get(&s), want)
	}
	arcs := func(draws float64) error {
		if !s.Directed {
			draws *= 2
		}
		if draws > math.MaxUint32 {
			return fmt.Errorf("%s: too large: %.0f arcs exceed the 32-bit arc range", s, draws)
		}
		return nil
	}
	switch k {
	case KindUniform:
		if s.V < 1 || s.V > MaxVertices {
			return bad("v", fmt.Sprintf("1 <= v <= %d", MaxVertices))
		}
		if !(s.Degree >= 0) || math.IsInf(s.Degree, 0) {
			return bad("d", "d >= 0")
		}
		return arcs(uniformDraws(s))
	case KindRMAT:
		if s.Scale < 1 || s.Scale > 30 {
			return bad("scale", "1 <= scale <= 30")
		}
		if s.EdgeFactor < 1 || s.EdgeFactor > math.MaxUint32 {
			return bad("ef", "ef >= 1")
		}
		for _, p := range []struct {
			key string
			v   float64
		}{{"a", s.A}, {"b", s.B}, {"c", s.C}} {
			if !(p.v > 0 && p.v < 1) {
				return bad(p.key, "0 < "+p.key+" < 1")
			}
		}
		if !(s.A+s.B+s.C < 1) {
			return fmt.Errorf("%s: a+b+c = %s out of range (want a+b+c < 1, so that d = 1-a-b-c > 0)",
				k, strconv.FormatFloat(s.A+s.B+s.C, 'g', -1, 64))
		}
		return arcs(float64(s.EdgeFactor) * float64(uint64(1)<<s.Scale))
	case KindLayered:
		if s.Width < 1 || s.Width > MaxVertices {
			return bad("w", "w >= 1")
		}
		if s.Depth < 1 || s.Depth > MaxVertices {
			return bad("d", "d >= 1")
		}
		if uint64(s.Width)*uint64(s.Depth) > MaxVertices {
			return fmt.Errorf("%s: too large: w*d = %d vertices exceed %d", k, uint64(s.Width)*uint64(s.Depth), MaxVertices)
		}
		if s.Extra < 0 || s.Extra > math.MaxUint32 {
			return bad("extra", "extra >= 0")
		}
		return arcs(layeredDraws(s))
	case KindLine:
		if s.N < 1 || s.N > MaxVertices {
			return bad("n", fmt.Sprintf("1 <= n <= %d", MaxVertices))
		}
		return arcs(float64(s.N - 1))
	case KindGrid:
		if s.Rows < 1 || s.Rows > MaxVertices {
			return bad("rows", "rows >= 1")
		}
		if s.Cols < 1 || s.Cols > MaxVertices {
			return bad("cols", "cols >= 1")
		}
		if uint64(s.Rows)*uint64(s.Cols) > MaxVertices {
			return fmt.Errorf("%s: too large: rows*cols = %d vertices exceed %d", k, uint64(s.Rows)*uint64(s.Cols), MaxVertices)
		}
		if !(s.Drop >= 0 && s.Drop <= 1) {
			return bad("drop", "0 <= drop <= 1")
		}
		if !(s.Diag >= 0 && s.Diag <= 1) {
			return bad("diag", "0 <= diag <= 1")
		}
		r, c := float64(s.Rows), float64(s.Cols)
		return arcs(r*(c-1) + c*(r-1) + (r-1)*(c-1))
	}
	return fmt.Errorf("unknown generator %q (kinds: %s)", k, joinKeys(GenKinds))
}

// Load returns the graph a spec string names, the one entry point the CLI
// and notebooks need. Generator specs go to Generate with the options read
// as ReadFile reads them for a file without weights: opt.Directed makes the
// graph directed, and when the spec has no maxw, opt.Weighted gives every
// edge weight 1, or a random weight in [1, opt.RandomWeights] when that is
// > 0 (that is, maxw=RandomWeights or maxw=1; RandomWeights without
// Weighted adds none). The graph's name is the canonical spec with
// those options applied, so it still reproduces the graph. Generators are
// seeded by the spec's seed only (opt.Seed and opt.Format are for files).
// opt.FloatWeights stores the generated integer weights as float32.
// Any other spec is a file path and goes to ReadFile with opt unchanged.
// A graph that would need more memory than the process may use
// (internal/membudget) fails before anything is allocated.
func Load(spec string, opt ReadOptions) (*Graph, error) {
	return LoadContext(context.Background(), spec, opt, nil)
}

// loadFile reads the file of a file spec.
func loadFile(s Spec, opt ReadOptions, w *watch) (*Graph, error) {
	if err := checkFileMemory(s.File); err != nil {
		return nil, err
	}
	g, err := readFile(s.File, opt, w)
	if err != nil && errors.Is(err, fs.ErrNotExist) && looksLikeGenSpec(s.File) {
		return nil, fmt.Errorf("%w (not a generator either: known kinds are %s)", err, joinKeys(GenKinds))
	}
	return g, err
}

// genSpecFor applies the read options that concern generators.
func genSpecFor(g GenSpec, opt ReadOptions) GenSpec {
	if opt.Directed {
		g.Directed = true
	}
	if g.MaxWeight == 0 && opt.Weighted {
		g.MaxWeight = max(opt.RandomWeights, 1)
	}
	return g
}

// looksLikeGenSpec tells whether a missing file's name looks like a
// mistyped generator ("rmta:scale=3"), to add the known kinds to the error.
func looksLikeGenSpec(p string) bool {
	prefix, rest, ok := strings.Cut(p, ":")
	if !ok || len(prefix) < 2 || !strings.Contains(rest, "=") {
		return false
	}
	for _, r := range prefix {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// genParam describes one key of a generator spec.
type genParam struct {
	key      string
	want     string // what a valid value looks like, for errors
	required bool
	get      func(*GenSpec) string
	set      func(*GenSpec, string) error
}

// genParams lists, per generator kind, its keys in canonical order.
var genParams = map[string][]genParam{
	KindUniform: {
		intParam("v", true, func(s *GenSpec) *int { return &s.V }),
		floatParam("d", true, func(s *GenSpec) *float64 { return &s.Degree }),
		seedParam, maxwParam, directedParam,
	},
	KindRMAT: {
		intParam("scale", true, func(s *GenSpec) *int { return &s.Scale }),
		intParam("ef", false, func(s *GenSpec) *int { return &s.EdgeFactor }),
		floatParam("a", false, func(s *GenSpec) *float64 { return &s.A }),
		floatParam("b", false, func(s *GenSpec) *float64 { return &s.B }),
		floatParam("c", false, func(s *GenSpec) *float64 { return &s.C }),
		seedParam,
		boolParam("scramble", func(s *GenSpec) *bool { return &s.Scramble }),
		maxwParam, directedParam,
	},
	KindLayered: {
		intParam("w", true, func(s *GenSpec) *int { return &s.Width }),
		intParam("d", true, func(s *GenSpec) *int { return &s.Depth }),
		intParam("extra", false, func(s *GenSpec) *int { return &s.Extra }),
		seedParam, maxwParam, directedParam,
	},
	KindLine: {
		intParam("n", true, func(s *GenSpec) *int { return &s.N }),
		seedParam, maxwParam, directedParam,
	},
	KindGrid: {
		intParam("rows", true, func(s *GenSpec) *int { return &s.Rows }),
		intParam("cols", true, func(s *GenSpec) *int { return &s.Cols }),
		floatParam("drop", false, func(s *GenSpec) *float64 { return &s.Drop }),
		floatParam("diag", false, func(s *GenSpec) *float64 { return &s.Diag }),
		seedParam, maxwParam, directedParam,
	},
}

var (
	seedParam = genParam{
		key: "seed", want: "an unsigned 64-bit integer",
		get: func(s *GenSpec) string { return strconv.FormatUint(s.Seed, 10) },
		set: func(s *GenSpec, v string) (err error) {
			s.Seed, err = strconv.ParseUint(v, 10, 64)
			return err
		},
	}
	maxwParam = genParam{
		key: "maxw", want: "an integer in [0, 4294967295]",
		get: func(s *GenSpec) string { return strconv.FormatUint(uint64(s.MaxWeight), 10) },
		set: func(s *GenSpec, v string) error {
			x, err := strconv.ParseUint(v, 10, 32)
			s.MaxWeight = uint32(x)
			return err
		},
	}
	directedParam = boolParam("directed", func(s *GenSpec) *bool { return &s.Directed })
)

func intParam(key string, required bool, f func(*GenSpec) *int) genParam {
	return genParam{
		key: key, want: "an integer", required: required,
		get: func(s *GenSpec) string { return strconv.Itoa(*f(s)) },
		set: func(s *GenSpec, v string) error {
			x, err := strconv.ParseInt(v, 10, 0)
			*f(s) = int(x)
			return err
		},
	}
}

func floatParam(key string, required bool, f func(*GenSpec) *float64) genParam {
	return genParam{
		key: key, want: "a finite number", required: required,
		get: func(s *GenSpec) string { return strconv.FormatFloat(*f(s), 'g', -1, 64) },
		set: func(s *GenSpec, v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
				err = errors.New("not finite")
			}
			if x == 0 {
				x = 0 // no "-0" in canonical strings
			}
			*f(s) = x
			return err
		},
	}
}

func boolParam(key string, f func(*GenSpec) *bool) genParam {
	return genParam{
		key: key, want: "true or false",
		get: func(s *GenSpec) string { return strconv.FormatBool(*f(s)) },
		set: func(s *GenSpec, v string) (err error) {
			*f(s), err = strconv.ParseBool(v)
			return err
		},
	}
}

func findParam(params []genParam, key string) *genParam {
	for i := range params {
		if params[i].key == key {
			return &params[i]
		}
	}
	return nil
}

func paramKeys(params []genParam) []string {
	keys := make([]string, len(params))
	for i, p := range params {
		keys[i] = p.key
	}
	return keys
}

func requiredKeys(params []genParam) []string {
	var keys []string
	for _, p := range params {
		if p.required {
			keys = append(keys, p.key)
		}
	}
	return keys
}

func joinKeys(keys []string) string { return strings.Join(keys, ", ") }
