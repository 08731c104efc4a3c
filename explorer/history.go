package explorer

import "errors"

// maxUndo bounds the undo history.
const maxUndo = 100

// editGroup is an open group of edits (see BeginGroup).
type editGroup struct {
	// depth is len(undo) when the group began: the entries above it are
	// the group's.
	depth int
	what  string
}

// BeginGroup opens a group of edits that Undo treats as one: a front end
// commits every keystroke of a field through Edit, so that the cells
// below follow the typing, and the whole edit of the field is still one
// undo step. what describes the edit for CanUndo ("fpgas in cell 2").
// An open group is ended first.
func (nb *Notebook) BeginGroup(what string) {
	if nb.group != nil {
		nb.EndGroup()
	}
	nb.group = &editGroup{depth: len(nb.undo), what: what}
}

// InGroup reports whether a group of edits is open.
func (nb *Notebook) InGroup() bool { return nb.group != nil }

// EndGroup closes the open group: the edits made since BeginGroup become
// one undo step (none when nothing changed).
func (nb *Notebook) EndGroup() {
	g := nb.group
	if g == nil {
		return
	}
	nb.group = nil
	if len(nb.undo) <= g.depth {
		return
	}
	first := nb.undo[g.depth]
	first.what = g.what
	nb.undo = append(nb.undo[:g.depth], first)
}

// CancelGroup closes the open group and takes its edits back: the
// notebook is as it was at BeginGroup, unsaved-changes flag included, and
// the edits leave no undo step.
func (nb *Notebook) CancelGroup() error {
	g := nb.group
	if g == nil {
		return nil
	}
	nb.group = nil
	if len(nb.undo) <= g.depth {
		return nil
	}
	first := nb.undo[g.depth]
	if err := nb.restore(first); err != nil {
		return err
	}
	nb.undo = nb.undo[:g.depth]
	nb.dirty = first.dirty
	return nil
}

// CanRedo reports whether Redo has something to bring back, and what.
func (nb *Notebook) CanRedo() (string, bool) {
	if len(nb.redo) == 0 {
		return "", false
	}
	return nb.redo[len(nb.redo)-1].what, true
}

// Redo takes back the last Undo. Any edit after an Undo clears what Redo
// could bring back, as in every editor.
func (nb *Notebook) Redo() error {
	nb.EndGroup()
	if len(nb.redo) == 0 {
		return errors.New("nothing to redo")
	}
	s := nb.redo[len(nb.redo)-1]
	cur := nb.snapshot(s.what)
	if err := nb.restore(s); err != nil {
		return err
	}
	nb.redo = nb.redo[:len(nb.redo)-1]
	nb.undo = append(nb.undo, cur)
	nb.dirty = true
	return nil
}
