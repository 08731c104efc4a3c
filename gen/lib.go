package gen

import (
	"embed"
	"io/fs"
	"path"
)

// libVerilog holds the f32 unit library: pipelined, synthesizable
// Verilog-2005 modules whose results are bit-exact with the kernel
// language's Go float32 semantics.
//
//go:embed lib/*.v
var libVerilog embed.FS

// LibraryFiles returns the Verilog sources of the f32 unit library, keyed
// by file name ("gravf_fadd.v", ...). Every file starts with a header that
// gives its modules' function, latency, rounding and special cases:
//
//	gravf_fadd.v  gravf_fadd (a + b, a - b with sub = 1), latency 5
//	gravf_fmul.v  gravf_fmul (a * b), latency 3
//	gravf_fdiv.v  gravf_fdiv (a / b), latency 8
//	gravf_fcmp.v  gravf_flt, gravf_fle, gravf_fgt, gravf_fge, gravf_feq,
//	              gravf_fne (1-bit y), gravf_fmin, gravf_fmax, and the
//	              gravf_fcmp and gravf_fminmax cores they wrap; latency 1
//	gravf_fcvt.v  gravf_u2f #(W) (W-bit unsigned to f32) and
//	              gravf_f2u #(W) (f32 to W-bit unsigned), latency 2
//
// All units have the ports clk, ce (clock enable: the pipeline advances
// only when ce is 1), the data inputs a and b and the registered output y,
// take one operation per cycle and match arch.LatencyFAdd and friends
// exactly. The map is a fresh copy on every call.
func LibraryFiles() map[string]string {
	files := map[string]string{}
	names, err := fs.Glob(libVerilog, "lib/*.v")
	if err != nil {
		panic(err) // the pattern is constant and valid
	}
	for _, name := range names {
		b, err := libVerilog.ReadFile(name)
		if err != nil {
			panic(err) // embedded files are always readable
		}
		files[path.Base(name)] = string(b)
	}
	return files
}
