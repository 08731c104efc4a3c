package outfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// leftovers lists the temporary names in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if strings.Contains(e.Name(), ".tmp") {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestRegularFileIsReplacedAtomically(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.tsv")
	if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(f, "new\n"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "old\n" {
		t.Fatalf("before Commit the target holds %q, want the old content", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "new\n" {
		t.Fatalf("after Commit: %q", got)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Fatalf("temporary files left: %v", l)
	}
	f.Discard() // a no-op after Commit
	if got := readFile(t, p); got != "new\n" {
		t.Fatalf("Discard after Commit changed the file: %q", got)
	}
}

func TestDiscardKeepsTheOldContent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.tsv")
	os.WriteFile(p, []byte("old\n"), 0o644)
	err := Write(p, Options{}, func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("the run failed")
	})
	if err == nil || err.Error() != "the run failed" {
		t.Fatalf("err = %v", err)
	}
	if got := readFile(t, p); got != "old\n" {
		t.Fatalf("target = %q after a failed write", got)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Fatalf("temporary files left: %v", l)
	}
}

func TestModeIsKept(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "secret.tsv")
	os.WriteFile(p, []byte("old"), 0o600)
	os.Chmod(p, 0o600)
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("an existing 0600 file became %v", fi.Mode().Perm())
	}
	// A new file gets the requested mode, less the umask.
	q := filepath.Join(dir, "new.sh")
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	if err := WriteFile(q, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(q); fi.Mode().Perm() != 0o755 {
		t.Fatalf("new file mode %v, want 0755", fi.Mode().Perm())
	}
}

func TestSymlinksAreFollowed(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "data", "real.tsv")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("old"), 0o640)
	os.Chmod(real, 0o640)
	link := filepath.Join(dir, "link.tsv")
	chain := filepath.Join(dir, "chain.tsv")
	if err := os.Symlink("data/real.tsv", link); err != nil { // relative
		t.Fatal(err)
	}
	if err := os.Symlink(link, chain); err != nil { // absolute, to a link
		t.Fatal(err)
	}
	if err := WriteFile(chain, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, chain} {
		fi, err := os.Lstat(l)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a symbolic link (%v)", l, err)
		}
	}
	if got := readFile(t, real); got != "new" {
		t.Fatalf("the link's target holds %q", got)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Fatalf("the target's mode became %v", fi.Mode().Perm())
	}
	if l := leftovers(t, filepath.Join(dir, "data")); len(l) > 0 {
		t.Fatalf("temporary files left beside the target: %v", l)
	}

	// A dangling link names the file to create.
	dangling := filepath.Join(dir, "dangling.tsv")
	os.Symlink("data/created.tsv", dangling)
	if err := WriteFile(dangling, []byte("made"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "data", "created.tsv")); got != "made" {
		t.Fatalf("dangling link's target holds %q", got)
	}

	// A loop is an error naming the user's path.
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Symlink(b, a)
	os.Symlink(a, b)
	err := WriteFile(a, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), "symbolic links") {
		t.Fatalf("loop: err = %v", err)
	}
}

