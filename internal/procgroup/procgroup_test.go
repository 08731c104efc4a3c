//go:build unix

package procgroup

import (
	"bufio"
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCancelEndsGroup: cancelling a command ends the processes it
// started too (a shell with two background children and a pipe), and
// Wait returns promptly.
func TestCancelEndsGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := Command(ctx, "sh", "-c", "sleep 60 & sleep 60 & echo started; wait")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	if line, _ := bufio.NewReader(out).ReadString('\n'); strings.TrimSpace(line) != "started" {
		t.Fatalf("the shell said %q", line)
	}
	if err := syscall.Kill(-pgid, 0); err != nil {
		t.Fatalf("no process group %d: %v", pgid, err)
	}
	start := time.Now()
	cancel()
	if err := cmd.Wait(); err == nil {
		t.Error("a cancelled command succeeded")
	}
	if d := time.Since(start); d > 3*Grace {
		t.Errorf("Wait took %v after cancel", d)
	}
	deadline := time.Now().Add(2 * Grace)
	for {
		err := syscall.Kill(-pgid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still has processes after cancel (kill 0: %v)", pgid, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
