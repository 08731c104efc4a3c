package explorer

import (
	"bytes"
	"testing"
)

func setFPGAs(t *testing.T, nb *Notebook, n int) {
	t.Helper()
	if err := nb.Edit(1, func(in Input) error { in.(*Platform).FPGAs = n; return nil }); err != nil {
		t.Fatal(err)
	}
}

func fpgasOf(nb *Notebook) int { return nb.Cells[1].In.(*Platform).FPGAs }

// TestEditGroup: the keystrokes of one field are one undo step; a
// cancelled group leaves the notebook and its unsaved flag as they were.
func TestEditGroup(t *testing.T) {
	nb := Default()
	nb.BeginGroup("fpgas in cell 2")
	setFPGAs(t, nb, 1)
	setFPGAs(t, nb, 12) // "1", "12": two keystrokes
	setFPGAs(t, nb, 2)
	nb.EndGroup()
	if what, ok := nb.CanUndo(); !ok || what != "fpgas in cell 2" {
		t.Fatalf("CanUndo = %q, %v", what, ok)
	}
	if err := nb.Undo(); err != nil {
		t.Fatal(err)
	}
	if fpgasOf(nb) != 4 {
		t.Fatalf("one undo left fpgas = %d, want 4", fpgasOf(nb))
	}
	if _, ok := nb.CanUndo(); ok {
		t.Fatal("the group left more than one undo step")
	}

	// A cancelled group.
	nb = Default()
	before := nb.Bytes()
	nb.BeginGroup("fpgas")
	setFPGAs(t, nb, 3)
	if !nb.Dirty() || !nb.InGroup() {
		t.Fatal("the edit inside the group did not count")
	}
	if err := nb.CancelGroup(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(nb.Bytes(), before) || nb.Dirty() || nb.InGroup() {
		t.Fatalf("cancel did not restore the notebook (dirty %v):\n%s", nb.Dirty(), nb.Bytes())
	}
	if _, ok := nb.CanUndo(); ok {
		t.Fatal("a cancelled group left an undo step")
	}

	// An empty group adds nothing.
	nb.BeginGroup("nothing")
	nb.EndGroup()
	if _, ok := nb.CanUndo(); ok {
		t.Fatal("an empty group left an undo step")
	}
}

// TestRedo: redo takes an undo back; a new edit clears it.
func TestRedo(t *testing.T) {
	nb := Default()
	setFPGAs(t, nb, 2)
	setFPGAs(t, nb, 3)
	if _, ok := nb.CanRedo(); ok {
		t.Fatal("redo before any undo")
	}
	for _, want := range []int{2, 4} {
		if err := nb.Undo(); err != nil {
			t.Fatal(err)
		}
		if fpgasOf(nb) != want {
			t.Fatalf("after undo fpgas = %d, want %d", fpgasOf(nb), want)
		}
	}
	for _, want := range []int{2, 3} {
		if err := nb.Redo(); err != nil {
			t.Fatal(err)
		}
		if fpgasOf(nb) != want {
			t.Fatalf("after redo fpgas = %d, want %d", fpgasOf(nb), want)
		}
	}
	if err := nb.Redo(); err == nil {
		t.Fatal("redo past the newest state")
	}
	if err := nb.Undo(); err != nil {
		t.Fatal(err)
	}
	setFPGAs(t, nb, 1)
	if _, ok := nb.CanRedo(); ok {
		t.Fatal("an edit after undo kept the redo step")
	}
}
