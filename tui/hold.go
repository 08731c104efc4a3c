package tui

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/explorer"
)

// Holds: a cell that depends on an input that is not valid shows that it
// waits for it ("waiting for a valid fpgas in cell 2") instead of a
// result for other inputs, and is not evaluated; the error itself is
// shown once, next to the field that caused it.

// holdPending holds the cells that depend on a cell with text the
// notebook did not accept. It runs before evaluation, so that held cells
// start no work.
func (a *App) holdPending() {
	nb := a.sh.nb
	holds := make([]string, len(a.cells))
	for i, c := range a.cells {
		fl, _, ok := c.base().form.firstPendingField()
		if !ok {
			continue
		}
		why := fmt.Sprintf("waiting for a valid %s in cell %d", fieldName(fl), i+1)
		for _, d := range nb.Dependents(i) {
			if holds[d] == "" {
				holds[d] = why
			}
		}
	}
	for i, c := range a.cells {
		b := c.base()
		if b.hold != holds[i] {
			b.hold = holds[i]
			b.touch()
		}
	}
}

// settle places the evaluation errors after a refresh: an error that
// names a field is shown at that field (in the cell that holds it, which
// may be a cell above), and the cells that depend on a failing cell wait
// for it.
func (a *App) settle() {
	nb := a.sh.nb
	errs := make([]map[string]string, len(a.cells))
	own := make([]bool, len(a.cells))
	holds := make([]string, len(a.cells))
	for i, c := range a.cells {
		holds[i] = c.base().hold
		own[i] = true
	}
	hold := func(i int, why string) {
		if holds[i] == "" {
			holds[i] = why
		}
	}
	for i, c := range a.cells {
		b := c.base()
		if !b.hasResult || b.err == nil || holds[i] != "" {
			continue
		}
		owner, fe := nb.Blame(i, b.err)
		if fe != nil && a.cells[owner].base().form.has(fe.Key) {
			if errs[owner] == nil {
				errs[owner] = map[string]string{}
			}
			errs[owner][fe.Key] = tuiWords(fe.Text())
		}
		switch {
		case owner != i && fe != nil:
			hold(i, fmt.Sprintf("waiting for a valid %s in cell %d", keyName(fe.Key), owner+1))
			own[i] = false
			continue
		case owner != i:
			hold(i, fmt.Sprintf("waiting for cell %d (%s): it has an error", owner+1, nb.Cells[owner].In.Kind()))
			own[i] = false
			continue
		case fe != nil && errs[i][fe.Key] != "":
			own[i] = false
		}
		why := fmt.Sprintf("waiting for cell %d (%s): it has an error", i+1, b.kind)
		if fe != nil {
			why = fmt.Sprintf("waiting for a valid %s in cell %d", keyName(fe.Key), i+1)
		}
		for _, d := range nb.Dependents(i) {
			hold(d, why)
		}
	}
	for i, c := range a.cells {
		b := c.base()
		if b.hold != holds[i] || b.ownErr != own[i] || !sameErrs(b.form.errs, errs[i]) {
			b.touch()
		}
		b.hold, b.ownErr, b.form.errs = holds[i], own[i], errs[i]
	}
}

// keyName is a field key as messages name it (see fieldName).
func keyName(k string) string { return fieldName(field{key: k}) }

func sameErrs(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// firstInvalid returns the first cell and field whose text the notebook
// did not accept.
func (a *App) firstInvalid() (int, field, bool) {
	for i, c := range a.cells {
		if fl, _, ok := c.base().form.firstPendingField(); ok {
			return i, fl, true
		}
	}
	return -1, field{}, false
}

// firstPendingField returns the first field with pending text.
func (f *form) firstPendingField() (field, pending, bool) {
	for _, fl := range f.fields {
		if p, ok := f.pending[fl.key]; ok {
			return fl, p, true
		}
	}
	return field{}, pending{}, false
}

// has reports whether the form has a field with key k.
func (f *form) has(k string) bool {
	for _, fl := range f.fields {
		if fl.key == k {
			return true
		}
	}
	return false
}

// resultOf returns cell i's current output of type T (nil when it has
// none, is stale, failed or is held).
func resultOf[T explorer.Output](a *App, i int) (T, bool) {
	var zero T
	if i < 0 || i >= len(a.cells) {
		return zero, false
	}
	b := a.cells[i].base()
	if !b.hasResult || b.err != nil || b.hold != "" {
		return zero, false
	}
	o, ok := b.out.(T)
	return o, ok
}
