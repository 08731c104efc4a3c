package model

import (
	"errors"
	"strings"
	"testing"
)

// TestCapacityMessageNamesTheRequest is issue 16 item 9: when the user
// fixes nF and the graph needs more FPGAs, the message says how many were
// requested (it said "the platform has 4" when 4 were enough and 1 was
// asked for).
func TestCapacityMessageNamesTheRequest(t *testing.T) {
	p := paperPlatform()
	w := uniformWorkload(p, "wcc", 1500000, 2, 21, 21)
	_, err := Optimise(p, w, Config{FPGAs: 1})
	if !errors.Is(err, ErrCapacity) || !strings.Contains(err.Error(), "FPGAs of ac510, 1 requested") || strings.Contains(err.Error(), "the platform has") {
		t.Fatalf("err = %v", err)
	}
	// Left to the optimiser, a graph beyond every FPGA of the platform
	// still names the platform's maximum.
	w = uniformWorkload(p, "wcc", 8000000, 2, 21, 21)
	if _, err := Optimise(p, w, Config{}); err == nil || !strings.Contains(err.Error(), "the platform has 4") {
		t.Fatalf("err = %v", err)
	}
}

// TestCheckDesign is issue 16 item 5: the one capacity check refuses more
// FPGAs or PEs than the platform has and data beyond its memories, and
// Evaluate agrees with it.
func TestCheckDesign(t *testing.T) {
	p := paperPlatform()
	small := uniformWorkload(p, "wcc", 4096, 16, 21, 21)
	big := uniformWorkload(p, "wcc", 2000000, 16, 21, 21)
	for _, c := range []struct {
		w    *Workload
		cfg  Config
		want string // "" fits
	}{
		{small, Config{FPGAs: 4, PEs: 9}, ""},
		{small, Config{FPGAs: 5, PEs: 1}, "5 FPGAs requested; ac510 has 4"},
		{small, Config{FPGAs: 1, PEs: 1000}, "1000 PEs per FPGA requested; at most 9 fit"},
		{small, Config{FPGAs: 0, PEs: 1}, "need at least 1 FPGA"},
		{big, Config{FPGAs: 1, PEs: 9}, "vertex state and update queue need"},
		{big, Config{FPGAs: 4, PEs: 9, Mem: BRAM}, "plus edges in BRAM need"},
	} {
		err := CheckDesign(p, c.w, c.cfg)
		_, evalErr := Evaluate(p, c.w, c.cfg)
		switch {
		case c.want == "" && (err != nil || evalErr != nil):
			t.Errorf("%+v: %v / %v", c.cfg, err, evalErr)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: err = %v, want %q", c.cfg, err, c.want)
		case c.want != "" && (evalErr == nil || evalErr.Error() != err.Error()):
			t.Errorf("%+v: Evaluate says %v, CheckDesign %v", c.cfg, evalErr, err)
		}
	}
}
