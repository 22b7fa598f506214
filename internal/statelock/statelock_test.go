package statelock

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be the second process: with
// STATELOCK_HOLD=<dir> it takes the lock, says "locked" and waits for its
// standard input to close.
func TestMain(m *testing.M) {
	if dir := os.Getenv("STATELOCK_HOLD"); dir != "" {
		l, err := Acquire(dir)
		if err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		fmt.Println("locked")
		bufio.NewReader(os.Stdin).ReadString('\n')
		l.Release()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// holder starts a child process holding the lock on dir.
func holder(t *testing.T, dir string) (*exec.Cmd, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "STATELOCK_HOLD="+dir)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	go func() { s, _ := bufio.NewReader(out).ReadString('\n'); line <- s }()
	select {
	case s := <-line:
		if strings.TrimSpace(s) != "locked" {
			t.Fatalf("child: %q", s)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("child did not take the lock")
	}
	return cmd, func() { in.Close(); cmd.Wait() }
}

func TestSecondProcessRefusedWithPID(t *testing.T) {
	dir := t.TempDir()
	cmd, stop := holder(t, dir)
	_, err := Acquire(dir)
	want := fmt.Sprintf("statelock %s: held by another process (PID %d)", dir, cmd.Process.Pid)
	if err == nil || err.Error() != want || !errors.Is(err, ErrHeld) {
		stop()
		t.Fatalf("Acquire while held: %v\n want %s", err, want)
	}
	stop()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatalf("Acquire after the holder exited: %v", err)
	}
	defer l.Release()
	b, _ := os.ReadFile(dir + "/" + FileName)
	if got, want := string(b), fmt.Sprintf("%d\n", os.Getpid()); got != want {
		t.Fatalf("lock file %q, want %q", got, want)
	}
}

// TestLockFileDeleted (issue 22): deleting (or replacing) the lock file
// under a running daemon does not let a second one use the directory.
func TestLockFileDeleted(t *testing.T) {
	dir := t.TempDir()
	_, stop := holder(t, dir)
	defer stop()
	if err := os.Remove(filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	if _, err := Acquire(dir); !errors.Is(err, ErrHeld) {
		t.Fatalf("Acquire after the lock file was deleted: %v, want ErrHeld", err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Acquire(dir)
	if !errors.Is(err, ErrHeld) {
		t.Fatalf("Acquire after the lock file was replaced: %v, want ErrHeld", err)
	}
}

func TestKilledHolderLeavesNoLock(t *testing.T) {
	dir := t.TempDir()
	cmd, stop := holder(t, dir)
	cmd.Process.Kill()
	stop()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatalf("Acquire after SIGKILL of the holder: %v", err)
	}
	l.Release()
}

func TestSameProcessTwice(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	// flock locks belong to the open file: a second open in this process
	// conflicts too, so a daemon started twice in one test is refused.
	if _, err := Acquire(dir); !errors.Is(err, ErrHeld) {
		t.Fatalf("second Acquire: %v, want ErrHeld", err)
	}
}

func TestMissingDir(t *testing.T) {
	dir := t.TempDir() + "/none"
	_, err := Acquire(dir)
	if want := "statelock " + dir + ": open " + dir + ": no such file or directory"; err == nil || err.Error() != want {
		t.Fatalf("error %v\n want %s", err, want)
	}
}
