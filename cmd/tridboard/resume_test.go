package main

import "testing"

// A journal resumes with its own system: a Millennium game started on the
// simulated Millennium set goes on after a restart whose configuration
// names st3d, on the Millennium set again.
func TestResumeKeepsTheGamesSystem(t *testing.T) {
	t.Parallel()
	p := startSet(t, "m1", t.TempDir(), "")
	// A new game of Millennium is refused on the ST3D set...
	c, topics := connectTo(t, p)
	if r := sendCommand(t, c, topics, "new_game", `{"variant":"millennium"}`); r["status"] != "error" {
		t.Fatalf("new_game millennium on the ST3D set: %v", r)
	}
	// ...and played on a Millennium set's (a fresh state directory).
	p.stop()
	p.cfg.StateDir, p.cfg.Variant = t.TempDir(), "millennium"
	p.start()
	standSet(p.d.board, p.d.tb.Snapshot().Expected)
	p.waitInSync()
	p.handSynced("1e2-1e4")
	p.waitMoves(1)
	p.stop()
	p.cfg.Variant = "st3d"
	p.start()
	snap := p.d.tb.Snapshot()
	if snap.System.Name() != "millennium" || len(snap.Moves) != 1 || snap.Moves[0].Move != "1e2-1e4" {
		t.Fatalf("resumed %s with %+v", snap.System.Name(), snap.Moves)
	}
	standSet(p.d.board, snap.Expected)
	p.waitInSync()
}
