package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sets"
)

// TestExportLeavesJournal (issue 23): an export while the daemon writes the
// journal reads it and nothing else. The journal ends in the first bytes of
// a record being written: the export prints the game before it, and the
// journal stays byte for byte as the daemon wrote it, with nothing cut or
// copied aside. The web pages' archive (/boards/<id>/games/<game>.pgn,
// issue 25) reads the journals of the running daemon the same way.
func TestExportLeavesJournal(t *testing.T) {
	for _, reader := range []struct {
		name   string
		export func(dir, id string) (string, error)
	}{
		{"tridboard export", func(dir, _ string) (string, error) {
			code, out, errs := run("export", "--state-dir", dir)
			if code != exitOK {
				return "", fmt.Errorf("exit %d: %s", code, errs)
			}
			return out, nil
		}},
		{"the web archive", func(dir, id string) (string, error) {
			a := journalArchive{dir: dir, board: "unit"}
			r, err := a.Record("unit", id)
			if err != nil {
				return "", err
			}
			var b bytes.Buffer
			err = r.Write(&b)
			return b.String(), err
		}},
	} {
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
		path, id := s.Path(), s.ID()
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
		out, err := reader.export(dir, id)
		if err != nil || !strings.Contains(out, "1. Nc3W Nb6B") {
			t.Errorf("%s: %q, %v", reader.name, out, err)
		}
		after, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(after, before) {
			t.Errorf("%s changed the journal: %d bytes, the daemon wrote %d", reader.name, len(after), len(before))
		}
		if m, _ := filepath.Glob(path + ".damaged*"); len(m) > 0 {
			t.Errorf("%s copied the journal aside: %v", reader.name, m)
		}
	}
}

// TestExportDuringGame (issue 23): `tridboard export`, run again and again
// by the real binary while `run --sim` plays a game, never changes the
// journal: every copy taken between exports is a prefix of the journal the
// daemon ends with, nothing is copied aside, and every move is in it.
func TestExportDuringGame(t *testing.T) {
	t.Parallel()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d := startDaemon(t, state, freeport.Addr(t))
	moves := sets.ST3DDemo[:6]
	d.play(t, st3d.Start(), moves)
	var snaps [][]byte
	exports := 0
	deadline := time.Now().Add(60 * time.Second)
	for seen := 0; seen < len(moves); {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon recognized %d of %d moves within 60 s", seen, len(moves))
		}
		for drained := false; !drained; {
			select {
			case l, ok := <-d.lines:
				if !ok {
					t.Fatalf("the daemon exited after %d of %d moves", seen, len(moves))
				}
				if f := strings.Fields(l); len(f) >= 2 && f[1] == moves[seen] {
					seen++
				}
			default:
				drained = true
			}
		}
		out, err := exec.Command(bin, "export", "--state-dir", state).CombinedOutput()
		if err != nil && !strings.Contains(string(out), "no current game") {
			t.Fatalf("export: %v\n%s", err, out)
		}
		exports++
		if m, _ := filepath.Glob(filepath.Join(state, game.GamesDir, "*")); len(m) == 1 {
			b, _ := os.ReadFile(m[0])
			snaps = append(snaps, b)
		}
	}
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	d.cmd.Wait()
	m, _ := filepath.Glob(filepath.Join(state, game.GamesDir, "*"))
	if len(m) != 1 {
		t.Fatalf("games directory holds %v, want one journal and no copy aside", m)
	}
	final, err := os.ReadFile(m[0])
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range snaps {
		if !bytes.HasPrefix(final, s) {
			t.Fatalf("copy %d of %d (%d bytes) is not a prefix of the final journal: something cut it", i+1, len(snaps), len(s))
		}
	}
	code, out, errs := run("export", "--state-dir", state)
	if code != exitOK || !strings.Contains(out, "3. ") {
		t.Errorf("final export: exit %d\n%s%s", code, out, errs)
	}
	t.Logf("%d exports during %d moves", exports, len(moves))
}
