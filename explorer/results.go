package explorer

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gravf-tui/gravf-tui/internal/outfile"
)

// Results beside the notebook: the outputs of the cells that take long
// (simulate, sweep, export) are kept in a folder next to the notebook
// file, one JSON file per result named by the cell's input hash, so that
// reopening the notebook shows the last simulation (and, through it, its
// trace) without running it again. Only a notebook with KeepResults on
// writes them; RestoreResults reads back those whose inputs are still the
// cells' inputs and whose files (a trace, an exported project) are still
// there as they were written.

// resultsVersion is the version of the result files' format.
const resultsVersion = 1

// resultFile is one kept result.
type resultFile struct {
	Version int       `json:"version"`
	Kind    Kind      `json:"kind"`
	Hash    string    `json:"hash"`
	Saved   time.Time `json:"saved"`
	// Files are the files the output names, relative to the notebook's
	// folder, with their size and time when the result was kept.
	Files  []keptFile      `json:"files,omitempty"`
	Output json.RawMessage `json:"output"`
}

type keptFile struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"mod_time_ns"`
}

// keeps reports whether results of kind k are kept beside the notebook.
func keeps(k Kind) bool { return k == KindSimulate || k == KindSweep || k == KindExport }

// ResultsDir is the folder beside the notebook that kept results go to
// (mine.gravf.results for mine.gravf.toml), or "" for a notebook that has
// no file yet.
func (nb *Notebook) ResultsDir() string {
	if nb.Path == "" {
		return ""
	}
	return strings.TrimSuffix(nb.Path, filepath.Ext(nb.Path)) + ".results"
}

// KeepResults turns keeping results beside the notebook on or off. The
// TUI turns it on; `gravf-tui run` leaves it off, so that a headless run
// writes only what its cells ask for.
func (nb *Notebook) KeepResults(on bool) { nb.keep = on }

// Restored reports when the result of cell i's current inputs was kept,
// when it was read back by RestoreResults rather than computed in this
// session.
func (nb *Notebook) Restored(i int) (time.Time, bool) {
	if i < 0 || i >= len(nb.Cells) {
		return time.Time{}, false
	}
	t, ok := nb.restored[nb.Hash(i)]
	return t, ok
}

// RestoreResults reads the kept results of the notebook's cells back into
// its cache. A result is restored only when its cell's inputs hash to the
// same value and the files it names are unchanged; others are left
// alone (a later run replaces them). It returns the cells restored.
func (nb *Notebook) RestoreResults() ([]int, error) {
	dir := nb.ResultsDir()
	if dir == "" {
		return nil, nil
	}
	var restored []int
	var errs []error
	for i, c := range nb.Cells {
		k := c.In.Kind()
		if !keeps(k) {
			continue
		}
		h := nb.Hash(i)
		if _, ok := nb.cache.get("cell:" + h); ok {
			continue
		}
		out, saved, err := nb.readResult(filepath.Join(dir, resultName(k, h)), k, h)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if out == nil {
			continue
		}
		nb.cache.put("cell:"+h, entry{out: out})
		if nb.restored == nil {
			nb.restored = map[string]time.Time{}
		}
		nb.restored[h] = saved
		restored = append(restored, i)
	}
	return restored, errors.Join(errs...)
}

// SaveResults writes the kept results of every cell that has one for its
// current inputs (after Save moved the notebook, for example).
func (nb *Notebook) SaveResults() error {
	var errs []error
	for i, c := range nb.Cells {
		if !keeps(c.In.Kind()) {
			continue
		}
		if out, err, ok := nb.Result(i); ok && err == nil {
			errs = append(errs, keepResult(nb.ResultsDir(), nb.Dir(), c.In.Kind(), nb.Hash(i), out, time.Now()))
		}
	}
	return errors.Join(errs...)
}

func resultName(k Kind, hash string) string { return string(k) + "-" + hash + ".json" }

// keptFiles lists the files an output names (resolved paths).
func keptFiles(out Output) []string {
	switch o := out.(type) {
	case *SimulateOutput:
		if o.Trace != "" {
			return []string{o.Trace}
		}
	case *ExportOutput:
		return []string{filepath.Join(o.Dir, "manifest.json")}
	}
	return nil
}

// rebase rewrites the paths an output holds with f (to make them relative
// to the notebook's folder, and back).
func rebase(out Output, f func(string) string) {
	switch o := out.(type) {
	case *SimulateOutput:
		if o.Trace != "" {
			o.Trace = f(o.Trace)
		}
	case *ExportOutput:
		o.Dir = f(o.Dir)
	}
}

// keepResult writes one result file into dir (nothing when dir is ""). A
// sweep that was cancelled is not kept.
func keepResult(dir, nbDir string, k Kind, hash string, out Output, saved time.Time) error {
	if dir == "" || !keeps(k) || out == nil {
		return nil
	}
	if so, ok := out.(*SweepOutput); ok && (so == nil || !so.Complete) {
		return nil
	}
	rel := func(p string) string {
		if r, err := relTo(nbDir, p); err == nil {
			return r
		}
		return p
	}
	rf := resultFile{Version: resultsVersion, Kind: k, Hash: hash, Saved: saved.UTC()}
	for _, p := range keptFiles(out) {
		st, err := os.Stat(p)
		if err != nil {
			return nil // nothing to restore it with later
		}
		rf.Files = append(rf.Files, keptFile{Path: rel(p), Size: st.Size(), ModTime: st.ModTime().UnixNano()})
	}
	cp, err := copyOutput(k, out)
	if err != nil {
		return err
	}
	rebase(cp, rel)
	if rf.Output, err = json.Marshal(cp); err != nil {
		return fmt.Errorf("keeping the %s result: %w", k, err)
	}
	data, err := json.MarshalIndent(rf, "", "  ")
	if err != nil {
		return fmt.Errorf("keeping the %s result: %w", k, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("keeping the %s result: %w", k, err)
	}
	if err := outfile.WriteFile(filepath.Join(dir, resultName(k, hash)), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("keeping the %s result: %w", k, err)
	}
	return prune(dir, k)
}

// maxKept is how many results of one kind the folder keeps; the oldest
// go first, so that trying many inputs does not fill the disk.
const maxKept = 32

// prune removes the oldest result files of kind k beyond maxKept.
func prune(dir string, k Kind) error {
	files, err := filepath.Glob(filepath.Join(dir, string(k)+"-*.json"))
	if err != nil || len(files) <= maxKept {
		return err
	}
	type aged struct {
		path string
		t    time.Time
	}
	var all []aged
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			all = append(all, aged{f, st.ModTime()})
		}
	}
	slices.SortFunc(all, func(a, b aged) int { return a.t.Compare(b.t) })
	for _, f := range all[:max(0, len(all)-maxKept)] {
		if err := os.Remove(f.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("keeping results: %w", err)
		}
	}
	return nil
}

// copyOutput returns a copy of out through JSON, so that rebasing its
// paths leaves the cached output alone.
func copyOutput(k Kind, out Output) (Output, error) {
	data, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("keeping the %s result: %w", k, err)
	}
	return decodeOutput(k, data)
}

func decodeOutput(k Kind, data []byte) (Output, error) {
	var out Output
	switch k {
	case KindSimulate:
		out = &SimulateOutput{}
	case KindSweep:
		out = &SweepOutput{}
	case KindExport:
		out = &ExportOutput{}
	default:
		return nil, fmt.Errorf("no kept results for %s cells", k)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return nil, err
	}
	return out, nil
}

// readResult reads one kept result; a missing file, or one whose files
// changed, gives nil without an error.
func (nb *Notebook) readResult(path string, k Kind, hash string) (Output, time.Time, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	var rf resultFile
	if err := json.Unmarshal(data, &rf); err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: %w", path, err)
	}
	if rf.Version != resultsVersion || rf.Kind != k || rf.Hash != hash {
		return nil, time.Time{}, nil
	}
	for _, f := range rf.Files {
		st, err := os.Stat(nb.Resolve(f.Path))
		if err != nil || st.Size() != f.Size || st.ModTime().UnixNano() != f.ModTime {
			return nil, time.Time{}, nil
		}
	}
	out, err := decodeOutput(k, rf.Output)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: %w", path, err)
	}
	rebase(out, nb.Resolve)
	return out, rf.Saved, nil
}

// relTo returns p relative to dir when p lies inside dir.
func relTo(dir, p string) (string, error) {
	ad, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	ap, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	r, err := filepath.Rel(ad, ap)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside %s", p, dir)
	}
	return r, nil
}
