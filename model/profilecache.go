package model

import (
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/diskcache"
)

// profileKind is the cache folder of profiles; profileLayout, the key's
// first field, names the layout of encodeProfile.
const (
	profileKind   = "profile"
	profileLayout = "profile v1"
)

// profileCacheKey returns the key of the profile of nF x nP PEs under opt
// on ps's activity and partitioner, and false when it is not cached: an
// activity without a store, or a METIS partition, which depends on the
// gpmetis installed rather than on this program alone.
func (ps *Profiles) profileCacheKey(nF, nP int, opt ProfileOptions) (diskcache.Key, bool) {
	if ps.act.store == nil || ps.Partitioner() == graph.METIS {
		return diskcache.Key{}, false
	}
	var oj encoder
	encodeOptions(&oj, opt)
	return diskcache.NewKeyHash(profileLayout).Bytes(ps.act.key[:]).String(string(ps.Partitioner())).
		Int(int64(nF)).Int(int64(nP)).Bytes(oj.b).Sum(), true
}

// cachedProfile returns the stored profile, when there is an intact one.
func (ps *Profiles) cachedProfile(nF, nP int, opt ProfileOptions) (*Profile, bool) {
	key, ok := ps.profileCacheKey(nF, nP, opt)
	if !ok {
		return nil, false
	}
	data, ok := ps.act.store.Get(profileKind, key)
	if !ok {
		return nil, false
	}
	p, err := decodeProfile(data, ps.act, nF, nP)
	return p, err == nil
}

// storeProfile stores a computed profile (errors leave the cache without
// it).
func (ps *Profiles) storeProfile(nF, nP int, opt ProfileOptions, p *Profile) {
	if key, ok := ps.profileCacheKey(nF, nP, opt); ok {
		_ = ps.act.store.Put(profileKind, key, encodeProfile(p))
	}
}

// encodeProfile writes every figure of a profile, floats as their bits.
func encodeProfile(p *Profile) []byte {
	var e encoder
	encodeOptions(&e, p.Options)
	e.int(int64(p.FPGAs))
	e.int(int64(p.PEs))
	e.int(p.Sweep)
	e.int(int64(p.SweepPE))
	e.bool(p.MemoryIn)
	e.bool(p.LinkIn)
	e.uint(uint64(len(p.Steps)))
	for i := range p.Steps {
		encodeStep(&e, &p.Steps[i])
	}
	return e.b
}

// encodeOptions writes every field of opt as it is (JSON would write
// the default PE design for an empty one).
func encodeOptions(e *encoder, o ProfileOptions) {
	e.bytes([]byte(o.Arch))
	e.bytes([]byte(o.Mem))
	e.bytes([]byte(o.PE))
	e.bool(o.Filter)
	for _, v := range []int{o.Hazard.Hold, o.Hazard.Slots, o.ScatterLatency, o.EdgesPerWord, o.InFlight, o.MemLatency, o.LinkLatency} {
		e.int(int64(v))
	}
}

func decodeOptions(d *decoder) ProfileOptions {
	o := ProfileOptions{Arch: Arch(d.bytes()), Mem: MemKind(d.bytes()), PE: PEDesign(d.bytes()), Filter: d.bool()}
	for _, v := range []*int{&o.Hazard.Hold, &o.Hazard.Slots, &o.ScatterLatency, &o.EdgesPerWord, &o.InFlight, &o.MemLatency, &o.LinkLatency} {
		*v = int(d.int())
	}
	return o
}

func encodeStep(e *encoder, s *StepWork) {
	e.int(int64(s.Set))
	e.int(s.Messages)
	e.int(s.MaxEdges)
	e.int(int64(s.MaxEdgesPE))
	e.float(s.MeanEdges)
	e.float(s.Gather)
	e.int(int64(s.GatherPE))
	e.float(s.Hazard)
	e.float(s.Scatter)
	e.int(s.Crossbar)
	e.float(s.End)
	e.int(int64(s.EndFPGA))
	e.int(s.LinkItems)
	e.int(s.IfItems)
	e.int(s.MemWords)
	e.uint(uint64(len(s.PerFPGA)))
	for _, f := range s.PerFPGA {
		e.int(f.Local)
		e.uint(uint64(len(f.Need)))
		for _, n := range f.Need {
			e.int(n)
		}
		e.int(f.Items)
		e.float(f.End)
	}
}

// decodeProfile reads encodeProfile's form of the profile of nF x nP PEs
// on activity act, checking that it describes that design and activity:
// one step per superstep, each of the superstep's sender set, and PE and
// FPGA indexes in range.
func decodeProfile(data []byte, act *Activity, nF, nP int) (*Profile, error) {
	d := decoder{b: data}
	p := &Profile{}
	p.Options = decodeOptions(&d)
	p.FPGAs, p.PEs = int(d.int()), int(d.int())
	if p.FPGAs != nF || p.PEs != nP {
		return nil, errCorrupt
	}
	nPE := int64(nF * nP)
	p.Sweep = d.int()
	p.SweepPE = int(d.intIn(0, nPE-1))
	p.MemoryIn, p.LinkIn = d.bool(), d.bool()
	if d.count(1) != len(act.Steps) {
		return nil, errCorrupt
	}
	p.Steps = make([]StepWork, len(act.Steps))
	for i := range p.Steps {
		decodeStep(&d, &p.Steps[i], nF, nPE)
		if p.Steps[i].Set != act.Steps[i].Set {
			d.fail()
		}
	}
	if err := d.end(); err != nil {
		return nil, err
	}
	return p, nil
}

func decodeStep(d *decoder, s *StepWork, nF int, nPE int64) {
	s.Set = int(d.int())
	s.Messages = d.int()
	s.MaxEdges = d.int()
	s.MaxEdgesPE = int(d.intIn(-1, nPE-1))
	s.MeanEdges = d.float()
	s.Gather = d.float()
	s.GatherPE = int(d.intIn(-1, nPE-1))
	s.Hazard = d.float()
	s.Scatter = d.float()
	s.Crossbar = d.int()
	s.End = d.float()
	s.EndFPGA = int(d.intIn(0, int64(nF)-1))
	s.LinkItems = d.int()
	s.IfItems = d.int()
	s.MemWords = d.int()
	if d.count(1) != nF {
		d.fail()
		return
	}
	s.PerFPGA = make([]FPGAWork, nF)
	for i := range s.PerFPGA {
		f := &s.PerFPGA[i]
		f.Local = d.int()
		if d.count(1) != nF {
			d.fail()
			return
		}
		f.Need = make([]int64, nF)
		for j := range f.Need {
			f.Need[j] = d.int()
		}
		f.Items = d.int()
		f.End = d.float()
	}
}