func TestFIFOIsStreamedNotReplaced(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got := make(chan string)
	go func() {
		r, err := os.Open(p)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(r)
		r.Close()
		got <- string(b)
	}()
	if err := WriteFile(p, []byte("streamed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "streamed\n" {
		t.Fatalf("reader got %q", s)
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO became %v (%v)", fi.Mode(), err)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Fatalf("temporary files left: %v", l)
	}
}

func TestStreamWriteErrorNamesThePath(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	opened := make(chan struct{})
	go func() {
		r, err := os.Open(p)
		close(opened)
		if err == nil {
			r.Close() // the reader goes away: the writer gets EPIPE
		}
	}()
	f, err := Create(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	<-opened
	big := bytes.Repeat([]byte("x"), 1<<20)
	var werr error
	for i := 0; i < 8 && werr == nil; i++ {
		_, werr = f.Write(big)
	}
	if werr == nil {
		werr = f.Commit()
	}
	if werr == nil || !strings.Contains(werr.Error(), "write "+p) || !errors.Is(werr, syscall.EPIPE) {
		t.Fatalf("err = %v, want a write error on %s", werr, p)
	}
}

func TestErrorsNameTheUsersPath(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "missing", "out.tsv")
	err := WriteFile(p, []byte("x"), 0o644)
	if err == nil || !strings.HasPrefix(err.Error(), "create "+p+": ") || strings.Contains(err.Error(), ".tmp") {
		t.Fatalf("err = %v", err)
	}
	err = WriteFile(dir, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Fatalf("folder: err = %v", err)
	}
}

func TestDashIsStdoutWhenAsked(t *testing.T) {
	var buf bytes.Buffer
	if err := Write("-", Options{Stdout: &buf}, func(w io.Writer) error {
		_, err := io.WriteString(w, "to stdout")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "to stdout" {
		t.Fatalf("stdout got %q", buf.String())
	}
	// Without Stdout, "-" is a file name.
	dir := t.TempDir()
	t.Chdir(dir)
	if err := WriteFile("-", []byte("file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "-")); got != "file" {
		t.Fatalf("file - holds %q", got)
	}
}

// deadPID returns the id of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot start a process:", err)
	}
	pid := cmd.Process.Pid
	if processAlive(pid) {
		t.Skip("the pid was reused at once")
	}
	return pid
}

func TestStaleTemporariesAreCleanedUp(t *testing.T) {
	dir := t.TempDir()
	dead := deadPID(t)
	name := func(pid int, host, rnd string) string {
		return ".out.tsv.tmp" + strconv.Itoa(pid) + "." + host + "-" + rnd
	}
	stale := []string{name(dead, hostTag, "123"), name(dead, hostTag, "9") + ".old"}
	kept := []string{
		name(os.Getppid(), hostTag, "5"), // a live process's write
		name(os.Getpid(), hostTag, "6"),  // this process's
		name(dead, "0badc0de", "7"),      // another machine's
		".out.tsv.tmp-not-ours",          // not a name we make
		".other.tsv.tmp" + strconv.Itoa(dead) + "." + hostTag + "-1",
		"out.tsv.bak",
	}
	for _, n := range stale {
		os.MkdirAll(filepath.Join(dir, n, "sub"), 0o755) // folders of an export too
	}
	for _, n := range kept {
		os.WriteFile(filepath.Join(dir, n), []byte("keep"), 0o644)
	}
	if err := WriteFile(filepath.Join(dir, "out.tsv"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range stale {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			t.Errorf("stale %s was not removed", n)
		}
	}
	for _, n := range kept {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s was removed: %v", n, err)
		}
	}
}

func TestDirCommitAndReplace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "proj")
	write := func(content string, replace bool) error {
		d, err := CreateDir(p)
		if err != nil {
			return err
		}
		defer d.Discard()
		if err := d.WriteFile("rtl/top.v", []byte(content), 0o644); err != nil {
			return err
		}
		return d.Commit(replace)
	}
	if err := write("one", false); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(p, "rtl", "top.v")); got != "one" {
		t.Fatalf("top.v = %q", got)
	}
	if err := write("two", false); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("existing folder without replace: err = %v", err)
	}
	os.WriteFile(filepath.Join(p, "stale.v"), []byte("old"), 0o644)
	if err := write("two", true); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(p, "rtl", "top.v")); got != "two" {
		t.Fatalf("after replace top.v = %q", got)
	}
	if _, err := os.Stat(filepath.Join(p, "stale.v")); err == nil {
		t.Fatal("the replaced folder's files survived")
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Fatalf("temporary folders left: %v", l)
	}

	// A file is never replaced by a folder.
	file := filepath.Join(dir, "thesis.pdf")
	os.WriteFile(file, []byte("precious"), 0o644)
	d, err := CreateDir(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Commit(true); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("file target: err = %v", err)
	}
	if got := readFile(t, file); got != "precious" {
		t.Fatalf("the file became %q", got)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Fatalf("temporary folders left: %v", l)
	}
}

func TestDirWriteErrorNamesTheUsersPath(t *testing.T) {
	dir := t.TempDir()
	d, err := CreateDir(filepath.Join(dir, "proj"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Discard()
	// A file where a folder must go.
	os.WriteFile(filepath.Join(d.Path(), "rtl"), nil, 0o644)
	err = d.WriteFile("rtl/top.v", []byte("x"), 0o644)
	want := filepath.Join(dir, "proj", "rtl", "top.v")
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), ".tmp") {
		t.Fatalf("err = %v, want one naming %s", err, want)
	}
}
