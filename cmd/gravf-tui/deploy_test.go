package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// The runners in deploy/ are run for real: the Slurm scripts under bash
// with the variables Slurm sets, the Kubernetes containers' shell scripts
// under sh with the variables the Indexed Job sets. Three shards merged
// must equal the unsharded sweep.

const smallSweep = "--board u250 --kernel wcc --graph uniform:v=1024,d=8,seed=2 --sweep fpgas=1..3,pes=2|4,arch=gravf-m|gravf --sim"

func buildBinary(t *testing.T) string {
	t.Helper()
	testenv.NeedTool(t, "go")
	bin := filepath.Join(t.TempDir(), "bin")
	cmd := exec.Command("go", "build", "-o", filepath.Join(bin, "gravf-tui"), ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func runScript(t *testing.T, shell, script string, env ...string) string {
	t.Helper()
	cmd := exec.Command(shell, "-c", script)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", shell, err, errb.String())
	}
	return out.String()
}

func unsharded(t *testing.T) string {
	t.Helper()
	out, _, err := runCLI(t, append(append([]string{"explore"}, strings.Fields(smallSweep)...), "--json")...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSlurmRunner(t *testing.T) {
	testenv.NeedTool(t, "bash")
	bin := buildBinary(t)
	out := t.TempDir()
	sweep, _ := os.ReadFile("../../deploy/slurm/gravf-sweep.sbatch")
	merge, _ := os.ReadFile("../../deploy/slurm/gravf-merge.sbatch")
	env := []string{"GRAVF_TUI=" + filepath.Join(bin, "gravf-tui"), "GRAVF_SWEEP_OUT=" + out, "GRAVF_SWEEP_ARGS=" + smallSweep,
		"SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1", "SLURM_CPUS_PER_TASK=2"}
	for i := 1; i <= 3; i++ {
		runScript(t, "bash", string(sweep), append(env, "SLURM_ARRAY_TASK_ID="+string(rune('0'+i)))...)
	}
	summary := runScript(t, "bash", string(merge), env...)
	got, err := os.ReadFile(filepath.Join(out, "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != unsharded(t) {
		t.Fatalf("merged Slurm shards differ from the unsharded sweep:\n%s", got)
	}
	if !strings.Contains(summary, "Pareto front") {
		t.Fatalf("merge printed:\n%s", summary)
	}
	// The script's default sweep is valid: run it with a shard that holds
	// no point, which checks every argument without simulating.
	def := regexp.MustCompile(`ARGS=\$\{GRAVF_SWEEP_ARGS:-(.*)\}`).FindStringSubmatch(string(sweep))
	if def == nil {
		t.Fatal("no default ARGS in the Slurm script")
	}
	if _, _, err := runCLI(t, append(append([]string{"explore"}, strings.Fields(def[1])...), "--shard", "999/1000")...); err != nil {
		t.Fatalf("default sweep of the Slurm script: %v", err)
	}
}

// containerScript returns the shell script of the first container of a
// manifest (the block after "args:\n- |") and its SWEEP value.
func containerScript(t *testing.T, path string) (script, sweep string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if m := regexp.MustCompile(`value: "(--.*)"`).FindStringSubmatch(l); m != nil {
			sweep = m[1]
		}
		if strings.TrimSpace(l) != "- |" {
			continue
		}
		indent := len(lines[i+1]) - len(strings.TrimLeft(lines[i+1], " "))
		var b strings.Builder
		for _, s := range lines[i+1:] {
			if len(s)-len(strings.TrimLeft(s, " ")) < indent || strings.TrimSpace(s) == "" {
				break
			}
			b.WriteString(s[indent:] + "\n")
		}
		return b.String(), sweep
	}
	t.Fatalf("%s: no container script", path)
	return "", ""
}

func TestKubernetesRunner(t *testing.T) {
	testenv.NeedTool(t, "sh")
	bin := buildBinary(t)
	out := t.TempDir()
	shard, defSweep := containerScript(t, "../../deploy/k8s/gravf-sweep.yaml")
	merge, _ := containerScript(t, "../../deploy/k8s/gravf-merge.yaml")
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "OUT=" + out, "SHARDS=3", "SWEEP=" + smallSweep}
	for i := range 3 {
		runScript(t, "sh", shard, append(env, "JOB_COMPLETION_INDEX="+string(rune('0'+i)))...)
	}
	runScript(t, "sh", merge, env...)
	got, err := os.ReadFile(filepath.Join(out, "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != unsharded(t) {
		t.Fatalf("merged Kubernetes shards differ from the unsharded sweep:\n%s", got)
	}
	if defSweep == "" {
		t.Fatal("no SWEEP in the manifest")
	}
	if _, _, err := runCLI(t, append(append([]string{"explore"}, strings.Fields(defSweep)...), "--shard", "999/1000")...); err != nil {
		t.Fatalf("default sweep of the manifest: %v", err)
	}
}
