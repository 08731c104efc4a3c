package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
)

// runStatus runs a command line as main does and returns stdout, stderr
// and the exit status.
func runStatus(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := execute(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

// evilBoardFile writes the AC-510 board with a part that would run a
// command in the exported Vivado script.
func evilBoardFile(t *testing.T, dir, part string) string {
	t.Helper()
	src, err := boards.Source("ac510")
	if err != nil {
		t.Fatal(err)
	}
	data := regexp.MustCompile(`(?m)^part .*$`).ReplaceAllLiteralString(string(src), "part = "+part)
	f := filepath.Join(dir, "evil.toml")
	if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestHostileBoardFileIsRefused is issue 16 item 1 at the command line: a
// board whose part holds Tcl or yosys commands fails `boards show` and
// `export` with the file, line and field, and no project is written.
func TestHostileBoardFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	for _, part := range []string{`"xcku060[exec touch pwned]"`, `"xcku060\nsynth -top x; ! touch pwned"`, `"$(touch pwned)"`} {
		f := evilBoardFile(t, dir, part)
		data, _ := os.ReadFile(f)
		line := 1 + strings.Count(string(data[:regexp.MustCompile(`(?m)^part =`).FindIndex(data)[0]]), "\n")
		_, stderr, code := runStatus(t, "boards", "show", f)
		if code != exitUsage || !strings.Contains(stderr, fmt.Sprintf("evil.toml:%d:", line)) || !strings.Contains(stderr, "fpga.part: must be a Xilinx part name") {
			t.Fatalf("boards show with part %s: exit %d, stderr %q", part, code, stderr)
		}
		out := filepath.Join(dir, "proj")
		_, stderr, code = runStatus(t, "export", "--board", f, "--kernel", "wcc", "--graph", "line:n=8", "--fpgas", "1", "--pes", "1", "--out", out)
		if code != exitUsage || !strings.Contains(stderr, "fpga.part") {
			t.Fatalf("export with part %s: exit %d, stderr %q", part, code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatal("a project was written")
		}
	}
}

// TestExportHintIsShellQuoted: the "next:" line can be pasted into a shell
// whatever the folder is called.
func TestExportHintIsShellQuoted(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "my proj $(touch pwned) 'q'")
	stdout, stderr, code := runStatus(t, "export", "--kernel", "wcc", "--graph", "line:n=8", "--fpgas", "1", "--pes", "1", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var hint string
	for _, l := range strings.Split(stdout, "\n") {
		if h, ok := strings.CutPrefix(l, "next: "); ok {
			hint = h
		}
	}
	cmd, ok := strings.CutSuffix(hint, " && make sim")
	if !ok {
		t.Fatalf("no hint in %q", stdout)
	}
	sh := exec.Command("sh", "-c", cmd+" && pwd -P")
	sh.Dir = base
	got, err := sh.Output()
	want, _ := filepath.EvalSymlinks(dir)
	if err != nil || strings.TrimSpace(string(got)) != want {
		t.Fatalf("%q ran in %q (%v), want %q", cmd, got, err, want)
	}
	if _, err := os.Stat(filepath.Join(base, "pwned")); err == nil {
		t.Fatal("the hint ran a command")
	}
}

// TestExportForce is issue 16 item 3 at the command line.
func TestExportForce(t *testing.T) {
	base := t.TempDir()
	export := func(out string, force bool) (string, int) {
		args := []string{"export", "--kernel", "wcc", "--graph", "line:n=8", "--fpgas", "1", "--pes", "1", "--out", out}
		if force {
			args = append(args, "--force")
		}
		_, stderr, code := runStatus(t, args...)
		return stderr, code
	}
	thesis := filepath.Join(base, "thesis")
	os.Mkdir(thesis, 0o755)
	os.WriteFile(filepath.Join(thesis, "draft.tex"), []byte("work"), 0o644)
	if stderr, code := export(thesis, true); code != exitUsage || !strings.Contains(stderr, "is not a previous export") {
		t.Fatalf("--force on a foreign folder: exit %d, %q", code, stderr)
	}
	file := filepath.Join(base, "notes.txt")
	os.WriteFile(file, []byte("notes"), 0o644)
	if stderr, code := export(file, true); code != exitUsage || !strings.Contains(stderr, "never replaces a file") {
		t.Fatalf("--force on a file: exit %d, %q", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(thesis, "draft.tex")); string(b) != "work" {
		t.Fatal("the foreign folder lost its file")
	}
	if b, _ := os.ReadFile(file); string(b) != "notes" {
		t.Fatal("the file was replaced")
	}
	proj := filepath.Join(base, "proj")
	if stderr, code := export(proj, false); code != 0 {
		t.Fatal(stderr)
	}
	if stderr, code := export(proj, false); code != exitUsage || !strings.Contains(stderr, "--force") {
		t.Fatalf("second export without --force: exit %d, %q", code, stderr)
	}
	if stderr, code := export(proj, true); code != 0 {
		t.Fatalf("--force on a previous export: %s", stderr)
	}
}

// TestOutputIsNotInput is issue 16 item 3: writing over the input is
// refused before anything runs, also through a symbolic link.
func TestOutputIsNotInput(t *testing.T) {
	dir := t.TempDir()
	g := filepath.Join(dir, "same.txt")
	os.WriteFile(g, []byte("0 1\n1 2\n"), 0o644)
	link := filepath.Join(dir, "link.txt")
	os.Symlink("same.txt", link)
	for _, out := range []string{g, link} {
		_, stderr, code := runStatus(t, "ref", "--kernel", "wcc", "--graph", g, "--out", out)
		if code != exitUsage || !strings.Contains(stderr, "is the input --graph") {
			t.Fatalf("ref --out %s: exit %d, %q", out, code, stderr)
		}
	}
	if b, _ := os.ReadFile(g); string(b) != "0 1\n1 2\n" {
		t.Fatalf("the input graph now holds %q", b)
	}

	if _, stderr, code := runStatus(t, "sim", "--kernel", "wcc", "--graph", g, "--fpgas", "1", "--pes", "1", "--trace", link); code != exitUsage || !strings.Contains(stderr, "is the input --graph") {
		t.Fatalf("sim --trace onto the graph: exit %d, %q", code, stderr)
	}
	tr := filepath.Join(dir, "t.gz")
	if _, stderr, code := runStatus(t, "sim", "--kernel", "wcc", "--graph", g, "--fpgas", "1", "--pes", "1", "--detail", "cycle", "--trace", tr); code != 0 {
		t.Fatal(stderr)
	}
	before, _ := os.ReadFile(tr)
	_, stderr, code := runStatus(t, "trace", "export", "--chrome", tr, tr)
	if code != exitUsage || !strings.Contains(stderr, "is the input trace") {
		t.Fatalf("trace export onto its input: exit %d, %q", code, stderr)
	}
	if after, _ := os.ReadFile(tr); !bytes.Equal(before, after) {
		t.Fatal("the trace was overwritten")
	}
}

// TestOutputsKeepLinksFIFOsAndModes is issue 16 item 2 at the command
// line: ref --out and sim --trace through a symbolic link write the file
// it names and leave the link; a FIFO is streamed to, not replaced; an
// existing 0600 file stays 0600.
func TestOutputsKeepLinksFIFOsAndModes(t *testing.T) {
	dir := t.TempDir()
	karate := datasets.Path(t, "karate.mtx")
	real := filepath.Join(dir, "real.tsv")
	os.WriteFile(real, []byte("old"), 0o600)
	os.Chmod(real, 0o600)
	link := filepath.Join(dir, "link.tsv")
	os.Symlink("real.tsv", link)
	if _, stderr, code := runStatus(t, "ref", "--kernel", "wcc", "--graph", karate, "-q", "--out", link); code != 0 {
		t.Fatal(stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("ref --out replaced the link")
	}
	fi, _ := os.Stat(real)
	b, _ := os.ReadFile(real)
	if !strings.HasPrefix(string(b), "vertex\t") || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the link's target: mode %v, %q", fi.Mode().Perm(), b[:min(len(b), 20)])
	}

	traceReal := filepath.Join(dir, "run.gz")
	traceLink := filepath.Join(dir, "latest.gz")
	os.Symlink("run.gz", traceLink)
	if _, stderr, code := runStatus(t, "sim", "--kernel", "wcc", "--graph", karate, "--fpgas", "1", "--pes", "2", "--detail", "cycle", "--trace", traceLink); code != 0 {
		t.Fatal(stderr)
	}
	if fi, err := os.Lstat(traceLink); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("sim --trace replaced the link")
	}
	if _, stderr, code := runStatus(t, "trace", "show", traceReal); code != 0 {
		t.Fatalf("the trace behind the link: %s", stderr)
	}

	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	got := make(chan []byte)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	if _, stderr, code := runStatus(t, "ref", "--kernel", "wcc", "--graph", karate, "-q", "--out", fifo); code != 0 {
		t.Fatal(stderr)
	}
	if b := <-got; !strings.HasPrefix(string(b), "vertex\t") {
		t.Fatalf("the FIFO's reader got %q", b)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced by a file")
	}
}

// smallNotebook models WCC on a small graph: quick to run.
const smallNotebook = `version = 1
title = "small"

[[cell]]
kind = "platform"
board = "ac510"
fpgas = 2
pes = 2

[[cell]]
kind = "kernel"
kernel = "wcc"

[[cell]]
kind = "dataset"
graph = "line:n=64"

[[cell]]
kind = "model"
latency = false
`

// failWriter fails every write, as a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestStdoutWriteErrorsFail is issue 16 item 9: output lost on standard
// output is an error, for text and JSON alike.
func TestStdoutWriteErrorsFail(t *testing.T) {
	nb := filepath.Join(t.TempDir(), "small.gravf.toml")
	os.WriteFile(nb, []byte(smallNotebook), 0o644)
	for _, args := range [][]string{
		{"graph", "stats", "--graph", "line:n=8"},
		{"model", "--kernel", "wcc", "--graph", "line:n=64", "--no-latency"},
		{"sim", "--kernel", "wcc", "--graph", "line:n=64", "--fpgas", "1", "--pes", "1"},
		{"run", nb},
		{"run", nb, "--json"},
		{"kernels"},
		{"ref", "--kernel", "wcc", "--graph", "line:n=8", "-q"},
	} {
		var errb bytes.Buffer
		code := execute(context.Background(), args, failWriter{}, &errb)
		if code != exitFailure || !strings.Contains(errb.String(), "no space left on device") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

func TestExitStatuses(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{errors.New("boom"), exitFailure},
		{usagef("bad flag"), exitUsage},
		{limitError{errors.New("limit")}, exitLimit},
		{context.Canceled, exitInterrupted},
	} {
		if got := exitStatus(c.err); got != c.want {
			t.Errorf("exitStatus(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}

// forever is a kernel that never converges (every vertex sends in every
// superstep).
const forever = "../../kernel/testdata/forever"

// TestSuperstepLimitIsAnError is issue 16 item 4: reaching the superstep
// limit is an error (status 3, a message naming the limit and the flag) in
// ref, fast detail and cycle detail, also with -q; --partial accepts the
// partial result.
func TestSuperstepLimitIsAnError(t *testing.T) {
	for _, args := range [][]string{
		{"ref", "--kernel", forever, "--graph", "line:n=8", "-q"},
		{"sim", "--kernel", forever, "--graph", "line:n=8", "--fpgas", "1", "--pes", "1"},
		{"sim", "--kernel", forever, "--graph", "line:n=8", "--fpgas", "2", "--pes", "1", "--detail", "cycle"},
	} {
		_, stderr, code := runStatus(t, args...)
		if code != exitLimit || !strings.Contains(stderr, "superstep limit of 1000") || !strings.Contains(stderr, "--partial") {
			t.Errorf("%v: exit %d, stderr %q", args[:4], code, stderr)
		}
		stdout, stderr, code := runStatus(t, append(args, "--max-supersteps", "30", "--partial")...)
		if code != 0 || !strings.Contains(stderr, "partial result") || !strings.Contains(stderr, "superstep limit of 30") || stdout == "" {
			t.Errorf("%v --partial: exit %d, stderr %q", args[:4], code, stderr)
		}
	}
}

// TestLimitFlagsAreChecked is issue 16 item 12: a flag that would be
// ignored or silently replaced is refused, and fast detail stops at
// --max-cycles (it ignored it before).
func TestLimitFlagsAreChecked(t *testing.T) {
	for _, partial := range []string{"--partial=false", "--partial"} {
		_, stderr, code := runStatus(t, "sim", "--kernel", forever, "--graph", "line:n=8", "--fpgas", "1", "--pes", "1", "--max-cycles", "1000", partial)
		if code != exitLimit || !strings.Contains(stderr, "cycle limit 1000") || !strings.Contains(stderr, "--max-cycles") {
			t.Errorf("fast detail --max-cycles %s: exit %d, stderr %q", partial, code, stderr)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--detail", "cycle", "--trace", "t.gz", "--trace-interval", "0"}, "at least 1 cycle"},
		{[]string{"--max-supersteps", "-1"}, "must not be negative"},
	} {
		args := append([]string{"sim", "--kernel", "wcc", "--graph", "line:n=8", "--fpgas", "1", "--pes", "1"}, c.args...)
		_, stderr, code := runStatus(t, args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, stderr)
		}
	}
}

// TestInterruptKeepsTrace is issue 16 item 4: an interrupted cycle-level
// run exits 130, says where it stopped and where the trace is, and the
// trace reads back, marked partial.
func TestInterruptKeepsTrace(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "run.gz")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	var out, errb bytes.Buffer
	code := execute(ctx, []string{"sim", "--kernel", forever, "--graph", "uniform:v=400,d=4", "--fpgas", "2", "--pes", "2",
		"--detail", "cycle", "--max-supersteps", "100000000", "--trace", tr}, &out, &errb)
	if code != exitInterrupted || !strings.Contains(errb.String(), "interrupted at cycle") || !strings.Contains(errb.String(), "the trace so far is in "+tr) {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	stdout, stderr, code := runStatus(t, "trace", "show", tr)
	if code != 0 || !strings.Contains(stdout, "partial  the run stopped early (interrupted)") {
		t.Fatalf("trace show: exit %d, %q %q", code, stdout[:min(len(stdout), 400)], stderr)
	}
	// Fast detail says where it stopped and that it kept nothing.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	errb.Reset()
	fastTrace := filepath.Join(dir, "fast.gz")
	code = execute(ctx, []string{"sim", "--kernel", forever, "--graph", "uniform:v=400,d=4", "--fpgas", "2", "--pes", "2",
		"--max-supersteps", "100000000", "--trace", fastTrace}, &out, &errb)
	if code != exitInterrupted || !strings.Contains(errb.String(), "interrupted at cycle") || !strings.Contains(errb.String(), "fast detail keeps no partial result (no trace written)") {
		t.Fatalf("fast detail: exit %d, stderr %q", code, errb.String())
	}
	if _, err := os.Stat(fastTrace); !os.IsNotExist(err) {
		t.Errorf("fast detail left %s: %v", fastTrace, err)
	}
}

// TestInterruptContext: the first SIGINT cancels the context instead of
// killing the program.
func TestInterruptContext(t *testing.T) {
	var errb bytes.Buffer
	ctx, stop := interruptContext(&errb)
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGINT did not cancel the context")
	}
}

// TestUnbuildableDesignsAreRefused is issue 16 item 5: sim and export run
// the model's capacity check (more PEs than fit, data beyond the on-chip
// memory) and refuse what the board cannot hold, unless
// --force-unbuildable.
func TestUnbuildableDesignsAreRefused(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		design []string
		want   string
	}{
		{[]string{"--graph", "uniform:v=1000,d=4", "--fpgas", "1", "--pes", "1000"}, "at most 9"},
		{[]string{"--graph", "uniform:v=300000,d=16", "--fpgas", "1", "--pes", "9", "--mem", "bram"}, "edges in BRAM need"},
	} {
		for _, cmd := range []string{"sim", "model", "export"} {
			out := filepath.Join(dir, "proj")
			args := append([]string{cmd, "--kernel", "wcc", "--no-latency"}, c.design...)
			switch cmd {
			case "sim":
				args = slices.DeleteFunc(args, func(s string) bool { return s == "--no-latency" })
			case "export":
				args = append(slices.DeleteFunc(args, func(s string) bool { return s == "--no-latency" }), "--out", out)
			}
			_, stderr, code := runStatus(t, args...)
			if code != exitUsage || !strings.Contains(stderr, c.want) {
				t.Errorf("%s %v: exit %d, stderr %q", cmd, c.design, code, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatalf("export wrote an unbuildable project")
			}
		}
	}
	_, stderr, code := runStatus(t, "sim", "--kernel", "wcc", "--graph", "uniform:v=1000,d=4", "--fpgas", "1", "--pes", "16", "--force-unbuildable")
	if code != 0 {
		t.Fatalf("--force-unbuildable: exit %d, %s", code, stderr)
	}
}

// TestNotebookWritesOutsideRefused is issue 16 item 3: `run` refuses a
// notebook whose trace or forced export would land outside its folder
// (absolute, "..", or through a link), naming file and line, unless
// --allow-outside; paths inside the folder, and exports that only create,
// run as before.
func TestNotebookWritesOutsideRefused(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "nb")
	os.MkdirAll(dir, 0o755)
	os.Symlink(base, filepath.Join(dir, "up"))
	abs := filepath.Join(base, "abs.gz")
	head := smallNotebook + "\n[[cell]]\nkind = \"simulate\"\ndetail = \"fast\"\n"
	for _, c := range []struct {
		cells   string
		outside bool
	}{
		{head + "trace = \"in.gz\"\n", false},
		{head + "trace = \"sub/../in2.gz\"\n", false},
		{head + "trace = " + strconv.Quote(abs) + "\n", true},
		{head + "trace = \"../up.gz\"\n", true},
		{head + "trace = \"up/link.gz\"\n", true},
		{smallNotebook + "\n[[cell]]\nkind = \"export\"\nout = \"../proj\"\nforce = true\n", true},
		{smallNotebook + "\n[[cell]]\nkind = \"export\"\nout = \"../proj2\"\n", false},
	} {
		nb := filepath.Join(dir, "n.gravf.toml")
		os.WriteFile(nb, []byte(c.cells), 0o644)
		_, stderr, code := runStatus(t, "run", nb)
		if !c.outside {
			if code != 0 {
				t.Errorf("inside:\n%s\nexit %d: %s", c.cells, code, stderr)
			}
			continue
		}
		line := 0
		for i, l := range strings.Split(c.cells, "\n") {
			if strings.HasPrefix(l, "trace =") || strings.HasPrefix(l, "out =") {
				line = i + 1
			}
		}
		if code != exitUsage || !strings.Contains(stderr, "--allow-outside") || !strings.Contains(stderr, fmt.Sprintf("%s:%d: cell 5", nb, line)) {
			t.Errorf("outside:\n%s\nexit %d: %s (want line %d)", c.cells, code, stderr, line)
		}
		written := []string{abs, filepath.Join(base, "up.gz"), filepath.Join(base, "link.gz"), filepath.Join(base, "proj")}
		for _, f := range written {
			if _, err := os.Stat(f); err == nil {
				t.Fatalf("%s was written", f)
			}
		}
		if _, stderr, code := runStatus(t, "run", nb, "--allow-outside"); code != 0 {
			t.Errorf("--allow-outside: exit %d: %s", code, stderr)
		}
		for _, f := range written {
			os.RemoveAll(f)
		}
	}
}

// TestKernelErrorsSameStatusEverywhere is issue 16 item 9: a kernel with
// an error exits 2 from kernels show as from ref, with one message (no
// follow-up error); a binary graph file is not called empty.
func TestKernelErrorsSameStatusEverywhere(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bad")
	os.MkdirAll(dir, 0o755)
	src, err := os.ReadFile("../../samples/kernels/pr/kernel.toml")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), "contrib = update.rank / f32(degree)", "contrib = update.rank / degree", 1)
	os.WriteFile(filepath.Join(dir, "kernel.toml"), []byte(bad), 0o644)
	_, e1, c1 := runStatus(t, "kernels", "show", dir)
	_, e2, c2 := runStatus(t, "ref", "--kernel", dir, "--graph", "line:n=4")
	if c1 != exitUsage || c2 != exitUsage || e1 != e2 {
		t.Fatalf("kernels show: %d %q; ref: %d %q", c1, e1, c2, e2)
	}
	if strings.Contains(e1, "must assign") || strings.Count(e1, "kernel.toml:") != 1 {
		t.Fatalf("follow-up errors: %q", e1)
	}
	g := filepath.Join(t.TempDir(), "g.bin")
	os.WriteFile(g, make([]byte, 4096), 0o644)
	_, stderr, code := runStatus(t, "graph", "stats", "--graph", g)
	if code != exitUsage || !strings.Contains(stderr, "binary data") {
		t.Fatalf("binary graph: exit %d, %q", code, stderr)
	}
}

// runMainEnv makes the test binary act as gravf-tui, so that a test can
// run the program under limits a process must be started with (ulimit).
const runMainEnv = "GRAVF_TEST_RUN_MAIN"

func init() {
	if os.Getenv(runMainEnv) == "1" {
		os.Args = append([]string{"gravf-tui"}, os.Args[1:]...)
		main()
	}
}

// TestMemoryLimitIsAnError is issue 16 item 10: under ulimit -v 3 GB,
// rmat:scale=26 fails at once with a message (it died with Go's
// out-of-memory dump before).
func TestMemoryLimitIsAnError(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `ulimit -v 3000000 && exec "$0" graph stats --graph rmat:scale=26,ef=16`, exe)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage || !strings.Contains(string(out), "needs about") || !strings.Contains(string(out), "ulimit -v") {
		t.Fatalf("err %v, output:\n%s", err, out)
	}
	if strings.Contains(string(out), "fatal error") {
		t.Fatalf("the runtime ran out of memory:\n%s", out)
	}
}

// TestKilledWriteIsCleanedUp is issue 16 item 9: a write killed with
// SIGKILL leaves its temporary file beside the target (not in $TMPDIR)
// and the target untouched; the next write of the same file removes it.
func TestKilledWriteIsCleanedUp(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tr := filepath.Join(dir, "run.gz")
	os.WriteFile(tr, []byte("the previous trace"), 0o644)
	cmd := exec.Command(exe, "sim", "--kernel", forever, "--graph", "uniform:v=400,d=4", "--fpgas", "2", "--pes", "2",
		"--detail", "cycle", "--max-supersteps", "100000000", "--trace", tr)
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "TMPDIR="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	temps := func() []string {
		var out []string
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".run.gz.tmp") {
				out = append(out, e.Name())
			}
		}
		return out
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(temps()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if len(temps()) != 1 {
		t.Fatalf("temporary files beside the target while running: %v", temps())
	}
	if b, _ := os.ReadFile(tr); string(b) != "the previous trace" {
		t.Fatalf("the killed write changed the target: %q", b)
	}
	if _, stderr, code := runStatus(t, "sim", "--kernel", "wcc", "--graph", "line:n=8", "--fpgas", "1", "--pes", "1", "--detail", "cycle", "--trace", tr); code != 0 {
		t.Fatal(stderr)
	}
	if left := temps(); len(left) != 0 {
		t.Fatalf("the next write left %v", left)
	}
}

// TestLongPhasesShowProgress is issue 16 item 10: the phases that can run
// for minutes on a large graph (loading it, the model's reference run for
// the latency-aware prediction) show what they are doing on stderr once
// they have run for progressAfter (a second; zero here, so that a small
// graph shows the lines).
func TestLongPhasesShowProgress(t *testing.T) {
	defer func(d time.Duration) { progressAfter = d }(progressAfter)
	progressAfter = 0
	_, stderr, code := runStatus(t, "model", "--kernel", "wcc", "--graph", "uniform:v=3000,d=4", "--fpgas", "1", "--pes", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"loading uniform:v=3000", "reference run for the latency-aware prediction: superstep 1 ("} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// endless is a device that never ends, like /dev/zero without the NULs.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// TestJSONInputsAreBounded: a JSON file read back (validate --from,
// explore merge) that is binary data or never ends is refused at once
// with exit 2 (validate --from /dev/zero ran out of memory).
func TestJSONInputsAreBounded(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "zeros.json")
	if err := os.WriteFile(bin, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"validate", "--from", bin}, {"explore", "merge", bin}} {
		_, stderr, code := runStatus(t, args...)
		if code != exitUsage || !strings.Contains(stderr, bin+": binary data (a NUL byte at offset 0)") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	_, err := readBounded("dev", endless{}, 1<<20)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "dev: longer than 1 MiB") {
		t.Errorf("an endless input: %v", err)
	}
	data, err := readBounded("small", strings.NewReader(`{"a": 1}`), 1<<20)
	if err != nil || string(data) != `{"a": 1}` {
		t.Errorf("a small input: %q, %v", data, err)
	}
}
