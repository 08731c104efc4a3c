package model

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/diskcache"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// cacheCase binds kernel kn to the graph spec (PageRank with five
// iterations, BFS and SSSP from vertex 1).
func cacheCase(t testing.TB, kn, spec string, params map[string]string) (*graph.Graph, *kernel.Kernel) {
	t.Helper()
	s, err := samples.Kernel(kn)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load(spec, graph.ReadOptions{Weighted: len(s.Edge) > 0, RandomWeights: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return g, k
}

// cacheProfileOptions are designs of both architectures and memories.
var cacheProfileOptions = []struct {
	nF, nP int
	opt    ProfileOptions
}{
	{4, 9, ProfileOptions{Arch: GraVFM, Mem: OffChip, Filter: true, Hazard: Hazard{Hold: 2, Slots: HazardSlots}, ScatterLatency: 3, EdgesPerWord: 4, InFlight: 8, MemLatency: 40, LinkLatency: 20}},
	{2, 3, ProfileOptions{Arch: GraVFM, Mem: BRAM, PE: PEPaper, Hazard: Hazard{Hold: 3}}},
	{3, 2, ProfileOptions{Arch: GraVF, Mem: OffChip, Hazard: Hazard{Hold: 2, Slots: HazardSlots}, EdgesPerWord: 2}},
}

// TestCacheGivesTheSameActivityAndProfiles checks that the reference run
// and the profiles read back from the cache are the computed ones, figure
// for figure, and that the second request reads the cache.
func TestCacheGivesTheSameActivityAndProfiles(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		kn, spec string
		params   map[string]string
	}{
		{"wcc", "rmat:scale=10,ef=8,seed=1", nil},
		{"pr", "rmat:scale=9,ef=8,seed=2", map[string]string{"iterations": "5"}},
		{"sssp", "uniform:v=900,d=5,seed=1", map[string]string{"root": "1"}},
		{"bfs", "grid:rows=9,cols=13", map[string]string{"root": "1"}},
	} {
		t.Run(tc.kn+"/"+tc.spec, func(t *testing.T) {
			g, k := cacheCase(t, tc.kn, tc.spec, tc.params)
			store := diskcache.New(t.TempDir(), 1<<30)
			want, err := ReferenceActivity(ctx, k, g, kernel.RunOptions{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got [3]*Activity
			for i := range got {
				var steps []kernel.Superstep
				got[i], err = ReferenceActivity(ctx, k, g, kernel.RunOptions{Progress: func(s kernel.Superstep) { steps = append(steps, s) }}, store)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got[i].Steps, want.Steps) || !reflect.DeepEqual(got[i].Sets, want.Sets) {
					t.Fatalf("run %d: activity differs from the reference run's", i)
				}
				if !reflect.DeepEqual(steps, want.Supersteps()) {
					t.Fatalf("run %d: progress %v, want %v", i, steps, want.Supersteps())
				}
			}
			_, derived := deriveActivity(ctx, k, g, 0)
			switch {
			case derived && (got[0].index != nil || got[1].index != nil):
				t.Fatal("a derived activity should be derived every time")
			case !derived && (got[0].index == nil || got[1].index != nil):
				t.Fatal("the first run should record, the second read the cache")
			}
			for _, m := range []graph.Partitioner{graph.Greedy, graph.Robin} {
				part := graph.PartitionOptions{Method: m, Seed: 1}
				ref := NewProfiles(g, want, part)
				for _, d := range cacheProfileOptions {
					wp, err := ref.Get(ctx, d.nF, d.nP, d.opt)
					if err != nil {
						t.Fatal(err)
					}
					for i, a := range got {
						gp, err := NewProfiles(g, a, part).Get(ctx, d.nF, d.nP, d.opt)
						if err != nil {
							t.Fatal(err)
						}
						if !reflect.DeepEqual(gp, wp) {
							t.Fatalf("%s %dx%d %+v, run %d: profile differs from the computed one", m, d.nF, d.nP, d.opt, i)
						}
					}
				}
			}
			activities := 1
			if derived {
				activities = 0
			}
			if n := len(cacheFiles(t, store)); n != activities+2*len(cacheProfileOptions) {
				t.Fatalf("%d entries, want %d activities and %d profiles", n, activities, 2*len(cacheProfileOptions))
			}
		})
	}
}

// cacheFiles lists a store's entries.
func cacheFiles(t *testing.T, s *diskcache.Store) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(s.Dir(), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestDamagedCacheEntriesAreRecomputed truncates, flips and replaces every
// entry in turn: each request still gets the computed result.
func TestDamagedCacheEntriesAreRecomputed(t *testing.T) {
	ctx := context.Background()
	g, k := cacheCase(t, "wcc", "rmat:scale=9,ef=8,seed=3", nil)
	want, err := ReferenceActivity(ctx, k, g, kernel.RunOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := cacheProfileOptions[0]
	wp, err := NewProfiles(g, want, graph.PartitionOptions{}).Get(ctx, d.nF, d.nP, d.opt)
	if err != nil {
		t.Fatal(err)
	}
	store := diskcache.New(t.TempDir(), 1<<30)
	check := func(what string) {
		t.Helper()
		a, err := ReferenceActivity(ctx, k, g, kernel.RunOptions{}, store)
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewProfiles(g, a, graph.PartitionOptions{}).Get(ctx, d.nF, d.nP, d.opt)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Steps, want.Steps) || !reflect.DeepEqual(a.Sets, want.Sets) || !reflect.DeepEqual(p, wp) {
			t.Fatalf("%s: a different result", what)
		}
	}
	check("empty cache")
	files := cacheFiles(t, store)
	if len(files) != 2 {
		t.Fatalf("%d entries, want 2", len(files))
	}
	for _, f := range files {
		good, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		damage := map[string][]byte{
			"empty":          {},
			"truncated":      good[:len(good)/2],
			"one byte short": good[:len(good)-1],
			"foreign":        []byte("not a cache file at all, but long enough to look like one........"),
		}
		for _, at := range []int{0, 20, len(good) / 2, len(good) - 1} {
			b := append([]byte(nil), good...)
			b[at] ^= 0x40
			damage[fmt.Sprintf("byte %d flipped", at)] = b
		}
		for what, b := range damage {
			if err := os.WriteFile(f, b, 0o644); err != nil {
				t.Fatal(err)
			}
			check(filepath.Base(filepath.Dir(f)) + " " + what)
		}
	}
}

// TestCacheKeySeesEveryInput checks that a change of the graph, of a
// kernel parameter, of the superstep limit or of how weights read makes a
// different key.
func TestCacheKeySeesEveryInput(t *testing.T) {
	g, k := cacheCase(t, "sssp", "uniform:v=300,d=4,seed=1", map[string]string{"root": "1"})
	_, k2 := cacheCase(t, "sssp", "uniform:v=300,d=4,seed=1", map[string]string{"root": "2"})
	g2, _ := cacheCase(t, "sssp", "uniform:v=300,d=4,seed=2", map[string]string{"root": "1"})
	g3 := *g
	g3.Weights = append([]uint32(nil), g.Weights...)
	g3.Weights[7]++
	g4 := *g
	g4.FloatWeights = !g.FloatWeights
	key := func(k *kernel.Kernel, g *graph.Graph, limit int) diskcache.Key {
		key, err := activityKey(k, g, limit)
		if err != nil {
			t.Fatal(err)
		}
		return key
	}
	base := key(k, g, 0)
	if key(k, g, 0) != base {
		t.Fatal("the key is not deterministic")
	}
	for what, other := range map[string]diskcache.Key{
		"root": key(k2, g, 0), "graph": key(k, g2, 0), "a weight": key(k, &g3, 0),
		"float weights": key(k, &g4, 0), "superstep limit": key(k, g, 50),
	} {
		if other == base {
			t.Errorf("a changed %s leaves the key unchanged", what)
		}
	}
}

// FuzzDecodeActivity feeds the activity reader any bytes: it fails or
// returns sets of the graph's vertices, in time linear in its input.
func FuzzDecodeActivity(f *testing.F) {
	g, k := cacheCase(f, "wcc", "grid:rows=5,cols=6", nil)
	a, _, err := RecordActivity(context.Background(), k, g, kernel.RunOptions{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(encodeActivity(a))
	f.Add([]byte{1, 2, 0, 0, 1, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		var got *Activity
		testenv.WithinBudget(t, len(data), func() { got, err = decodeActivity(data, g) })
		if err != nil {
			return
		}
		for _, s := range got.Steps {
			if s.Set >= len(got.Sets) || (s.Set >= 0 && s.Active != len(got.Sets[s.Set])) {
				t.Fatalf("step %+v of %d sets", s, len(got.Sets))
			}
		}
		for _, s := range got.Sets {
			for i, v := range s {
				if int(v) >= g.NumVertices() || (i > 0 && v <= s[i-1]) {
					t.Fatalf("set %v", s)
				}
			}
		}
	})
}

// FuzzDecodeProfile feeds the profile reader any bytes: it fails or
// returns a profile of the design and activity asked for.
func FuzzDecodeProfile(f *testing.F) {
	g, k := cacheCase(f, "wcc", "grid:rows=5,cols=6", nil)
	a, _, err := RecordActivity(context.Background(), k, g, kernel.RunOptions{})
	if err != nil {
		f.Fatal(err)
	}
	for _, d := range cacheProfileOptions {
		p, err := NewProfiles(g, a, graph.PartitionOptions{}).Get(context.Background(), d.nF, d.nP, d.opt)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(encodeProfile(p), uint8(d.nF), uint8(d.nP))
	}
	f.Fuzz(func(t *testing.T, data []byte, nF, nP uint8) {
		if nF == 0 || nP == 0 {
			return
		}
		var p *Profile
		testenv.WithinBudget(t, len(data), func() { p, err = decodeProfile(data, a, int(nF), int(nP)) })
		if err != nil {
			return
		}
		if len(p.Steps) != len(a.Steps) || p.FPGAs != int(nF) || p.PEs != int(nP) {
			t.Fatalf("a profile of %d steps, %dx%d", len(p.Steps), p.FPGAs, p.PEs)
		}
		for _, s := range p.Steps {
			if len(s.PerFPGA) != int(nF) || s.EndFPGA >= int(nF) || s.MaxEdgesPE >= int(nF)*int(nP) {
				t.Fatalf("step %+v", s)
			}
		}
	})
}
