package gen

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gravf-tui/gravf-tui/internal/procgroup"
)

// Resources are the fabric a module takes after yosys synth_xilinx.
type Resources struct {
	LUT    int     `json:"lut"`
	FF     int     `json:"ff"`
	BRAM36 float64 `json:"bram36"` // RAMB18 count as half
	DSP    int     `json:"dsp"`
	// LUTRAM counts LUTs used as distributed memory (included in LUT).
	LUTRAM int `json:"lutram"`
}

func (r Resources) add(o Resources, n int) Resources {
	return Resources{LUT: r.LUT + n*o.LUT, FF: r.FF + n*o.FF, BRAM36: r.BRAM36 + float64(n)*o.BRAM36, DSP: r.DSP + n*o.DSP, LUTRAM: r.LUTRAM + n*o.LUTRAM}
}

// primitive classifies one Xilinx cell type.
func primitive(cell string, n int) Resources {
	switch {
	case strings.HasPrefix(cell, "LUT"), cell == "INV":
		return Resources{LUT: n}
	case strings.HasPrefix(cell, "FD"):
		return Resources{FF: n}
	case strings.HasPrefix(cell, "RAMB36"):
		return Resources{BRAM36: float64(n)}
	case strings.HasPrefix(cell, "RAMB18"):
		return Resources{BRAM36: float64(n) / 2}
	case strings.HasPrefix(cell, "DSP"):
		return Resources{DSP: n}
	case strings.HasPrefix(cell, "RAM32M"), strings.HasPrefix(cell, "RAM64M"):
		// A multi-port distributed RAM occupies a whole slice of LUTs:
		// RAM32M16 / RAM64M8 take 8, RAM32M / RAM64M take 4.
		l := 4
		if strings.HasSuffix(cell, "16") || strings.HasSuffix(cell, "8") {
			l = 8
		}
		return Resources{LUT: n * l, LUTRAM: n * l}
	case strings.HasPrefix(cell, "RAM"), strings.HasPrefix(cell, "SRL"):
		return Resources{LUT: n, LUTRAM: n}
	}
	return Resources{}
}

// ParseYosysStat reads the output of yosys `stat` (not flattened) and
// returns the total resources of every module, its submodules included.
func ParseYosysStat(text string) map[string]Resources {
	own := map[string]map[string]int{}
	var mod string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "=== ") && strings.HasSuffix(t, " ===") {
			mod = strings.TrimSuffix(strings.TrimPrefix(t, "=== "), " ===")
			if mod == "design hierarchy" {
				mod = ""
				continue
			}
			own[mod] = map[string]int{}
			continue
		}
		if mod == "" || !strings.HasPrefix(line, "     ") {
			continue
		}
		f := strings.Fields(t)
		if len(f) != 2 {
			continue
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		own[mod][f[0]] += n
	}
	total := map[string]Resources{}
	var walk func(m string, depth int) Resources
	walk = func(m string, depth int) Resources {
		if r, ok := total[m]; ok || depth > 64 {
			return r
		}
		var r Resources
		for cell, n := range own[m] {
			if _, sub := own[cell]; sub {
				r = r.add(walk(cell, depth+1), n)
			} else {
				r = r.add(primitive(cell, n), 1)
			}
		}
		total[m] = r
		return r
	}
	for m := range own {
		walk(m, 0)
	}
	return total
}

// Estimate synthesises FPGA 0 of a generated system out of context with
// yosys (synth_xilinx for the given family, not flattened) and returns the
// resources of the whole FPGA and of its largest PE.
func Estimate(ctx context.Context, s *System, family string) (fpga, pe Resources, err error) {
	yosys, err := exec.LookPath("yosys")
	if err != nil {
		return fpga, pe, fmt.Errorf("resource estimates need yosys (Debian package yosys): %w", err)
	}
	dir, err := os.MkdirTemp("", "gravf-estimate")
	if err != nil {
		return fpga, pe, err
	}
	defer os.RemoveAll(dir)
	for _, p := range s.Paths() {
		if err := writeSystemFile(s, filepath.Join(dir, filepath.FromSlash(p)), p); err != nil {
			return fpga, pe, err
		}
	}
	script := fmt.Sprintf("read_verilog -defer %s\nhierarchy -check -top fpga_top -chparam FPGA 0\nsynth_xilinx -family %s -noiopad -noclkbuf -top fpga_top\ntee -q -o stat.txt stat -top fpga_top\n",
		strings.Join(s.RTLFiles(), " "), family)
	if err := os.WriteFile(filepath.Join(dir, "estimate.ys"), []byte(script), 0o644); err != nil {
		return fpga, pe, err
	}
	// A group of its own: synth_xilinx runs abc as a child of yosys, and a
	// cancel must end both.
	cmd := procgroup.Command(ctx, yosys, "-q", "estimate.ys")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return fpga, pe, fmt.Errorf("yosys cancelled: %w", cerr)
		}
		return fpga, pe, fmt.Errorf("yosys: %v\n%s", err, tail(string(out), 20))
	}
	st, err := os.ReadFile(filepath.Join(dir, "stat.txt"))
	if err != nil {
		return fpga, pe, err
	}
	tot := ParseYosysStat(string(st))
	pe = largestPE(tot)
	if pe == (Resources{}) {
		return fpga, pe, errors.New("yosys: the statistics name no module gravf_pe")
	}
	return tot["fpga_top"], pe, nil
}

// largestPE returns the resources of the largest PE among the modules of a
// yosys statistics report (PEs differ only in their memory sizes): the
// modules yosys derived from gravf_pe, one per parameter set.
func largestPE(tot map[string]Resources) Resources {
	var pe Resources
	for m, r := range tot {
		if strings.HasSuffix(m, "\\gravf_pe") || m == "gravf_pe" {
			if r.LUT > pe.LUT {
				pe = r
			}
		}
	}
	return pe
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// writeSystemFile writes the system's file p (a streamed image or a text
// file) to path, creating its folder.
func writeSystemFile(s *System, path, p string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	b := bufio.NewWriter(f)
	err = s.WriteFile(b, p)
	if err == nil {
		err = b.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
