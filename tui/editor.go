package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/samples"
)

// Editing the kernel: e in a kernel cell opens its kernel.toml in the
// user's editor ($VISUAL, $EDITOR, else vi), as git and lazygit do. A
// built-in kernel is first copied into a folder beside the notebook and
// the cell switched to that copy (one undo step), so that the built-in
// stays as it is. When the editor returns, the cell reloads the file (its
// input hash includes the file's time) and shows any error at its kernel
// field.

// editorDoneMsg says the editor returned.
type editorDoneMsg struct {
	cell cellModel
	file string
	err  error
}

// editorCommand is the user's editor as a shell command, as git runs it:
// $VISUAL, else $EDITOR, else vi.
func editorCommand() string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if e := strings.TrimSpace(os.Getenv(v)); e != "" {
			return e
		}
	}
	return "vi"
}

// kernelFolder returns the folder of the kernel cell's kernel, copying a
// built-in one beside the notebook first (made is then the copy's name).
func (a *App) kernelFolder(c *kernelCell) (dir, made string, err error) {
	nb := a.sh.nb
	name := kern(c.input()).Kernel
	if !slices.Contains(samples.KernelNames(), name) || strings.ContainsAny(name, `/\`) {
		p := nb.Resolve(name)
		if strings.HasSuffix(p, ".toml") {
			p = filepath.Dir(p)
		}
		return p, "", nil
	}
	// A copy made earlier is reused, so that a second e finds the edits.
	for n := 1; ; n++ {
		rel := "./" + name
		if n > 1 {
			rel = fmt.Sprintf("./%s-%d", name, n)
		}
		dir := nb.Resolve(rel)
		if _, err := os.Stat(filepath.Join(dir, "kernel.toml")); err == nil && n == 1 {
			return dir, rel, nil
		}
		if _, err := os.Stat(dir); err == nil {
			continue
		}
		if err := samples.CopyKernel(name, dir); err != nil {
			return "", "", err
		}
		return dir, rel, nil
	}
}

// editKernel opens the kernel cell's kernel.toml in the editor.
func (a *App) editKernel(c *kernelCell) tea.Cmd {
	nb := a.sh.nb
	a.endEdit(true)
	dir, made, err := a.kernelFolder(c)
	if err != nil {
		a.setFlash(err.Error(), true)
		return nil
	}
	if made != "" {
		nb.BeginGroup(fmt.Sprintf("kernel in cell %d (a copy of %s)", c.index+1, kern(c.input()).Kernel))
		err := nb.Edit(c.index, func(in explorer.Input) error { kern(in).Kernel = made; return nil })
		nb.EndGroup()
		if err != nil {
			a.setFlash(err.Error(), true)
			return nil
		}
		a.sh.edited = true
	}
	file := filepath.Join(dir, "kernel.toml")
	cmd := exec.Command("sh", "-c", editorCommand()+` "$1"`, "sh", file)
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return editorDoneMsg{cell: c, file: file, err: err} })
}

// editorDone reloads the kernel after the editor returned.
func (a *App) editorDone(m editorDoneMsg) tea.Cmd {
	rel := relPath(a.sh.nb, m.file)
	if m.err != nil {
		a.setFlash(fmt.Sprintf("the editor (%s) failed: %v", editorCommand(), m.err), true)
	} else {
		a.setFlash("reloaded "+rel, false)
	}
	m.cell.base().touch()
	return a.evaluate()
}
