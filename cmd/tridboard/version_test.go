package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// A running program whose file an upgrade replaced (a new file renamed over
// it, as dpkg does) is told apart from one still on disk: here a copy of
// sleep(1), as the daemon's own /proc/self/exe cannot be replaced under a
// test.
func TestExeGone(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(t.TempDir(), "tridboard")
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "600")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	link := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/exe"
	if exeGone(link) {
		t.Errorf("before the upgrade: %s reads as replaced", link)
	}
	if err := os.WriteFile(exe+".dpkg-new", []byte("the new version"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(exe+".dpkg-new", exe); err != nil {
		t.Fatal(err)
	}
	if !exeGone(link) {
		t.Errorf("after the upgrade: %s does not read as replaced", link)
	}
	if exeReplaced() {
		t.Error("the test binary reads as replaced")
	}
}
