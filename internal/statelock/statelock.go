// Package statelock keeps two processes from using one state directory at
// once: Acquire takes an exclusive flock(2) on <dir>/lock and writes the
// holder's PID into it; a second Acquire fails at once, naming that PID.
// The kernel drops the lock when the holder exits, even by SIGKILL, so a
// crash leaves no stale lock behind.
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

// FileName is the lock file's name in the state directory.
const FileName = "lock"

// Lock is a held state-directory lock.
type Lock struct {
	f *os.File
}

// ErrHeld is wrapped by Acquire's error when another process holds the lock.
var ErrHeld = errors.New("held by another process")

// Acquire locks dir (which must exist) for this process. When another
// process holds it, the error names that process's PID:
//
//	statelock /var/lib/tridboard: held by another process (PID 1234)
func Acquire(dir string) (*Lock, error) {
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("statelock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if pid := readPID(f); pid > 0 {
				return nil, fmt.Errorf("statelock %s: %w (PID %d)", dir, ErrHeld, pid)
			}
			return nil, fmt.Errorf("statelock %s: %w", dir, ErrHeld)
		}
		return nil, fmt.Errorf("statelock %s: flock: %w", dir, err)
	}
	// The PID only names the holder in the error of a second Acquire: a
	// full disk must not keep the daemon from starting, so a failed write
	// leaves the lock held without it.
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f}, nil
}

func readPID(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil {
		return 0
	}
	return pid
}

// Release unlocks. The PID stays in the file: it is only read while the
// lock is held.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
