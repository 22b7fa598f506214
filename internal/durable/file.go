package durable

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File is what a log needs of an *os.File; tests inject failures through it.
type File interface {
	io.Writer
	Sync() error
	Truncate(size int64) error
	Close() error
}

// Truncate cuts f back to size and fsyncs it.
func Truncate(f File, size int64) error {
	if err := f.Truncate(size); err != nil {
		return err
	}
	return f.Sync()
}

// CutTail deals with a log whose valid records end at end, before damage:
// it saves data, the whole damaged file, to aside (fsync'd), cuts f back to
// end and fsyncs it, then fsyncs dir, the directory of both. The error says
// which step failed.
func CutTail(f File, dir string, data []byte, end int64, aside string) error {
	if err := WriteFile(aside, data); err != nil {
		return fmt.Errorf("saving it aside: %w", err)
	}
	if err := Truncate(f, end); err != nil {
		return fmt.Errorf("cutting it back: %w", err)
	}
	if err := SyncDir(dir); err != nil {
		return fmt.Errorf("syncing its directory: %w", err)
	}
	return nil
}

// WriteFile creates or replaces name with data and fsyncs it. A crash may
// leave it partly written: see WriteAtomic.
func WriteFile(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteAtomic replaces name with data so that a crash leaves either the old
// file or the new one: it writes name.tmp, fsyncs it, renames it over name
// and fsyncs the directory.
func WriteAtomic(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := WriteFile(tmp, data); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	return SyncDir(filepath.Dir(name))
}

// WriteAtomicMode is WriteAtomic for a file of the given mode, never more
// open than mode even for a moment (a secret: 0600): a crash leaves either
// the old file or the new one.
func WriteAtomicMode(name string, data []byte, mode os.FileMode) error {
	tmp := name + ".tmp"
	os.Remove(tmp)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, mode) // whatever the umask took away
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return SyncDir(filepath.Dir(name))
}

// SyncDir fsyncs a directory, so that the names created, renamed or removed
// in it last.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
