package durable

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWriteAtomicModeReplacesWithTheModeExactly(t *testing.T) {
	old := syscall.Umask(0o077) // a umask that would take more than the mode
	defer syscall.Umask(old)
	for _, mode := range []os.FileMode{0o600, 0o644} {
		name := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := WriteAtomicMode(name, []byte("new"), mode); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(name)
		st, _ := os.Stat(name)
		if err != nil || string(b) != "new" || st.Mode().Perm() != mode {
			t.Errorf("mode %v: read %q (%v), mode %v", mode, b, err, st.Mode().Perm())
		}
		if _, err := os.Stat(name + ".tmp"); !os.IsNotExist(err) {
			t.Errorf("mode %v: the temporary file is left: %v", mode, err)
		}
	}
}

func TestWriteAtomicModeFailureLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomicMode(filepath.Join(dir, "missing", "f"), []byte("new"), 0o600); err == nil {
		t.Fatal("a write into a missing directory succeeded")
	}
	if b, _ := os.ReadFile(name); string(b) != "old" {
		t.Errorf("the old file reads %q", b)
	}
}
