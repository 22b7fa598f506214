package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules/st3d"
)

// TestExportLeavesJournal (issue 23): an export while the daemon writes the
// journal reads it and nothing else. The journal ends in the first bytes of
// a record being written: the export prints the game before it, and the
// journal stays byte for byte as the daemon wrote it, with nothing cut or
// copied aside.
func TestExportLeavesJournal(t *testing.T) {
	dir := t.TempDir()
	s, err := game.New(dir, st3d.System, "", game.Tags{Event: "Export"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"Nc3W", "Nb6B"} {
		if _, _, err := s.PlayNotation(m); err != nil {
			t.Fatal(err)
		}
	}
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The head of the next record: the daemon is in the middle of its write.
	if _, err := f.WriteString(`000001a0 1234abcd {"t":"move","seq":3,"mo`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := run("export", "--state-dir", dir)
	if code != exitOK || !strings.Contains(out, "1. Nc3W Nb6B") {
		t.Errorf("export: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, before) {
		t.Errorf("export changed the journal: %d bytes, the daemon wrote %d", len(after), len(before))
	}
	if m, _ := filepath.Glob(path + ".damaged*"); len(m) > 0 {
		t.Errorf("export copied the journal aside: %v", m)
	}
}
