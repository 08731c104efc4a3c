package tui

import (
	"fmt"
	"path"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/model"
)

// exportCell writes the Verilog project of the design point on demand,
// shows its file tree and, when asked, runs `make sim` in it.
type exportCell struct{ cellBase }

func exp(in explorer.Input) *explorer.Export { return in.(*explorer.Export) }

// Update implements cellModel.
func (c *exportCell) Update(msg tea.Msg) (cellModel, tea.Cmd) { return c, c.update(msg) }

// View implements cellModel.
func (c *exportCell) View() string { return c.render() }

func (c *exportCell) cellKeys() []key.Binding { return nil }

func (c *exportCell) fields() []field {
	out := strField("out", "directory", func(in explorer.Input) *string { return &exp(in).Out })
	out.hint = "relative to the notebook's folder"
	return []field{
		out,
		boolField("force", "replace an existing folder", func(in explorer.Input) *bool { return &exp(in).Force }),
		boolField("run_sim", "run make sim after writing", func(in explorer.Input) *bool { return &exp(in).RunSim }),
	}
}

func (c *exportCell) output(out explorer.Output, w int) []string {
	o := out.(*explorer.ExportOutput)
	m := o.Manifest
	th := c.sh.th
	var lines []string
	edges := edgesText(model.MemKind(m.Mem))
	lines = append(lines, wrapDots(fmt.Sprintf("wrote %s: %d files · %d FPGAs × %d PEs of %s on %s · %s",
		th.bold.Render(relPath(c.sh.nb, o.Dir)), len(m.Files), m.FPGAs, m.PEs, m.Kernel, m.Board, edges), w)...)
	lines = append(lines, wrapDots(fmt.Sprintf("expect %s messages in %d supersteps · graph %s · V %s · %s arcs",
		count(m.Expected.Messages), m.Expected.Supersteps, m.Graph, count(int64(m.Vertices)), count(int64(m.Arcs))), w)...)
	switch {
	case o.Sim == "":
		for _, l := range wrap("make sim: not run (turn on \"run make sim after writing\", or run it in the folder)", w) {
			lines = append(lines, th.dim.Render(l))
		}
	case strings.HasPrefix(o.Sim, "RESULT PASS"):
		lines = append(lines, "make sim: "+th.ok.Render(o.Sim))
	default:
		lines = append(lines, "make sim: "+th.err.Render(o.Sim))
	}
	lines = append(lines, th.heading.Render("files"))
	return append(lines, fileTree(m.Files, w)...)
}

// fileTree draws the project's files as a tree; a folder with many files
// of one kind (the memory images) shows the first few and a count.
func fileTree(files []string, w int) []string {
	const keep = 4
	var lines []string
	seen := map[string]bool{}
	shown := map[string]int{}
	hidden := map[string]int{}
	for _, f := range files {
		dir := path.Dir(f)
		parts := strings.Split(f, "/")
		for i := range parts[:len(parts)-1] {
			d := strings.Join(parts[:i+1], "/")
			if !seen[d] {
				seen[d] = true
				lines = append(lines, strings.Repeat("  ", i+1)+parts[i]+"/")
			}
		}
		if shown[dir] >= keep {
			if hidden[dir] == 0 {
				lines = append(lines, "\x00"+dir)
			}
			hidden[dir]++
			continue
		}
		shown[dir]++
		lines = append(lines, strings.Repeat("  ", len(parts))+parts[len(parts)-1])
	}
	for i, l := range lines {
		if d, ok := strings.CutPrefix(l, "\x00"); ok {
			depth := len(strings.Split(d, "/")) + 1
			if d == "." {
				depth = 1
			}
			lines[i] = strings.Repeat("  ", depth) + fmt.Sprintf("… and %d more", hidden[d])
		}
		lines[i] = truncate(lines[i], w)
	}
	return lines
}

// edgesText says where a design keeps its edge lists.
func edgesText(m model.MemKind) string {
	switch m {
	case model.OffChip:
		return "edges off-chip"
	case model.BRAM:
		return "edges in BRAM"
	}
	return "edges in " + string(m)
}
