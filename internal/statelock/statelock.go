// Package statelock keeps two processes from using one state directory at
// once: Acquire takes an exclusive flock(2) on the directory itself and
// writes the holder's PID into <dir>/lock; a second Acquire fails at once,
// naming that PID. The lock is on the directory, not on a file in it, so
// that deleting or replacing the lock file does not let a second daemon in
// (the directory cannot be removed while it holds the journals). The kernel
// drops the lock when the holder exits, even by SIGKILL, so a crash leaves
// no stale lock behind.
package statelock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// FileName is the name of the file in the state directory that names the
// holder's PID. It only informs: the lock is the directory's.
const FileName = "lock"

// Lock is a held state-directory lock.
type Lock struct {
	d *os.File // the directory, flocked
}

// ErrHeld is wrapped by Acquire's error when another process holds the lock.
var ErrHeld = errors.New("held by another process")

// Acquire locks dir (which must exist) for this process. When another
// process holds it, the error names that process's PID:
//
//	statelock /var/lib/tridboard: held by another process (PID 1234)
func Acquire(dir string) (*Lock, error) {
	d, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("statelock %s: %w", dir, err)
	}
	path := filepath.Join(dir, FileName)
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		d.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if pid := readPID(path); pid > 0 {
				return nil, fmt.Errorf("statelock %s: %w (PID %d)", dir, ErrHeld, pid)
			}
			return nil, fmt.Errorf("statelock %s: %w", dir, ErrHeld)
		}
		return nil, fmt.Errorf("statelock %s: flock: %w", dir, err)
	}
	// The PID only names the holder in the error of a second Acquire: a
	// full disk must not keep the daemon from starting, so a failed write
	// leaves the lock held without it.
	if f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_CLOEXEC, 0o644); err == nil {
		f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
		f.Close()
	}
	return &Lock{d: d}, nil
}

func readPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > 32 {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0
	}
	return pid
}

// Release unlocks. The PID stays in the file: it is only read while the
// lock is held.
func (l *Lock) Release() error {
	if l == nil || l.d == nil {
		return nil
	}
	err := l.d.Close()
	l.d = nil
	return err
}
